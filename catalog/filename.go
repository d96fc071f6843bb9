package catalog

import (
	"path/filepath"
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
