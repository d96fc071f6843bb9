package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// ManifestNames are the file names LoadDir looks for, in this order; the
// first one present lists the catalog instead of the directory's *.json files.
var ManifestNames = []string{"catalog.yaml", "catalog.yml", "manifest.json"}

// ManifestEntry is one line of a manifest: which file holds which server
// version. File is relative to the manifest's directory.
type ManifestEntry struct {
	Server  string `yaml:"server" json:"server"`
	Version string `yaml:"version" json:"version"`
	Variant string `yaml:"variant,omitempty" json:"variant,omitempty"`
	File    string `yaml:"file" json:"file"`
}

// Manifest lists catalog files explicitly.
type Manifest struct {
	Servers []ManifestEntry `yaml:"servers" json:"servers"`
}

// LoadDir loads a directory of catalogs. When it holds a manifest (see
// ManifestNames) the manifest decides; otherwise every "*.json" file except
// "*.meta.json" is a catalog named by its file name. Two files with the same
// series key and version are an error.
func LoadDir(dir string) (*Catalog, error) {
	for _, m := range ManifestNames {
		p := filepath.Join(dir, m)
		if _, err := os.Stat(p); err == nil {
			return LoadManifest(p)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("load catalog dir: %w", err)
	}
	var servers []*Server
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") || IsMetaFile(name) || strings.HasPrefix(name, ".") {
			continue
		}
		s, err := LoadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	if len(servers) == 0 {
		return nil, fmt.Errorf("load catalog dir %s: no catalog files (*.json)", dir)
	}
	return build(servers)
}

// IsManifest reports whether path names a manifest file (by its base name).
func IsManifest(path string) bool {
	return slices.Contains(ManifestNames, filepath.Base(path))
}

// LoadManifest loads the catalogs a manifest lists. A YAML manifest
// (catalog.yaml / catalog.yml) and a JSON one (manifest.json) have the same
// shape: {"servers":[{"server","version","variant","file"}]}. Server, version
// and variant in the manifest override the file name.
func LoadManifest(path string) (*Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load manifest: %w", err)
	}
	var m Manifest
	dec := yaml.NewDecoder(strings.NewReader(string(data))) // JSON is YAML
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: invalid manifest: %w", path, err)
	}
	if len(m.Servers) == 0 {
		return nil, fmt.Errorf("%s: manifest lists no servers", path)
	}
	base := filepath.Dir(path)
	servers := make([]*Server, 0, len(m.Servers))
	for i, e := range m.Servers {
		if e.Server == "" {
			return nil, fmt.Errorf("%s: servers[%d]: missing server", path, i)
		}
		if e.File == "" {
			return nil, fmt.Errorf("%s: servers[%d]: missing file", path, i)
		}
		f := e.File
		if !filepath.IsAbs(f) {
			f = filepath.Join(base, f)
		}
		s, err := LoadFile(f)
		if err != nil {
			return nil, fmt.Errorf("%s: servers[%d]: %w", path, i, err)
		}
		s.Name, s.Version, s.Variant = e.Server, e.Version, e.Variant
		for _, t := range s.Tools {
			t.Server = s.Name
		}
		servers = append(servers, s)
	}
	return build(servers)
}

// build groups servers into a catalog, rejecting duplicate key+version.
func build(servers []*Server) (*Catalog, error) {
	seen := map[string]string{}
	for _, s := range servers {
		id := s.Key() + "@" + s.Version
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("duplicate server version %s@%s in %s and %s", s.Key(), s.Version, prev, s.Source)
		}
		seen[id] = s.Source
	}
	return New(servers...), nil
}
