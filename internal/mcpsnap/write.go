package mcpsnap

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
)

// DefaultFileName is "<name>@<version>.json" for the snapshot, name and
// version made safe for a file name with FileStem.
func (s *Snapshot) DefaultFileName() string {
	name := FileStem(s.Meta.Server)
	if v := s.Server.Version; v != "" {
		name += "@" + FileStem(v)
	}
	return name + ".json"
}

// WriteFiles writes the catalog to path and the metadata beside it
// (path without ".json" plus ".meta.json"), each atomically. It returns the
// metadata path.
func (s *Snapshot) WriteFiles(path string) (string, error) {
	if catalog.IsMetaFile(path) {
		return "", fmt.Errorf("snapshot output %s: a catalog file may not end in %s", path, catalog.MetaSuffix)
	}
	meta, err := s.Meta.Marshal()
	if err != nil {
		return "", err
	}
	metaPath := MetaPath(path)
	if err := atomicfile.WriteFile(path, s.Catalog, 0o644); err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(metaPath, meta, 0o644); err != nil {
		return "", err
	}
	return metaPath, nil
}

// MetaPath returns the metadata file beside catalog file path.
func MetaPath(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + catalog.MetaSuffix
}

// FileStem makes s safe as part of a catalog file name: a leading "@" is
// dropped, "/" becomes "__" (the shared catalogs' spelling of npm scopes)
// and any character other than letters, digits, '.', '_' and '-' becomes
// '-'. "@" and "+" never survive, so the name parses back with
// catalog.ParseFileName. An empty result is "server".
func FileStem(s string) string {
	s = strings.TrimPrefix(s, "@")
	s = strings.ReplaceAll(s, "/", "__")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), ".")
	if out == "" {
		return "server"
	}
	return out
}
