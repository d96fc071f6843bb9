package runner

import (
	"errors"
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

// open opens the source. An error names the file once, by s.Path
// ("open PATH: reason"), so callers add no path of their own.
func (s Source) open() (io.ReadCloser, error) {
	if s.spool != nil {
		return io.NopCloser(io.NewSectionReader(s.spool.f, 0, s.spool.size)), nil
	}
	var f io.ReadCloser
	var err error
	if s.FS != nil {
		f, err = s.FS.Open(s.Name)
	} else {
		f, err = os.Open(s.Path)
	}
	if err != nil {
		return nil, s.pathError("open", err)
	}
	return f, nil
}

// reopen opens s again, if that reads the same bytes: an embedded or
// spooled source, or a regular file (not a pipe, which has been drained).
func (s Source) reopen() (io.ReadCloser, error) {
	if s.FS == nil && s.spool == nil {
		st, err := os.Stat(s.Path)
		if err != nil {
			return nil, s.pathError("stat", err)
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s cannot be read twice", s.Path)
		}
	}
	return s.open()
}

// pathError names s.Path in err once: a *fs.PathError gets s.Path as its
// path, any other error is wrapped as "op PATH: err".
func (s Source) pathError(op string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: s.Path, Err: pe.Err}
	}
	return fmt.Errorf("%s %s: %w", op, s.Path, err)
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
		if err := notStdin(src.Path); err != nil {
			return nil, fmt.Errorf("catalog: %w", err)
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
	return catalog.Merge(servers)
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

// catalogInputs describes every loaded server version for the results,
// with the size of the file it was read from (srcs resolve the files of
// embedded catalogs).
func catalogInputs(c *catalog.Catalog, srcs []Source) []sim.Input {
	var out []sim.Input
	for _, s := range c.All() {
		out = append(out, sim.Input{Kind: "catalog", Path: s.Source, SHA256: s.Fingerprint,
			Server: s.Name, Version: s.Version, Tools: len(s.Tools), Bytes: fileSize(s.Source, srcs)})
	}
	return out
}

// fileSize is the size of the catalog file named p: a file of an fs.FS
// source (named "SOURCE/NAME" by loadFS) or on disk; 0 when unknown.
func fileSize(p string, srcs []Source) int64 {
	for _, src := range srcs {
		if src.FS == nil || !strings.HasPrefix(p, src.Path+"/") {
			continue
		}
		if st, err := fs.Stat(src.FS, path.Join(src.Name, strings.TrimPrefix(p, src.Path+"/"))); err == nil {
			return st.Size()
		}
	}
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return st.Size()
	}
	return 0
}
