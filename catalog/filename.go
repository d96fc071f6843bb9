package catalog

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// MetaSuffix ends the name of a capture's metadata file, which is not a catalog.
const MetaSuffix = ".meta.json"

// ParseFileName splits a catalog file name "<server>@<version>[+variant].json"
// (any directory is ignored) into its parts. A name without "@" is the
// server name with an empty version; "+" after the "@" starts the variant.
func ParseFileName(path string) (server, version, variant string) {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, ".json")
	at := strings.LastIndex(base, "@")
	if at <= 0 {
		return base, "", ""
	}
	server = base[:at]
	version, variant, _ = strings.Cut(base[at+1:], "+")
	return server, version, variant
}

// IsMetaFile reports whether path names a capture metadata file.
func IsMetaFile(path string) bool { return strings.HasSuffix(path, MetaSuffix) }

// Versionless names each server version that has no version (a file name
// without "@VERSION") while other versions of its series were read: it is
// then read as the series' oldest version, which its name does not say.
func Versionless(servers []*Server) []string {
	versions := map[string][]string{}
	for _, s := range servers {
		if s.Version != "" {
			versions[s.Key()] = append(versions[s.Key()], s.Version)
		}
	}
	var out []string
	for _, s := range servers {
		others := versions[s.Key()]
		if s.Version != "" || len(others) == 0 {
			continue
		}
		slices.SortFunc(others, CompareVersions)
		out = append(out, fmt.Sprintf("%s: no version, so it is read as the oldest version of %s, before %s: name the file %s@VERSION.json (in a manifest, give its entry a version), or move it out",
			where(s), s.Key(), strings.Join(others, ", "), s.Name))
	}
	return out
}
