package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/interrupt"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/runsummary"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// runFlags are the flags of `defersim run` (and of the no-argument default).
type runFlags struct {
	out        string
	workers    int
	traces     []string
	catalogs   []string
	strategies []string
	baseline   string
	model      string
	seed       int64
	skipBad    bool
	strict     bool
	perRequest string
	sessions   bool
	bootstrap  int
	bootMem    report.ByteSize
	memLimit   memoryLimit
	noReport   bool
	format     *cliout.Format
	shard      string
	resume     string
	checkEvery int
	exact      int
	srd        []string
	allowUnres bool
	maxUnres   float64
}

// allowUnresolvedUsage is the help of --allow-unresolved beside
// --max-unresolved; scenarioLimitUsage where the scenario's max_unresolved
// is the limit (sweep, plan), fixedLimitUsage where the default is
// (recommend).
const (
	allowUnresolvedUsage = "replay even when more tool calls, or sessions naming a server or version no catalog holds, than --max-unresolved do not resolve against the catalogs (they are counted and reported)"
	scenarioLimitUsage   = "replay even when more tool calls, or sessions naming a server or version no catalog holds, than the limit do not resolve against the catalogs (they are counted and reported); the limit is the scenario's max_unresolved when it sets one, else 0.01, and with --traces at most 0.01 (a scenario's larger limit is for its own traces)"
	fixedLimitUsage      = "replay even when more tool calls, or sessions naming a server or version no catalog holds, than 1% (run's default max_unresolved) do not resolve against the catalogs (they are counted and reported)"
)

// defaultCheckpointEvery is how often (in replayed sessions) a run saves
// its checkpoint.
const defaultCheckpointEvery = 10000

func (f *runFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVarP(&f.out, "out", "o", "defersim-out", "output directory (- writes results.json to stdout and nothing else)")
	fl.IntVar(&f.workers, "workers", 0, "sessions replayed in parallel (0 = one per core)")
	fl.StringSliceVar(&f.traces, "traces", nil, "trace files to replay instead of the scenario's (comma-separated or repeated)")
	fl.StringSliceVar(&f.catalogs, "catalogs", nil, "catalog directories or files instead of the scenario's")
	addStrategiesFlag(c, &f.strategies, strategiesUsage)
	fl.StringVar(&f.baseline, "baseline", "", "strategy the others are compared with (default: the scenario's)")
	addModelFlag(c, &f.model, modelUsage)
	fl.Int64Var(&f.seed, "seed", 0, "override the scenario's seed")
	fl.BoolVar(&f.skipBad, "skip-bad", false, "skip malformed trace lines (they are counted and reported) instead of stopping")
	fl.BoolVar(&f.strict, "strict", false, "stop at the first session that fails to replay")
	fl.StringVar(&f.perRequest, "per-request", "", "write simulated vs recorded tokens and latency per request (CSV) to this file")
	fl.BoolVar(&f.sessions, "sessions-csv", false, "also write sessions.csv with every metric per session and strategy")
	fl.IntVar(&f.bootstrap, "bootstrap", 0, "bootstrap resamples for confidence intervals (0 = default 1000, -1 = none)")
	fl.Var(&f.bootMem, "bootstrap-memory", bootstrapMemoryUsage+"; a larger --bootstrap is refused before the replay")
	fl.Var(&f.memLimit, "memory-limit", "soft limit on the memory the run holds (Go's runtime/debug.SetMemoryLimit), e.g. 256MiB: the garbage collector works harder near it instead of letting the heap grow when the cores are busy (0 or off = none; GOMEMLIMIT is used when the flag is not given)")
	fl.BoolVar(&f.noReport, "no-report", false, "write results.json only, no plots or HTML")
	f.format = cliout.AddFormat(c, cliout.Text, cliout.JSON)
	c.Flags().Lookup("format").Usage = "format of the run summary: text, or json (counts, output paths, per-strategy means)"
	cliout.AddJSONAlias(c, f.format)
	fl.StringVar(&f.shard, "shard", "", "replay only shard I/N of the sessions (I = 0 … N−1; by a hash of the session id) and also write shard.bin for defersim merge")
	fl.StringVar(&f.resume, "resume", "", "continue the interrupted run whose output directory is DIR, from its checkpoint (same scenario and flags)")
	fl.IntVar(&f.checkEvery, "checkpoint-every", defaultCheckpointEvery, "save a checkpoint in the output directory every N replayed sessions (0 = only when interrupted)")
	fl.StringSliceVar(&f.srd, "srd", nil, "routing descriptions (SRD files or directories, v1 or v0.1) for routed search and by-domain directories instead of the scenario's or the embedded set")
	fl.BoolVar(&f.allowUnres, "allow-unresolved", false, allowUnresolvedUsage)
	addMaxUnresolved(c, &f.maxUnres, "share of tool calls that may fail to resolve against the catalogs, and of sessions that may name a server or version no catalog holds, before the run stops with exit status 2; unless given, the scenario's max_unresolved when it sets one")
	fl.IntVar(&f.exact, "exact-sessions", 0, fmt.Sprintf("keep per-session values of at most N sessions; beyond, statistics are streamed (0 = %d, -1 = all)", sim.DefaultExactSessions))
}

func newRunCmd() *cobra.Command {
	var f runFlags
	c := &cobra.Command{
		Use:   "run [SCENARIO.yaml]",
		Short: "Replay traces under every strategy of a scenario; write a report",
		Long: `Replay every session of the scenario's traces under every strategy, in one
pass, and write results.json, report.html, report.md and plots to the output
directory. Without a scenario file the embedded default scenario is used;
--traces, --catalogs, --strategies and --model override the scenario's.
Without --catalogs, --traces are replayed over their own catalogs (named in
their first session_start, or beside them: docs/trace-format.md#catalog);
traces with none stop the run when the scenario's catalogs are the embedded
ones (the default scenario's): pass --catalogs.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			}
			return doRun(cmd, path, &f)
		},
	}
	f.register(c)
	return c
}

func loadScenario(path string) (*scenarios.Scenario, error) {
	if path == "" {
		return scenarios.Default()
	}
	return scenarios.Load(path)
}

func doRun(cmd *cobra.Command, path string, f *runFlags) (retErr error) {
	sc, err := loadScenario(path)
	if err != nil {
		return err
	}
	if err := useModelFlag(cmd.ErrOrStderr(), sc, path, f.model); err != nil {
		return err
	}
	if err := sc.CheckParams(""); err != nil {
		return err
	}
	ov := runner.Overrides{Traces: f.traces, Catalogs: f.catalogs, Strategies: f.strategies, Baseline: f.baseline,
		SRD: f.srd, AllowUnresolved: f.allowUnres}
	if cmd.Flags().Changed("seed") {
		ov.Seed = &f.seed
	}
	if ov.MaxUnresolved, err = givenMaxUnresolved(cmd, f.maxUnres); err != nil {
		return err
	}
	cfg, err := runner.FromScenario(sc, ov, embeddedData())
	if err != nil {
		return err
	}
	if note := runner.LimitNotCarried(sc, ov); note != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "defersim: note: %s\n", note)
	}
	cfg.Workers, cfg.SkipBad, cfg.Strict, cfg.Bootstrap = f.workers, f.skipBad, f.strict, f.bootstrap
	cfg.Validator = contextValidator(cmd.Context())
	cfg.BootstrapMemory = int64(f.bootMem)
	cfg.ExactSessions, cfg.KeepFidelityPairs = f.exact, f.perRequest != ""
	if f.sessions {
		cfg.ExactSessions = -1 // sessions.csv needs every session
	}
	if f.shard != "" {
		if cfg.Shard, err = runner.ParseShard(f.shard); err != nil {
			return err
		}
	}
	toStdout := f.out == cliout.Stdio
	guard := outguard.New(append(cfg.InputPaths(), path)...)
	if !toStdout {
		if err := guard.Check(runOutputs(f.out, f.perRequest)...); err != nil {
			return err
		}
	}
	if toStdout && (f.resume != "" || f.shard != "" || f.sessions || f.perRequest != "" || *f.format == cliout.JSON) {
		return exitError{code: 2, msg: "-o - writes results.json to stdout and nothing else: it cannot be combined with --resume, --shard, --sessions-csv, --per-request or --format json"}
	}
	if f.resume != "" {
		if cmd.Flags().Changed("out") && filepath.Clean(f.out) != filepath.Clean(f.resume) {
			return fmt.Errorf("--resume %s continues the run in that directory; --out %s names another", f.resume, f.out)
		}
		f.out = f.resume
		cfg.Resume = true
	}
	if !toStdout {
		undoDir, err := atomicfile.Mkdir(f.out)
		if err != nil {
			return fmt.Errorf("create output directory: %w", err)
		}
		// A run that fails leaves no output directory it created and
		// left empty (an interrupted run's holds its checkpoint).
		defer func() {
			if retErr != nil {
				undoDir()
			}
		}()
		cfg.Checkpoint, cfg.CheckpointEvery = filepath.Join(f.out, runner.CheckpointFile), max(f.checkEvery, 0)
	}
	if cfg.Resume {
		if _, err := os.Stat(cfg.Checkpoint); err != nil {
			if _, rerr := os.Stat(filepath.Join(f.out, "results.json")); rerr == nil && errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("--resume %s: the run there finished (its results.json is written and its checkpoint removed): nothing to resume; run without --resume to replay it again", f.resume)
			}
			return fmt.Errorf("--resume %s: no checkpoint to continue: %w", f.resume, err)
		}
	}
	stderr := cmd.ErrOrStderr()
	quiet := cliout.Quiet(cmd)
	prog := newReporter(cmd, progress.Config{Label: "run", Verb: "replayed", Noun: "sessions", One: "session", Total: runner.TraceBytes(cfg.Traces), Bytes: true})
	cfg.Progress = prog
	ctx, stop := interruptible(cmd.Context(), stderr)
	defer stop()
	memLimit, restore := f.memLimit.apply(cmd.Flags().Changed("memory-limit"))
	defer restore()
	out, err := runner.Run(ctx, cfg)
	if err != nil {
		prog.Abort()
	} else {
		prog.Finish()
	}
	if err != nil {
		var ue *runner.UnresolvedError
		if errors.As(err, &ue) {
			warnInputs(stderr, inputnotes.Notes{CatalogNotes: ue.Output.Info.CatalogNotes}, runNotesAt)
			report.WriteResolution(stderr, ue.Resolution)
			return ue // exit status 2, the message naming the tools
		}
		var ie *runner.InterruptedError
		if errors.As(err, &ie) {
			msg := ie.Error() + "; no results were written"
			if ie.Checkpoint != "" {
				msg += fmt.Sprintf("\ncontinue with the same command and --resume %s", f.out)
			}
			return exitError{code: 130, msg: msg}
		}
		return err
	}
	w := cmd.OutOrStdout()
	if toStdout {
		data, err := report.MarshalResults(out.Results)
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
		if !quiet {
			printRunSummary(stderr, out, "", false)
		}
		return skippedSessions(stderr, out)
	}
	wo := runner.WriteOptions{Report: !f.noReport, SessionsCSV: f.sessions, PerRequest: f.perRequest, State: cfg.Shard.Count > 0,
		Check: guard.CheckOne}
	if err := runner.WriteOutputs(out, f.out, wo); err != nil {
		return err
	}
	if f.perRequest != "" && len(out.Run.Fidelity) == 0 {
		// Not silenced by --quiet: the file asked for is empty.
		fmt.Fprintf(stderr, "defersim: warning: --per-request %s holds only its header: %s\n", f.perRequest, noFidelityPairs(cfg.Strategies))
	}
	if err := atomicfile.Remove(cfg.Checkpoint); err != nil {
		return fmt.Errorf("remove the finished run's checkpoint: %w", err)
	}
	switch {
	case *f.format == cliout.JSON:
		if err := printRunJSON(w, out, f.out, !f.noReport, memLimit); err != nil {
			return err
		}
	case !quiet:
		printRunSummary(w, out, f.out, !f.noReport)
		if memLimit > 0 {
			fmt.Fprintf(w, "memory limit: %s (soft; --memory-limit or GOMEMLIMIT)\n", report.FormatBytes(memLimit))
		}
	}
	if !quiet { // a note: --quiet silences it
		noteLargeTools(stderr, out.LargeTools)
	}
	return skippedSessions(stderr, out)
}

// skippedSessions gives a run's (or a merge's) warnings, in this order,
// then lists the sessions that failed to replay, if any, and makes them
// the command's exit status 1. run and merge both end with it, so the
// same results give the same lines in the same order.
func skippedSessions(stderr io.Writer, out *runner.Output) error {
	runWarnings{notes: out.InputNotes(), notesAt: runNotesAt, last: out.Results, info: &out.Info}.write(stderr)
	if n := out.Info.Counts.SessionsSkipped; n > 0 {
		for _, msg := range out.Run.Failures {
			fmt.Fprintln(stderr, "defersim: skipped", firstLineOf(msg))
		}
		return exitError{code: 1, msg: fmt.Sprintf("%s failed to replay and %s skipped (see above); results cover the rest", nouns.Count(n, "session"), nouns.Form(n, "was", "were"))}
	}
	return nil
}

// runWarnings are a run's warnings, which run, merge and sweep print in
// one order: input notes, unmatched entries, unreplayed entries, requests
// over the context window, calls whose arguments or results the traces
// did not record, catalog versions no session replayed, and
// strategies recommended for another setup.
type runWarnings struct {
	notes   inputnotes.Notes
	notesAt string
	// last holds the results whose catalog versions and context window
	// are said (a sweep's last point: its values share the traces and
	// catalogs); info its run's entry lists.
	last *report.Results
	info *sim.RunInfo
	// overflow, when set, says the requests over the context window in
	// place of last's (a sweep says them over its values).
	overflow func(io.Writer)
	// recommended are the results whose recommended_for records are
	// compared with their run (a sweep's every value: a sweep over the
	// model's values moves them); last when empty.
	recommended []*report.Results
	// recommendedAt, when set, labels recommended's points (a sweep's
	// values), and each finding says at which it holds
	// (runsummary.WarnRecommendedForAt).
	recommendedAt []string
}

func (r runWarnings) write(stderr io.Writer) {
	for _, s := range r.sections() {
		s.write(stderr)
	}
}

// Kinds of run's warnings (runWarnings.kinds), as `sweep --format csv`
// names them in its warnings column.
const (
	warnInputNotes         = "input_notes"
	warnUnmatchedEntries   = "unmatched_entries"
	warnUnreplayedEntries  = "unreplayed_entries"
	warnContextOverflow    = "context_overflow"
	warnUnreplayedVersions = "unreplayed_versions"
	warnRecommendedFor     = "recommended_for"
	warnUnrecorded         = "unrecorded_content"
)

// warnSection is one kind of run's warnings.
type warnSection struct {
	kind  string
	write func(io.Writer)
}

// sections are run's warnings in run's order, each writing nothing when
// it does not apply.
func (r runWarnings) sections() []warnSection {
	recommended := r.recommended
	if len(recommended) == 0 {
		recommended = []*report.Results{r.last}
	}
	overflow := r.overflow
	if overflow == nil {
		overflow = func(w io.Writer) { runsummary.WarnContextOverflow(w, "defersim", r.last) }
	}
	return []warnSection{
		{warnInputNotes, func(w io.Writer) { warnInputs(w, r.notes, r.notesAt) }},
		{warnUnmatchedEntries, func(w io.Writer) { runsummary.WarnUnmatched(w, "defersim", r.info.UnmatchedEntries) }},
		{warnUnreplayedEntries, func(w io.Writer) { runsummary.WarnUnreplayedEntries(w, "defersim", r.info.UnreplayedEntries) }},
		{warnContextOverflow, overflow},
		{warnUnrecorded, func(w io.Writer) { runsummary.WarnUnrecorded(w, "defersim", r.last) }},
		{warnUnreplayedVersions, func(w io.Writer) { runsummary.WarnUnreplayed(w, "defersim", r.last) }},
		{warnRecommendedFor, func(w io.Writer) {
			if r.recommendedAt != nil {
				runsummary.WarnRecommendedForAt(w, "defersim", "value", r.recommendedAt, recommended)
				return
			}
			runsummary.WarnRecommendedFor(w, "defersim", recommended...)
		}},
	}
}

// kinds names the warnings write gives, in its order: those whose lines
// are not empty.
func (r runWarnings) kinds() []string {
	var out []string
	for _, s := range r.sections() {
		var b bytes.Buffer
		s.write(&b)
		if b.Len() > 0 {
			out = append(out, s.kind)
		}
	}
	return out
}

// interruptible returns a context cancelled by the first SIGINT or SIGTERM,
// after which it says so on w and restores the signals' default action (a
// second one stops the process at once).
func interruptible(parent context.Context, w io.Writer) (context.Context, context.CancelFunc) {
	return interruptibleSaying(parent, w, "finishing the sessions in flight and saving a checkpoint")
}

// interruptibleSaying is interruptible with what the command does on a
// signal.
func interruptibleSaying(parent context.Context, w io.Writer, what string) (context.Context, context.CancelFunc) {
	return interrupt.Context(parent, w, "defersim", what)
}

// runOutputs lists the files a run (or merge) writes into dir, and extra.
func runOutputs(dir string, extra ...string) []string {
	out := []string{filepath.Join(dir, runner.CheckpointFile)}
	for _, name := range runner.OutputFiles {
		out = append(out, filepath.Join(dir, name))
	}
	return append(out, extra...)
}

func printRunSummary(w io.Writer, out *runner.Output, dir string, withReport bool) {
	var results, html string
	if dir != "" {
		results = filepath.Join(dir, "results.json")
		if withReport {
			html = filepath.Join(dir, "report.html")
		}
	}
	runsummary.Write(w, out.Results, results, html)
}

func printRunJSON(w io.Writer, out *runner.Output, dir string, withReport bool, memLimit int64) error {
	html := ""
	if withReport {
		html = filepath.Join(dir, "report.html")
	}
	return runsummary.JSON(w, out.Results, filepath.Join(dir, "results.json"), html, out.Run.Failures, memLimit)
}

func firstLineOf(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
