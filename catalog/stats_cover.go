package catalog

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/termsafe"
)

// cover fills Series, NotCounted and Covers: how many servers the counted
// versions belong to, which versions were read but not counted, and what
// the figures therefore mean.
func (st *Stats) cover(counted, notCounted []*Server) {
	keys := map[string]bool{}
	for _, s := range counted {
		keys[s.Key()] = true
	}
	st.Series = len(keys)
	st.NotCounted = nil
	for _, s := range notCounted {
		st.NotCounted = append(st.NotCounted, s.Label())
	}
	st.VersionsSeen = versionsSeen(counted, notCounted)
	versions, servers := len(counted), nouns.Count(st.Series, "server")
	switch {
	case versions == 0:
		st.Covers = "no server"
	case versions > st.Series && len(notCounted) == 0:
		st.Covers = fmt.Sprintf("every version read, %d versions of %s: the total adds up the versions of a server, more than any session sees", versions, servers)
	case versions > st.Series:
		st.Covers = fmt.Sprintf("%d versions of %s: the total adds up the versions of a server, more than any session sees", versions, servers)
	case len(notCounted) > 0:
		st.Covers = fmt.Sprintf("the latest version of each of %s (what a session on up-to-date servers sees)", servers)
	case st.Series == 1:
		st.Covers = "one version of 1 server"
	default:
		st.Covers = "one version of each of " + servers
	}
	if len(notCounted) > 0 {
		st.Covers += fmt.Sprintf("; %s read, not counted", nouns.Count(len(notCounted), "older version"))
	}
}

// totalLabel is the TOTAL row's name: the servers it covers, and whether
// it sums several versions of a server or only the latest of each.
func (st Stats) totalLabel() string {
	switch {
	case st.Total.Servers > st.Series:
		return fmt.Sprintf("TOTAL (%d versions of %s)", st.Total.Servers, nouns.Count(st.Series, "server"))
	case len(st.NotCounted) > 0:
		return fmt.Sprintf("TOTAL (%s, latest versions)", nouns.Count(st.Series, "server"))
	default:
		return fmt.Sprintf("TOTAL (%s)", nouns.Count(st.Total.Servers, "server"))
	}
}

// formatCover writes what the figures cover when that is not simply one
// version of each server: the older versions left out, each named, or the
// versions of one server summed.
func formatCover(w io.Writer, st Stats) {
	if len(st.NotCounted) == 0 && st.Total.Servers <= st.Series {
		return
	}
	fmt.Fprintf(w, "\ncounted: %s", st.Covers)
	if len(st.NotCounted) == 0 {
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintln(w, " (--all-versions counts every version):")
	for _, v := range st.VersionsSeen {
		fmt.Fprintf(w, "  %s: %s counted; %s not counted\n", termsafe.String(v.Series),
			strings.Join(termsafe.Strings(noVersion(v.Counted)), ", "), strings.Join(termsafe.Strings(noVersion(v.NotCounted)), ", "))
	}
}

// versionsSeen lists, per series with a version not counted, the versions
// counted and not, in key order.
func versionsSeen(counted, notCounted []*Server) []SeriesVersions {
	by := map[string]*SeriesVersions{}
	for _, s := range notCounted {
		v := by[s.Key()]
		if v == nil {
			v = &SeriesVersions{Series: s.Key(), Counted: []string{}}
			by[s.Key()] = v
		}
		v.NotCounted = append(v.NotCounted, s.Version)
	}
	for _, s := range counted {
		if v := by[s.Key()]; v != nil {
			v.Counted = append(v.Counted, s.Version)
		}
	}
	var out []SeriesVersions
	for _, k := range slices.Sorted(maps.Keys(by)) {
		v := by[k]
		slices.SortFunc(v.Counted, CompareVersions)
		slices.SortFunc(v.NotCounted, CompareVersions)
		out = append(out, *v)
	}
	return out
}

// noVersion is versions with an empty one written "(no version)".
func noVersion(versions []string) []string {
	out := slices.Clone(versions)
	for i, v := range out {
		if v == "" {
			out[i] = "(no version)"
		}
	}
	return out
}
