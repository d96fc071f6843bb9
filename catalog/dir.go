package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/internal/yamlerr"
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
// series key and version are an error, and so is a file LoadDir would skip
// although its name makes it a catalog: ".json" in another case, or a
// compressed "*.json.gz" (notReadCatalog). Other files (hidden ones,
// sub-directories, README.md, …) are ignored.
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
	var subdirs []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() && !strings.HasPrefix(name, ".") {
			subdirs = append(subdirs, name)
		}
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		if why := notReadCatalog(name); why != "" {
			return nil, fmt.Errorf("load catalog dir %s: %s is not read: %s", dir, name, why)
		}
		if err := metaWithoutCatalog(dir, name); err != nil {
			return nil, err
		}
		if !strings.HasSuffix(name, ".json") || IsMetaFile(name) {
			continue
		}
		s, err := LoadFile(filepath.Join(dir, name))
		if errors.Is(err, ErrNotCatalog) {
			return nil, fmt.Errorf("%w; every *.json file of a catalog directory is read as a catalog: move %s out of %s, or list the catalogs in a %s there (docs/catalogs.md)",
				err, name, dir, ManifestNames[0])
		}
		if err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	if len(servers) == 0 {
		return nil, fmt.Errorf("load catalog dir %s: no catalog files (*.json)%s", dir, subdirsHint(dir, subdirs))
	}
	return build(servers)
}

// metaWithoutCatalog is the error for a capture's "X.meta.json" in dir
// without the "X.json" it describes (nil for any other name): the
// capture's tools are missing, and skipping the file as a .meta.json would
// leave its server out of every total without a word.
func metaWithoutCatalog(dir, name string) error {
	if !IsMetaFile(name) {
		return nil
	}
	cat := strings.TrimSuffix(name, MetaSuffix) + ".json"
	if _, err := os.Stat(filepath.Join(dir, cat)); err == nil {
		return nil
	}
	return fmt.Errorf("load catalog dir %s: %s has no catalog %s beside it: the capture's tools are missing, so its server would be left out; restore %s, or move %s out of the directory",
		dir, name, cat, cat, name)
}

// subdirsHint names the sub-directories of dir that hold *.json files, for
// the error of a directory without catalogs: LoadDir does not descend into
// them ("" when none does).
func subdirsHint(dir string, subdirs []string) string {
	var with []string
	for _, d := range subdirs {
		files, err := filepath.Glob(filepath.Join(dir, d, "*.json"))
		if err == nil && len(files) > 0 {
			with = append(with, d)
		}
	}
	if len(with) == 0 {
		return ""
	}
	verb, which := "hold", "each"
	if len(with) == 1 {
		verb, which = "holds", "it"
	}
	return fmt.Sprintf("; sub-directories are not read, and %s %s *.json files: give %s as a PATH instead",
		strings.Join(with, ", "), verb, which)
}

// compressedSuffixes are the compressions a catalog file name may carry
// after ".json" that LoadDir refuses (it reads plain JSON only).
var compressedSuffixes = []string{".gz", ".bz2", ".xz", ".zst", ".lz4", ".br", ".zip"}

// notReadCatalog says why LoadDir would skip a file whose name makes it
// look like a catalog ("" for a file it reads or that is not one): a
// ".json" in another case ("fs@1.0.JSON") or a compressed catalog
// ("fs@1.0.json.gz"). Skipping it silently would drop a server the user
// meant to give.
func notReadCatalog(name string) string {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".json") && !strings.HasSuffix(name, ".json"):
		return fmt.Sprintf(`a catalog file's name ends in ".json", in lower case: rename it to %s (or move it out of the directory)`,
			name[:len(name)-len(".json")]+".json")
	}
	for _, c := range compressedSuffixes {
		if strings.HasSuffix(lower, ".json"+c) {
			return fmt.Sprintf("compressed catalogs are not read: decompress it to %s (or move it out of the directory)",
				name[:len(name)-len(c)])
		}
	}
	return ""
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
		return nil, fmt.Errorf("%s: invalid manifest: %w", path, yamlerr.Fix(err, data))
	}
	if len(m.Servers) == 0 {
		return nil, fmt.Errorf("%s: manifest lists no servers", path)
	}
	base := filepath.Dir(path)
	servers := make([]*Server, 0, len(m.Servers))
	entry := map[string]int{} // series key and version → first entry
	for i, e := range m.Servers {
		if e.Server == "" {
			return nil, fmt.Errorf("%s: servers[%d]: missing server", path, i)
		}
		if e.File == "" {
			return nil, fmt.Errorf("%s: servers[%d]: missing file", path, i)
		}
		if HasVariant(e.Version) {
			// A trace naming this version would name the variant's series
			// (SeriesRef), not this entry: the two forms would disagree.
			build := ""
			if buildMetadataLike(variantOf(e.Version)) {
				build = fmt.Sprintf("; if %q is semver build metadata, not a launch variant, write version %q alone", variantOf(e.Version), plainVersion(e.Version))
			}
			return nil, fmt.Errorf("%s: servers[%d]: version %q holds a launch variant after its \"+\": write it as version %q, variant %q (a trace naming %s at %q names that series)%s",
				path, i, e.Version, plainVersion(e.Version), variantOf(e.Version), e.Server, e.Version, build)
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
		id := s.Key() + "@" + s.Version
		if j, ok := entry[id]; ok {
			return nil, fmt.Errorf("%s: servers[%d] and servers[%d] both list %s (%s, %s): %s", path, j, i, id, m.Servers[j].File, e.File, twiceFix(servers[j], s))
		}
		entry[id] = i
		servers = append(servers, s)
	}
	return build(servers)
}

// twiceFix says what to do about a manifest listing one server version
// twice, as a and b: which of two different tool sets a run would read is
// the manifest's to say.
func twiceFix(a, b *Server) string {
	if sameTools(a, b) {
		return "the same tools twice; remove one entry"
	}
	return "with different tools; keep the entry of the catalog meant, or give the other another version"
}

// build groups servers into a catalog, rejecting a series version given
// twice (checkVersions).
func build(servers []*Server) (*Catalog, error) {
	if err := checkVersions(servers, false); err != nil {
		return nil, err
	}
	return New(servers...), nil
}

// Merge builds one catalog from servers loaded from several sources (for
// example several --catalogs directories). A series version that two
// sources both hold with the same tools is kept once (the later, as New
// keeps it); with different tools,
// or spelled two ways, it is an error: which one the catalog holds would
// depend on the order of the sources.
func Merge(servers []*Server) (*Catalog, error) {
	if err := checkVersions(servers, true); err != nil {
		return nil, err
	}
	return New(servers...), nil
}

// Distinct returns servers with each series version once, the first read,
// in their order, for a command that reads several paths that may overlap
// (a directory and a file in it, one directory twice). It checks them as
// Merge does: a series version read twice with different tools, or spelled
// two ways, is an error naming both files. skipped says, for each server
// left out, where it was read again.
func Distinct(servers []*Server) (kept []*Server, skipped []string, err error) {
	if err := checkVersions(servers, true); err != nil {
		return nil, nil, err
	}
	first := map[string]*Server{}
	for _, s := range servers {
		id := s.Key() + "@" + s.Version
		prev, ok := first[id]
		if !ok {
			first[id] = s
			kept = append(kept, s)
			continue
		}
		if filepath.Clean(where(prev)) == filepath.Clean(where(s)) {
			skipped = append(skipped, fmt.Sprintf("%s: %s read twice, counted once", s.Label(), where(s)))
		} else {
			skipped = append(skipped, fmt.Sprintf("%s: %s holds the same tools as %s, counted once", s.Label(), where(s), where(prev)))
		}
	}
	return kept, skipped, nil
}

// checkVersions rejects two servers of one series at the same version, and
// at versions equal by value but spelled differently ("1.2" and "v1.2.0",
// which CompareVersions orders bytewise: the "latest" would be an accident
// of spelling). With sameOK, the same version twice with the same tools
// (served fingerprints, in served order) is allowed.
func checkVersions(servers []*Server, sameOK bool) error {
	bySeries := map[string][]*Server{}
	for _, s := range servers {
		k := s.Key()
		for _, prev := range bySeries[k] {
			switch {
			case prev.Version == s.Version && sameOK && sameTools(prev, s):
			case prev.Version == s.Version && sameOK:
				return fmt.Errorf("server version %s@%s is in %s and in %s with different tools: keep one", k, s.Version, where(prev), where(s))
			case prev.Version == s.Version:
				return fmt.Errorf("duplicate server version %s@%s in %s and %s", k, s.Version, where(prev), where(s))
			case compareVersionParts(prev.Version, s.Version) == 0:
				return fmt.Errorf("%s@%s (%s) and %s@%s (%s) are the same version spelled two ways: keep one", k, prev.Version, where(prev), k, s.Version, where(s))
			}
		}
		bySeries[k] = append(bySeries[k], s)
	}
	return nil
}

// sameTools reports whether a and b serve the same tools, as served, in the
// same order.
func sameTools(a, b *Server) bool {
	return slices.EqualFunc(a.Tools, b.Tools, func(x, y *Tool) bool { return x.ServedFingerprint == y.ServedFingerprint })
}

// where names the file a server came from, or its label when built in memory.
func where(s *Server) string {
	if s.Source != "" {
		return s.Source
	}
	return s.Label()
}
