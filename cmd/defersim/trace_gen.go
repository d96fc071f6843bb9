package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

func newTraceGenCmd() *cobra.Command {
	var (
		out        string
		paramsFile string
		drift      string
		catalogs   string
		seed       int64
		sessions   int
		servers    serversFlag
		zipf       float64
		recorded   bool
		force      bool
	)
	c := &cobra.Command{
		Use:   "gen",
		Short: "Generate a synthetic catalog and trace from parameters",
		Long: `gen writes a realistic synthetic MCP catalog and a trace of sessions over it:

  DIR/catalog/<server>@<version>.json   MCP tools/list results (some
                                       servers in several versions)
  DIR/trace.jsonl.gz                   trace format v1
  DIR/params.yaml                      the complete parameters used
                                       (re-run with --params)

Parameters start from calibrated defaults (docs/generator.md), then a YAML
file (--params; unknown keys are errors), then the flags given. The same
parameters and seed give byte-identical files. Sessions are streamed, so any
size of trace is generated in bounded memory.

--drift takes "off" or key=value pairs: servers, versions, changed, added,
removed, mid (e.g. --drift servers=3,versions=4,mid=0.2).

--catalogs DIR draws the sessions over a real catalog directory (or
manifest) instead of generating one: sessions call its servers' tools, at
the versions an upgrade schedule gives (the parameters' over: block; every
server with two or more versions unless --servers a,b,c names them; the
servers left out are named on stderr, with the --servers value for all), with
arguments valid against the version in force. No catalog is written: the
trace names the catalog directory (relative to it), so run --traces
DIR/trace.jsonl.gz replays over it without --catalogs. DIR/upgrades.yaml
holds the schedule as a scenario servers: block.
See docs/generator.md and docs/real-drift.md.`,
		Args: cobra.NoArgs,
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	c.RunE = func(cmd *cobra.Command, _ []string) error {
		if out == cliout.Stdio {
			return exitError{code: 2, msg: "trace gen writes a directory (catalog, trace, parameters): -o cannot be -"}
		}
		p := gen.Defaults()
		fl := cmd.Flags()
		src := genParamSources{file: paramsFile, flags: fl}
		if paramsFile != "" {
			data, err := os.ReadFile(paramsFile)
			if err != nil {
				return exitError{code: 2, msg: fmt.Sprintf("read parameters: %v", err)}
			}
			src.data = data
			parse := gen.ParseParams
			if catalogs != "" {
				parse = gen.DecodeParams // validated below, as over a catalog
			}
			if p, err = parse(data); err != nil {
				// Before the flags apply: the file's alone.
				return genParamSources{file: paramsFile, data: data}.wrap(err)
			}
		}
		if fl.Changed("seed") {
			p.Seed = seed
		}
		if fl.Changed("sessions") {
			p.Sessions = sessions
		}
		if fl.Changed("servers") {
			if len(servers.names) > 0 && catalogs == "" {
				return exitError{code: 2, msg: "--servers: server names need --catalogs (without it, --servers is a count)"}
			}
			if len(servers.names) == 0 && catalogs != "" {
				return exitError{code: 2, msg: "--servers: with --catalogs, name the servers (a,b,c), not a count"}
			}
			if catalogs == "" {
				p.Servers = servers.n
			}
		}
		if fl.Changed("zipf") {
			p.Zipf = zipf
		}
		if fl.Changed("recorded") {
			p.Recorded = recorded
		}
		if fl.Changed("drift") {
			if err := gen.ApplyDriftSpec(&p, drift); err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
		}
		if catalogs != "" && fl.Changed("drift") {
			return exitError{code: 2, msg: "--drift: the drift of --catalogs is the catalog's own (set over.mid_session and over.schedule with --params)"}
		}
		if catalogs != "" {
			if err := p.ValidateOver(); err != nil {
				return src.wrap(err)
			}
		}
		var g *gen.Generator
		var leftOut []string
		var err error
		if catalogs != "" {
			if g, leftOut, err = newOverGenerator(cmd, catalogs, servers.names, p, src); err != nil {
				return err
			}
		} else if g, err = gen.New(p); err != nil {
			return src.wrap(err)
		}
		guard := outguard.New(paramsFile, catalogs)
		files := []string{filepath.Join(out, gen.TraceFile), filepath.Join(out, gen.ParamsFile), filepath.Join(out, gen.UpgradesFile)}
		if err := guard.Check(files...); err != nil {
			return err
		}
		set := atomicfile.NewSet()
		defer set.Abort()
		stage, err := set.Dir(out)
		if err != nil {
			return err
		}
		ctx, stop := interruptibleSaying(cmd.Context(), cmd.ErrOrStderr(), "stopping; nothing is written")
		defer stop()
		prog := newReporter(cmd, progress.Config{Label: "trace gen", Verb: "wrote", Noun: "sessions", One: "session", Total: int64(g.Params().Sessions)})
		var ref string
		if catalogs != "" {
			var why string
			if ref, why = catalogRefFor(catalogs, out); why != "" {
				warnf(cmd, "%s", why)
			}
		}
		sum, err := g.WriteDir(stage, gen.WriteOptions{Clean: force, Final: out, Context: ctx, CatalogRef: ref,
			Progress: func(n int) { prog.Update(int64(n), int64(n)) }})
		if err != nil {
			prog.Abort()
			if ctx.Err() != nil {
				return exitError{code: 130, msg: "generation interrupted; nothing was written"}
			}
			return err
		}
		prog.Finish()
		if force {
			set.Replace(filepath.Join(out, gen.CatalogDir, "*.json"), filepath.Join(out, gen.UpgradesFile))
		}
		if err := set.Commit(guard.CheckOne); err != nil {
			return err
		}
		if force && catalogs != "" {
			// --force removed an earlier generation's catalog files; an
			// empty catalog/ left beside a trace over another catalog
			// would read as its catalog. A directory still holding other
			// files is the user's and stays.
			if err := removeIfEmpty(filepath.Join(out, gen.CatalogDir)); err != nil {
				return err
			}
		}
		w := cmd.OutOrStdout()
		if *format == cliout.JSON {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(struct {
				Dir string `json:"dir"`
				*gen.Summary
				Upgrades []gen.ScheduledUpgrade `json:"upgrades,omitempty"`
				// Unbuildable are the tools sessions never call: no
				// arguments valid against their schemas could be built.
				Unbuildable []gen.UnbuildableTool `json:"unbuildable,omitempty"`
				// LeftOut are the catalog's servers the default left out.
				LeftOut []string `json:"left_out,omitempty"`
			}{out, sum, g.Schedule(), g.Unbuildable(), leftOut})
		}
		counts := fmt.Sprintf("%s, %s, %s, %s", nouns.Count(sum.Sessions, "session"), nouns.Count(sum.Events, "event"),
			nouns.Count(sum.ToolCalls, "tool call"), nouns.Count(sum.CatalogChange, "mid-session catalog change"))
		if catalogs != "" {
			never := ""
			if n := len(g.Unbuildable()); n > 0 {
				never = fmt.Sprintf("; %s never called (no valid arguments could be built)", nouns.CountAs(n, "tool version", "tool versions"))
			}
			_, err = fmt.Fprintf(w, "wrote %s: sessions over %s of %s (%s, %s), %s, %s (%s), trace %d bytes gzip%s\n",
				out, nouns.Count(sum.Servers, "server"), catalogs, nouns.Count(sum.ServerFiles, "server version"), nouns.Count(sum.Tools, "tool"),
				counts, nouns.Count(len(g.Schedule()), "fleet upgrade"), gen.UpgradesFile, sum.TraceBytes, never)
			return err
		}
		_, err = fmt.Fprintf(w, "wrote %s: %s (%s, %s, %d catalog bytes), %s, trace %d bytes gzip\n",
			out, nouns.Count(sum.Servers, "server"), nouns.Count(sum.ServerFiles, "server version"), nouns.Count(sum.Tools, "tool"), sum.CatalogBytes, counts, sum.TraceBytes)
		return err
	}
	f := c.Flags()
	f.StringVarP(&out, "out", "o", "generated", "output directory")
	f.StringVar(&paramsFile, "params", "", "YAML parameter file (see docs/generator.md)")
	f.Int64Var(&seed, "seed", 1, "random seed")
	f.IntVar(&sessions, "sessions", 400, "number of sessions")
	servers.n = 10
	f.Var(&servers, "servers", "number of servers, planted ones included; with --catalogs, the servers to use (a,b,c)")
	f.StringVar(&catalogs, "catalogs", "", "draw sessions over this real catalog directory (or manifest) instead of generating one")
	f.Float64Var(&zipf, "zipf", 1.05, "Zipf exponent of tool popularity")
	f.StringVar(&drift, "drift", "", `catalog drift: "off" or key=value pairs (servers, versions, changed, added, removed, mid)`)
	f.BoolVar(&recorded, "recorded", false, "add plausible model timings and usage (as if an eager runtime recorded the sessions)")
	f.BoolVar(&force, "force", false, "remove the files of an earlier generation in DIR that this one does not write (DIR/catalog files, DIR/upgrades.yaml)")
	return c
}

// newOverGenerator loads the catalog at path (a directory or manifest) and
// returns a generator drawing sessions over it; names, when given, select
// its servers (src locates an error about the parameters). Otherwise (and without over.servers in the parameters) the
// default leaves out the servers with one version: each is named on stderr,
// with the --servers value that includes every server, and returned.
func newOverGenerator(cmd *cobra.Command, path string, names []string, p gen.Params, src genParamSources) (*gen.Generator, []string, error) {
	var cat *catalog.Catalog
	var err error
	if catalog.IsManifest(path) {
		cat, err = catalog.LoadManifest(path)
	} else {
		cat, err = catalog.LoadDir(path)
	}
	if err != nil {
		return nil, nil, exitError{code: 2, msg: fmt.Sprintf("--catalogs: %v", err)}
	}
	if p.Over == nil {
		o := gen.DefaultOver()
		p.Over = &o
	}
	if len(names) > 0 {
		p.Over.Servers = names
	}
	var leftOut []string
	if len(p.Over.Servers) == 0 {
		var use []string
		use, leftOut = gen.DefaultOverServers(cat)
		every := everyServerFlag(cat)
		if len(use) == 0 {
			return nil, nil, exitError{code: 2, msg: fmt.Sprintf("--catalogs: no server of %s has two or more versions, and by default sessions are drawn only over those (their upgrades are what a generation over a catalog replays); to draw sessions over every server: %s", path, every)}
		}
		warnings := make([]string, len(leftOut))
		for i, k := range leftOut {
			warnings[i] = "left out: " + cat.Latest(k).Label() + " (one version)"
		}
		what := fmt.Sprintf("of %s left out: by default sessions are drawn only over the servers with two or more versions, whose upgrades they replay; to draw sessions over every server: %s",
			nouns.Count(len(cat.ServerNames()), "server"), every)
		printWarnings(cmd, warnings, what, what)
	}
	g, err := gen.NewOver(cat, p)
	if err != nil {
		return nil, nil, src.wrap(err)
	}
	if un := g.Unbuildable(); len(un) > 0 {
		warnings := make([]string, len(un))
		for i, u := range un {
			warnings[i] = "never called: " + u.Label() + ": " + u.Reason
		}
		printFirstWarnings(cmd, warnings, "tool version is never called: no arguments valid against its schema could be built",
			"tool versions are never called: no arguments valid against their schemas could be built")
	}
	return g, leftOut, nil
}

// catalogRefFor is the session_start meta catalog of a trace generated
// into out over the catalog at path (a directory, or a manifest that
// catalog.LoadDir of its directory reads): the directory relative to out.
// When path is a manifest its directory would not lead back to, or there
// is no relative path (traces.CatalogRef), ref is "" and why says what
// run will need.
func catalogRefFor(path, out string) (ref, why string) {
	dir := path
	if catalog.IsManifest(path) {
		dir = filepath.Dir(path)
		for _, m := range catalog.ManifestNames {
			if _, err := os.Stat(filepath.Join(dir, m)); err == nil {
				if m != filepath.Base(path) {
					return "", fmt.Sprintf("the trace names no catalog: its directory would load %s, not %s; replay with --catalogs %s", m, filepath.Base(path), path)
				}
				break
			}
		}
	}
	trace := filepath.Join(out, gen.TraceFile)
	ref, err := traces.CatalogRef(trace, dir)
	if err != nil {
		return "", fmt.Sprintf("the trace names no catalog (%v): replay with --catalogs %s", err, path)
	}
	return ref, ""
}

// everyServerFlag is the --servers value that draws sessions over every
// server of cat that serves tools in each of its versions (a version
// serving none is refused by NewOver), with those left out named after it.
func everyServerFlag(cat *catalog.Catalog) string {
	var use, empty []string
	for _, k := range cat.ServerNames() {
		ok := true
		for _, v := range cat.Versions[k] {
			if len(v.Tools) == 0 {
				ok = false
				empty = append(empty, v.Label())
			}
		}
		if ok {
			use = append(use, k)
		}
	}
	flag := "--servers " + strings.Join(use, ",")
	if len(empty) > 0 {
		flag += fmt.Sprintf(" (not %s: %s no tools)", nouns.And(empty), nouns.Form(len(empty), "serves", "serve"))
	}
	return flag
}

// serversFlag is --servers: a count of generated servers, or (with
// --catalogs) a comma-separated list of catalog server names.
type serversFlag struct {
	n     int
	names []string
}

func (f *serversFlag) String() string {
	if len(f.names) > 0 {
		return strings.Join(f.names, ",")
	}
	return strconv.Itoa(f.n)
}

func (f *serversFlag) Type() string { return "N|a,b,c" }

// Set parses a count ("12") or a list of names ("a,b,c").
func (f *serversFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		f.n, f.names = n, nil
		return nil
	}
	var names []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return fmt.Errorf("empty server name in %q", s)
		}
		names = append(names, part)
	}
	f.names = names
	return nil
}

// removeIfEmpty removes dir when it exists and holds nothing.
func removeIfEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) > 0) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.Remove(dir)
}
