package importers

import (
	"bytes"
	"fmt"
	"path/filepath"

	mcpcatalog "github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// loadCatalogDir reads a catalog directory given with --tools (files
// <server>@<version>.json, or a manifest: see catalog.LoadDir in package catalog) as one schema
// set per server, at its latest version. Older versions are noted in rep:
// one session sees one version of a server.
func loadCatalogDir(dir string, rep *ingest.Report) ([]*toolschema.Set, error) {
	cat, err := mcpcatalog.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(dir)
	var sets []*toolschema.Set
	for _, key := range cat.ServerNames() {
		vs := cat.Versions[key]
		s := vs[len(vs)-1]
		if len(vs) > 1 {
			rep.Note("--tools %s: %d versions of %s; the latest (%s) is used", base, len(vs), key, s.Version)
		}
		var doc bytes.Buffer
		doc.WriteString(`{"tools":[`)
		for i, t := range s.Tools {
			if i > 0 {
				doc.WriteByte(',')
			}
			doc.Write(t.Raw)
		}
		doc.WriteString("]}")
		parsed, dropped, err := toolschema.Parse(base, doc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s@%s: %w", s.Name, s.Version, err)
		}
		for k, n := range dropped {
			rep.ToolDefinitionsDropped[base+": "+k] += n
		}
		// A launch variant is its own series: name it by its series key
		// ("p+caps") and plain version, as the run's catalogs key it. A
		// session named "p" at "0.0.45+caps" resolved to no catalog server.
		for _, p := range parsed {
			p.Server, p.Version = s.Key(), s.Version
			p.Source = sourceName(dir, s.Source)
			sets = append(sets, p)
		}
	}
	return sets, nil
}

// sourceName names a file a catalog directory dir contributed, for the
// report: a file inside dir by dir's base name and its path in dir (what
// every --tools DIR note shows), a file a manifest takes from outside dir
// by the path it was read from, which is relative when dir was given
// relative (the manifest's directory joined with its entry).
func sourceName(dir, file string) string {
	if rel, err := filepath.Rel(dir, file); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(filepath.Join(filepath.Base(dir), rel))
	}
	return filepath.ToSlash(file)
}
