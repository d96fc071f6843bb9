package gen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/traces"
)

// Files written by WriteDir, relative to its directory.
const (
	CatalogDir = "catalog"
	TraceFile  = "trace.jsonl.gz"
	ParamsFile = "params.yaml"
	// UpgradesFile is written over an external catalog only.
	UpgradesFile = "upgrades.yaml"
)

// WriteOptions tune WriteDir.
type WriteOptions struct {
	// Clean removes catalog files in DIR/catalog that this generation does
	// not write. Without it, such files are an error (they would silently
	// join the catalog).
	Clean bool
	// Final, when set, is the directory the files will be moved to (the
	// caller writes into a staging directory, atomicfile.Set): its catalog
	// is the one checked for stale files, and with Clean the caller removes
	// them when it moves the new files into place.
	Final string
	// Context, when set, stops the generation when it is cancelled.
	Context context.Context
	// Progress, when set, is called after each session written with the
	// number written so far.
	Progress func(sessions int)
	// CatalogRef, over an external catalog (NewOver), is written in every
	// session_start as meta traces.MetaCatalog: the catalog directory
	// relative to the trace's (traces.CatalogRef), so that run, sweep and
	// the trace commands find the catalog without --catalogs. Ignored for
	// a generated catalog, which is written beside the trace.
	CatalogRef string
}

// Summary describes what WriteDir wrote.
type Summary struct {
	Servers       int   `json:"servers"`
	ServerFiles   int   `json:"server_versions"`
	Tools         int   `json:"tools"`
	Sessions      int   `json:"sessions"`
	Events        int64 `json:"events"`
	ToolCalls     int64 `json:"tool_calls"`
	CatalogChange int64 `json:"catalog_changes"`
	TraceBytes    int64 `json:"trace_bytes"`
	CatalogBytes  int64 `json:"catalog_bytes"`
}

// WriteDir writes DIR/catalog/<server>@<version>.json (MCP tools/list),
// DIR/trace.jsonl.gz and DIR/params.yaml, each atomically. Sessions are
// streamed: memory stays bounded whatever p.Sessions is. Over an external
// catalog (NewOver) no catalog is written; DIR/upgrades.yaml holds the
// fleet upgrade schedule instead (see UpgradesYAML).
func (g *Generator) WriteDir(dir string, opt WriteOptions) (*Summary, error) {
	if g.over != nil {
		return g.writeOverDir(dir, opt)
	}
	cdir := filepath.Join(dir, CatalogDir)
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", cdir, err)
	}
	sum := &Summary{Servers: len(g.servers)}
	want := map[string][]byte{}
	tools := map[string]bool{}
	for _, s := range g.servers {
		for _, v := range s.versions {
			want[s.name+"@"+v.version+".json"] = v.toolsList()
			for _, t := range v.tools {
				tools[s.name+"/"+t.name] = true
			}
		}
	}
	sum.Tools = len(tools)
	sum.ServerFiles = len(want)
	if opt.Final == "" {
		if err := checkStale(cdir, want, opt.Clean, true); err != nil {
			return nil, err
		}
	} else if err := checkStale(filepath.Join(opt.Final, CatalogDir), want, opt.Clean, false); err != nil {
		return nil, err
	}
	if err := checkStaleFile(dir, opt, UpgradesFile, "an earlier generation over a catalog wrote it; it does not describe this one"); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := atomicfile.WriteFile(filepath.Join(cdir, n), want[n], 0o644); err != nil {
			return nil, err
		}
		sum.CatalogBytes += int64(len(want[n]))
	}
	if err := g.writeParamsAndTrace(dir, sum, opt); err != nil {
		return nil, err
	}
	return sum, nil
}

// writeParamsAndTrace writes DIR/params.yaml and streams the sessions to
// DIR/trace.jsonl.gz, counting what it writes into sum (opt: its Context,
// Progress and, over a catalog, CatalogRef).
func (g *Generator) writeParamsAndTrace(dir string, sum *Summary, opt WriteOptions) error {
	ctx, progress := opt.Context, opt.Progress
	py, err := g.p.YAML()
	if err != nil {
		return err
	}
	if g.over != nil {
		py = append([]byte(overParamsHeader), py...)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, ParamsFile), py, 0o644); err != nil {
		return err
	}
	tpath := filepath.Join(dir, TraceFile)
	err = atomicfile.Write(tpath, 0o644, func(f *os.File) error {
		w := traces.NewWriter(f, true)
		for s := range g.Sessions() {
			if ctx != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			sum.Sessions++
			if g.over != nil && opt.CatalogRef != "" {
				s.Events[0].EnsureStart().Meta[traces.MetaCatalog] = opt.CatalogRef
			}
			for i := range s.Events {
				sum.Events++
				switch s.Events[i].Type {
				case traces.ToolCall:
					sum.ToolCalls++
				case traces.CatalogChange:
					sum.CatalogChange++
				}
			}
			if err := w.WriteSession(s); err != nil {
				return err
			}
			if progress != nil {
				progress(sum.Sessions)
			}
		}
		return w.Close()
	})
	if err != nil {
		return err
	}
	if st, err := os.Stat(tpath); err == nil {
		sum.TraceBytes = st.Size()
	}
	return nil
}

// checkStaleFile refuses file in the output directory (opt.Final, or dir)
// that this generation does not write, saying why (an earlier generation
// of the other kind left it); with opt.Clean it is removed (by the caller
// when opt.Final is set).
func checkStaleFile(dir string, opt WriteOptions, file, why string) error {
	final := dir
	if opt.Final != "" {
		final = opt.Final
	}
	path := filepath.Join(final, file)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if !opt.Clean {
		return fmt.Errorf("%s holds %s, which this generation does not write (%s); remove it, choose another directory, or clean (--force)", final, file, why)
	}
	if opt.Final != "" {
		return nil
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove stale %s: %w", file, err)
	}
	return nil
}

// checkStale finds catalog files this generation would not rewrite; with
// clean and remove it removes them.
func checkStale(cdir string, want map[string][]byte, clean, remove bool) error {
	ents, err := os.ReadDir(cdir)
	if errors.Is(err, fs.ErrNotExist) && !remove {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", cdir, err)
	}
	var stale []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".json") {
			continue
		}
		if _, ok := want[n]; !ok {
			stale = append(stale, n)
		}
	}
	if len(stale) == 0 {
		return nil
	}
	if !clean {
		return fmt.Errorf("%s holds %s this generation does not write (first: %s); remove %s, choose another directory, or clean (--force)", cdir, nouns.Count(len(stale), "catalog file"), stale[0], nouns.Form(len(stale), "it", "them"))
	}
	if !remove {
		return nil
	}
	for _, n := range stale {
		if err := os.Remove(filepath.Join(cdir, n)); err != nil {
			return fmt.Errorf("remove stale catalog file: %w", err)
		}
	}
	return nil
}
