package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// mixedSeries is a series whose versions mix dates and release numbers:
// its versions in the order CompareVersions gives them, and which are
// dates.
type mixedSeries struct {
	key      string
	versions []string
	dates    int
	where    *Server // its first version, to locate the series
}

// MixedVersionSchemes names each series (Server.Key) whose versions mix
// dates (2024-09-01, 20240901: when a capture was taken) and release
// numbers (1.2.0, and calendar versions such as 2025.4.8, which a package
// registry orders by number as CompareVersions does). CompareVersions
// orders them by reading a date as a release number (2024-09-01 as
// 2024.9.1), so every date sorts after every release below 2024: the
// latest version, the releases of a drift history and a version gap
// follow that rule, which no capture says is the release order. Each is
// named with its versions in that order and the one taken as latest.
func MixedVersionSchemes(servers []*Server) []string {
	var out []string
	for _, m := range mixedVersionSchemes(servers) {
		out = append(out, fmt.Sprintf("%s: versions of %s mix dates and release numbers (%s): ordered by reading a date as a release number (2024-09-01 as 2024.9.1, after every release below 2024), so %s is taken as its latest and each history step follows that order, which may not be the release order; name its versions in one scheme",
			where(m.where), m.key, strings.Join(m.versions, " before "), m.versions[len(m.versions)-1]))
	}
	return out
}

// mixedVersionSchemes are the series MixedVersionSchemes names, by key.
func mixedVersionSchemes(servers []*Server) []mixedSeries {
	byKey := map[string][]*Server{}
	var keys []string
	for _, s := range servers {
		k := s.Key()
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], s)
	}
	slices.Sort(keys)
	var out []mixedSeries
	for _, k := range keys {
		vs := slices.Clone(byKey[k])
		slices.SortStableFunc(vs, func(a, b *Server) int { return CompareVersions(a.Version, b.Version) })
		m := mixedSeries{key: k, where: vs[0]}
		releases := 0
		for _, s := range vs {
			if slices.Contains(m.versions, s.Version) {
				continue
			}
			m.versions = append(m.versions, s.Version)
			switch versionScheme(s.Version) {
			case schemeDate:
				m.dates++
			case schemeRelease:
				releases++
			}
		}
		if m.dates > 0 && releases > 0 {
			out = append(out, m)
		}
	}
	return out
}

// Version schemes versionScheme tells apart.
const (
	schemeOther   = iota // empty, a content hash, a word
	schemeDate           // a date: 2024-09-01, 2024-9, 20240901
	schemeRelease        // a number first: 1.2.0, 0.9, 2025.4.8
)

// versionScheme says whether v is a date (digit fields joined by dashes,
// the first a year 1900–2999: 2024-09-01; or 8 digits YYYYMMDD), a release
// number (any other version whose first field is a number, calendar
// versions such as 2025.4.8 among them: a package registry orders those by
// number, as CompareVersions does) or neither (empty, a ContentVersion, a
// word).
func versionScheme(v string) int {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V")
	if v == "" || ContentVersion(v) {
		return schemeOther
	}
	if strings.Contains(v, "-") && dashedDate(v) != v {
		first, _, _ := strings.Cut(v, "-")
		if n, _ := numericField(first); len(first) == 4 && n >= 1900 && n <= 2999 {
			return schemeDate
		}
	}
	if n, ok := numericField(v); ok && len(v) == 8 {
		y, m, d := n/10000, n/100%100, n%100
		if y >= 1900 && y <= 2999 && m >= 1 && m <= 12 && d >= 1 && d <= 31 {
			return schemeDate
		}
	}
	first, _, _ := strings.Cut(v, ".")
	first, _, _ = strings.Cut(first, "-")
	if _, ok := numericField(first); ok {
		return schemeRelease
	}
	return schemeOther
}
