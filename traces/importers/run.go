package importers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Request describes one import.
type Request struct {
	Format string
	Inputs []string
	// Out is the trace file to write; a ".gz" suffix means gzip.
	Out string
	// CatalogDir is where the catalog goes; "" means Out + ".catalog".
	CatalogDir string
	// ToolFiles are schema sources (--tools), highest priority first.
	ToolFiles []string
	// ApproximateToolFiles are schema sources whose definitions are known
	// to be approximate (--approximate-tools): used after ToolFiles, their
	// tools are marked approximate in the catalog.
	ApproximateToolFiles []string
	// FallbackToolFiles are schema sources used only for tools the sessions
	// call and no other source defines (--fallback-tools); those tools are
	// marked approximate.
	FallbackToolFiles []string
	// SystemPromptFile supplies the system prompt when the source has none.
	SystemPromptFile string
	// Model, when set, is the model of every session.
	Model string
	// Server, when set, replaces the format's default server name.
	Server string
	// Context, when set, stops the import when it is cancelled (a signal):
	// nothing is written then, and no temporary file is left.
	Context context.Context
	// Check, when set, is called with every output path before any is
	// moved into place (outguard: an output must not be an input).
	Check func(path string) error
	// Progress, when set, is called after each input is imported with the
	// number of inputs done so far (for a progress report).
	Progress func(done int)
	// Gateway names the meta-tools of an MCP gateway the sessions were
	// recorded through (formats that support it; see SupportsGateway).
	Gateway ingest.Gateway
	// SkipBad skips JSON Lines lines that are not valid JSON, counted in
	// the report, instead of stopping (SkipBadFormats only).
	SkipBad bool
	// Connected is the assumption about the servers of user-given schema
	// sources that name a server (catalog directories, <server>@<version>
	// files), which no source records as connected or not: ConnectedAll
	// ("" too) or ConnectedCalled (see connected.go).
	Connected string
}

// Run performs the import: it writes the trace atomically, then the catalog
// directory, and returns the report.
func Run(req Request) (_ *ingest.Report, retErr error) {
	imp, err := Lookup(req.Format)
	if err != nil {
		return nil, err
	}
	g := req.Gateway
	if (len(g.SearchTools)+len(g.ExecuteTools)+len(g.QueryFields)+len(g.ServerFields)+len(g.ToolFields)+len(g.ParamsFields) > 0) &&
		!SupportsGateway(req.Format) {
		return nil, fmt.Errorf("gateway meta-tool options do not apply to %s (they do to %s)", req.Format, strings.Join(gatewayFormats(), ", "))
	}
	if req.SkipBad && !slices.Contains(SkipBadFormats, req.Format) {
		return nil, fmt.Errorf("--skip-bad does not apply to %s: a bad line of it is part of a session (or of a JSON document), "+
			"which would be imported without it and replay other requests than the recorded ones; repair the line "+
			"(--skip-bad applies to %s, whose JSON Lines hold one conversation a line)", req.Format, strings.Join(SkipBadFormats, " and "))
	}
	if len(req.Inputs) == 0 {
		return nil, fmt.Errorf("no input files")
	}
	connected, err := connectedRule(req.Connected)
	if err != nil {
		return nil, err
	}
	if req.Out == "" {
		return nil, fmt.Errorf("no output file (-o)")
	}
	if req.Inputs, err = expandInputs(req.Format, req.Inputs); err != nil {
		return nil, err
	}
	if err := alreadyTrace(req.Inputs); err != nil {
		return nil, err
	}
	rep := ingest.NewReport(req.Format)
	rep.Inputs = append([]string{}, req.Inputs...)
	rep.Output = req.Out
	rep.CatalogDir = req.CatalogDir
	if rep.CatalogDir == "" {
		rep.CatalogDir = req.Out + ".catalog"
	}
	opts, err := LoadOptions(req, rep)
	if err != nil {
		return nil, err
	}
	if len(opts.Fallback) > 0 {
		// A first pass finds the fallback tools some session calls and no
		// other source defines: they join the catalog of every session
		// their source applies to, as a tool set the agent had.
		scan := newPipeline(opts, ingest.NewReport(req.Format), discard{}, "")
		scan.scan = true
		simp, _ := Lookup(req.Format)
		if fi, ok := simp.(filesImporter); ok {
			scan.input = strings.Join(req.Inputs, ", ")
			if err := fi.ImportFiles(req.Inputs, opts, scan, ingest.NewReport(req.Format)); err != nil {
				return nil, inputsError(err, req.Format, req.Inputs)
			}
		} else {
			for _, in := range req.Inputs {
				scan.input = in
				if err := simp.ImportFile(in, opts, scan, ingest.NewReport(req.Format)); err != nil {
					return nil, withLookalike(err, req.Format, in)
				}
			}
		}
		opts.Fallback = scan.fallbackNeeded()
	}
	undoDir, err := atomicfile.Mkdir(filepath.Dir(req.Out))
	if err != nil {
		return nil, fmt.Errorf("create output directory: %w", err)
	}
	// A failed import leaves no output directory it created (empty).
	defer func() {
		if retErr != nil {
			undoDir()
		}
	}()
	ctx := req.Context
	if ctx == nil {
		ctx = context.Background()
	}
	// The trace and its catalog are one output set: both reach their names
	// or neither does (atomicfile.Set).
	set := atomicfile.NewSet()
	defer set.Abort()
	var p *pipeline
	// importErr is an input's error, returned as it is: atomicfile.Write
	// would prefix it with the staging file's hidden name, which says
	// nothing about the input.
	var importErr error
	err = atomicfile.Write(set.File(req.Out), 0o644, func(f *os.File) error {
		w := traces.NewWriter(ctxWriter{ctx, f}, strings.HasSuffix(req.Out, ".gz"))
		ref, err := traces.CatalogRef(req.Out, rep.CatalogDir)
		if err != nil {
			rep.Note("the trace names no catalog (%v): run --traces %s will need --catalogs %s", err, req.Out, rep.CatalogDir)
		}
		p = newPipeline(opts, rep, w, ref)
		p.connected = connected
		each := req.Inputs // the inputs imported one at a time
		if fi, ok := imp.(filesImporter); ok {
			// Sessions may span the inputs: every file is read before
			// sessions are grouped. Each file holds spans of some session
			// (an export of none is an error), so none is noted as empty.
			each = nil
			p.input = strings.Join(req.Inputs, ", ")
			if importErr = fi.ImportFiles(req.Inputs, opts, p, rep); importErr != nil {
				if ctx.Err() == nil {
					importErr = inputsError(importErr, req.Format, req.Inputs)
				}
				return importErr
			}
			if req.Progress != nil {
				req.Progress(len(req.Inputs))
			}
		}
		for i, in := range each {
			if err := ctx.Err(); err != nil {
				return err
			}
			before := rep.Sessions
			p.input = in
			if importErr = imp.ImportFile(in, opts, p, rep); importErr != nil {
				if ctx.Err() == nil {
					importErr = withLookalike(importErr, req.Format, in)
				}
				return importErr
			}
			if rep.Sessions == before {
				rep.Note("%s: no session found in it%s", filepath.Base(in), lookalike(req.Format, in))
			}
			if req.Progress != nil {
				req.Progress(i + 1)
			}
		}
		if rep.Sessions == 0 {
			// An empty trace with exit status 0 looks like a success; a
			// file of another format or an empty export is an error.
			importErr = withLookalike(noSessions(req, rep), req.Format, req.Inputs...)
			return importErr
		}
		return w.Close()
	})
	if importErr != nil {
		return nil, importErr
	}
	if err != nil {
		return nil, err
	}
	p.finish()
	if len(p.cat.files) > 0 {
		stage, err := set.Dir(rep.CatalogDir)
		if err != nil {
			return nil, err
		}
		if err := p.cat.write(stage, rep.CatalogDir, rep); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := set.Commit(req.Check); err != nil {
		return nil, err
	}
	rep.Finish()
	return rep, nil
}

// filesImporter is an importer whose sessions may span its inputs (an
// OpenTelemetry trace split over the files a collector rotated): it reads
// every input before it groups sessions, where ImportFile would group
// each file alone.
type filesImporter interface {
	ImportFiles(paths []string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error
}

// inputsError adds to err, a filesImporter's error on inputs, the format
// the input it names looks like (withLookalike); an error that names
// none is checked against all of them.
func inputsError(err error, format string, inputs []string) error {
	var ie *ingest.InputError
	if errors.As(err, &ie) {
		return withLookalike(err, format, ie.Path)
	}
	return withLookalike(err, format, inputs...)
}

// noSessions is the error of an import that found no session in any input:
// it names the format and what the inputs held that it could not map.
func noSessions(req Request, rep *ingest.Report) error {
	msg := fmt.Sprintf("%s: no %s session in it: 0 sessions to import (is --from %s the format of the input?)",
		req.Inputs[0], req.Format, req.Format)
	if len(req.Inputs) > 1 {
		msg = fmt.Sprintf("no %s session in any of the %d inputs: 0 sessions to import (is --from %s the format of the inputs?)",
			req.Format, len(req.Inputs), req.Format)
	}
	if len(rep.Unmapped) > 0 {
		keys := make([]string, 0, len(rep.Unmapped))
		for k := range rep.Unmapped {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) > 5 {
			keys = append(keys[:5], "…")
		}
		msg += "; not mapped: " + strings.Join(keys, ", ")
	}
	if rep.SkippedLines > 0 {
		msg += fmt.Sprintf("; skipped as not valid JSON (--skip-bad): %s, the first %s",
			nouns.Count(rep.SkippedLines, "line"), rep.Skipped[0])
	}
	return errors.New(msg)
}

// ctxWriter fails every write once ctx is cancelled, which stops an
// import at its next session.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(b)
}

// LoadOptions reads the files a request names (tool files, system prompt)
// into importer options, noting in rep what each contributed.
func LoadOptions(req Request, rep *ingest.Report) (*ingest.Options, error) {
	opts := &ingest.Options{Model: req.Model, Server: req.Server, Gateway: req.Gateway, SkipBad: req.SkipBad}
	for _, f := range req.ToolFiles {
		sets, err := loadToolSource("--tools", f, rep)
		if err != nil {
			return nil, err
		}
		opts.Tools = append(opts.Tools, sets...)
	}
	for _, f := range req.ApproximateToolFiles {
		sets, err := loadToolSource("--approximate-tools", f, rep)
		if err != nil {
			return nil, err
		}
		for _, s := range sets {
			if s.Fidelity == toolschema.Exact {
				s.Fidelity, s.Note = toolschema.Approximate, "given with --approximate-tools "+filepath.Base(f)
			}
		}
		opts.Tools = append(opts.Tools, sets...)
	}
	for _, f := range req.FallbackToolFiles {
		sets, err := loadToolSource("--fallback-tools", f, rep)
		if err != nil {
			return nil, err
		}
		for _, s := range sets {
			note := "taken from --fallback-tools " + filepath.Base(f) + " (no other source defines it)"
			if s.Note != "" {
				note += "; " + s.Note
			}
			s.Fidelity, s.Note = toolschema.Approximate, note
		}
		opts.Fallback = append(opts.Fallback, sets...)
	}
	if req.SystemPromptFile != "" {
		data, err := os.ReadFile(req.SystemPromptFile)
		if err != nil {
			return nil, fmt.Errorf("--system-prompt: %w", err)
		}
		opts.SystemPrompt = string(data)
		opts.SystemPromptSource = filepath.Base(req.SystemPromptFile)
	}
	return opts, nil
}

// loadToolSource reads one schema source given with flag: a tool file or a
// catalog directory.
func loadToolSource(flag, f string, rep *ingest.Report) ([]*toolschema.Set, error) {
	if st, err := os.Stat(f); err == nil && st.IsDir() {
		sets, err := loadCatalogDir(f, rep)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", flag, f, err)
		}
		rep.Note("%s %s: catalog directory, %s", flag, filepath.Base(f), nouns.Count(len(sets), "server"))
		return sets, nil
	}
	sets, dropped, err := toolschema.LoadFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, f, err)
	}
	base := filepath.Base(f)
	for k, n := range dropped {
		rep.ToolDefinitionsDropped[base+": "+k] += n
	}
	for _, s := range sets {
		rep.Note("%s %s: %s%s%s", flag, base, nouns.Count(len(s.Tools), "tool"), describeDomain(s.Domain), describeServer(s))
	}
	return sets, nil
}

func describeDomain(d string) string {
	if d == "" {
		return ""
	}
	return " for domain " + d
}

func describeServer(s *toolschema.Set) string {
	if s.Server == "" {
		return ""
	}
	return " of server " + s.Server + "@" + s.Version
}
