package catalog

import (
	"fmt"
	"path/filepath"
	"strings"
)

// BuildMetadataVariants names each server version whose file name gave it a
// launch variant that reads like semver build metadata
// ("fs@1.2.3+build.5.json", "fs@1.0.0+20240115.json"): the "+" of a file
// name starts a variant, so such a file is a server of its own (series
// "fs+build.5") beside the plain one, and a total counts it as another
// server. A variant reads like build metadata when it is dot-separated
// identifiers of ASCII letters, digits and "-" (semver's syntax) holding
// at least one digit; the variants of the shared captures ("caps-vision-pdf",
// "no-docs") hold none. Only a variant taken from the file name is named: a
// manifest gives its variant explicitly.
func BuildMetadataVariants(servers []*Server) []string {
	var out []string
	for _, s := range buildMetadataServers(servers) {
		out = append(out, fmt.Sprintf("%s: %q after the \"+\" is read as a launch variant, so %s is a server of its own beside %s, not %s@%s: if it is semver build metadata, name the file %s (a version is one capture; build metadata does not order releases)",
			s.Source, s.Variant, s.Key(), s.Name, s.Name, s.Version,
			filepath.Join(filepath.Dir(s.Source), s.Name+"@"+s.Version+".json")))
	}
	return out
}

// buildMetadataServers are the server versions BuildMetadataVariants
// names, in load order.
func buildMetadataServers(servers []*Server) []*Server {
	var out []*Server
	for _, s := range servers {
		if s.Variant == "" || s.Source == "" || !buildMetadataLike(s.Variant) {
			continue
		}
		name, version, variant := ParseFileName(s.Source)
		if variant != s.Variant || name != s.Name || version != s.Version {
			continue
		}
		out = append(out, s)
	}
	return out
}

// buildMetadataLike reports whether v has semver's build-metadata syntax,
// dot-separated non-empty identifiers of [0-9A-Za-z-], and holds a digit.
func buildMetadataLike(v string) bool {
	digit := false
	for f := range strings.SplitSeq(v, ".") {
		if f == "" {
			return false
		}
		for i := 0; i < len(f); i++ {
			switch c := f[i]; {
			case c >= '0' && c <= '9':
				digit = true
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '-':
			default:
				return false
			}
		}
	}
	return digit
}
