package runner

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

func (s Source) open() (io.ReadCloser, error) {
	if s.spool != nil {
		return io.NopCloser(io.NewSectionReader(s.spool.f, 0, s.spool.size)), nil
	}
	if s.FS != nil {
		return s.FS.Open(s.Name)
	}
	return os.Open(s.Path)
}

// loadCatalogs loads every catalog source into one catalog.
func loadCatalogs(srcs []Source) (*catalog.Catalog, error) {
	var servers []*catalog.Server
	for _, src := range srcs {
		if src.FS != nil {
			ss, err := loadFS(src)
			if err != nil {
				return nil, err
			}
			servers = append(servers, ss...)
			continue
		}
		st, err := os.Stat(src.Path)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", src.Path, err)
		}
		if st.IsDir() {
			c, err := catalog.LoadDir(src.Path)
			if err != nil {
				return nil, err
			}
			servers = append(servers, c.All()...)
			continue
		}
		if catalog.IsManifest(src.Path) {
			c, err := catalog.LoadManifest(src.Path)
			if err != nil {
				return nil, err
			}
			servers = append(servers, c.All()...)
			continue
		}
		s, err := catalog.LoadFile(src.Path)
		if err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	return catalog.New(servers...), nil
}

// loadFS loads the catalog files of an fs.FS directory.
func loadFS(src Source) ([]*catalog.Server, error) {
	entries, err := fs.ReadDir(src.FS, src.Name)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", src.Path, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && !catalog.IsMetaFile(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []*catalog.Server
	for _, n := range names {
		data, err := fs.ReadFile(src.FS, path.Join(src.Name, n))
		if err != nil {
			return nil, fmt.Errorf("catalog %s/%s: %w", src.Path, n, err)
		}
		server, version, variant := catalog.ParseFileName(n)
		s, err := catalog.Parse(data, server, version, variant)
		if err != nil {
			return nil, fmt.Errorf("catalog %s/%s: %w", src.Path, n, err)
		}
		s.Source = src.Path + "/" + n
		out = append(out, s)
	}
	return out, nil
}

// catalogInputs describes every loaded server version for the results.
func catalogInputs(c *catalog.Catalog) []sim.Input {
	var out []sim.Input
	for _, s := range c.All() {
		out = append(out, sim.Input{Kind: "catalog", Path: s.Source, SHA256: s.Fingerprint,
			Server: s.Name, Version: s.Version, Tools: len(s.Tools)})
	}
	return out
}
