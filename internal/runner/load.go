package runner

import (
	"io"
	"io/fs"

	"github.com/defersim/defersim/catalog"
)

// PathSources turns file or directory paths into sources.
func PathSources(paths ...string) []Source {
	srcs := make([]Source, len(paths))
	for i, p := range paths {
		srcs[i] = Source{Path: p}
	}
	return srcs
}

// CatalogSources reads catalog paths as a run reads a scenario's: a path
// "embedded:NAME" is NAME in embedded (the sample catalog a build embeds,
// "embedded:catalog"), any other a file or directory on disk. run,
// recommend and calibrate read --catalogs through it, so that the three
// accept the embedded catalog alike.
func CatalogSources(paths []string, embedded fs.FS) ([]Source, error) {
	return sources(paths, embedded)
}

// LoadCatalogs loads catalog sources (directories, manifests or files, on
// disk or in an fs.FS) into one catalog, as a run does.
func LoadCatalogs(srcs []Source) (*catalog.Catalog, error) { return loadCatalogs(srcs) }

// Open opens the source for reading.
func (s Source) Open() (io.ReadCloser, error) { return s.open() }

// InputPaths lists the files and directories on disk that the run reads
// (traces and catalogs; embedded data is not on disk), for outguard.
func (c Config) InputPaths() []string {
	var out []string
	for _, srcs := range [][]Source{c.Traces, c.Catalogs} {
		for _, s := range srcs {
			if s.FS == nil {
				out = append(out, s.Path)
			}
		}
	}
	return append(out, c.SRD...)
}
