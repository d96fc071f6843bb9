// Command defersim-beam runs `defersim run` as an Apache Beam pipeline:
// on prism (Beam's local runner, the default) or on Dataflow, Flink or
// Spark (--runner), reading traces and catalogs from local paths, gs:// or
// s3://, and writing results.json and the report to --out. Its results
// are byte-identical to `defersim run` with the same scenario and flags.
// See docs/beam.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/defersim/defersim/beam/pipeline"
	"github.com/defersim/defersim/internal/interrupt"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// list is a comma-separated, repeatable flag.
type list []string

// maxScenarioRead bounds how much of a scenario file is read: more than
// the scenarios package accepts (4 MiB), so that its parser, not this
// limit, reports a file that is too large.
const maxScenarioRead = 8 << 20

func (l *list) String() string { return strings.Join(*l, ",") }

func (l *list) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

var (
	scenario   = flag.String("scenario", "", "scenario file, local or a filesystem URL (default: the embedded default scenario); or give it as the argument, as to defersim run")
	out        = flag.String("out", "", "output directory, local or a filesystem URL such as gs://bucket/run (required)")
	baseline   = flag.String("baseline", "", "strategy the others are compared with (default: the scenario's)")
	seed       = flag.Int64("seed", 0, "override the scenario's seed")
	skipBad    = flag.Bool("skip-bad", false, "skip malformed trace lines (they are counted and reported) instead of stopping")
	strict     = flag.Bool("strict", false, "stop at the first session that fails to replay")
	bootstrap  = flag.Int("bootstrap", 0, "bootstrap resamples for confidence intervals (0 = default 1000, -1 = none)")
	bootMem    report.ByteSize
	exact      = flag.Int("exact-sessions", 0, fmt.Sprintf("keep per-session values of at most N sessions; beyond, statistics are streamed (0 = %d, -1 = all)", sim.DefaultExactSessions))
	noReport   = flag.Bool("no-report", false, "write results.json only, no plots or HTML")
	batch      = flag.Int("batch-sessions", pipeline.DefaultBatchSessions, "sessions per pipeline element between reading and replaying")
	allowUnres = flag.Bool("allow-unresolved", false, "replay even when more tool calls, or sessions naming a server or version no catalog holds, than --max-unresolved do not resolve against the catalogs (they are counted and reported)")
	maxUnres   = flag.Float64("max-unresolved", runner.DefaultMaxUnresolved, "share of tool calls that may fail to resolve against the catalogs, and of sessions that may name a server or version no catalog holds, before the run stops with exit status 2; unless given, the scenario's max_unresolved when it sets one")
	quiet      = flag.Bool("quiet", false, "print no summary and no notes of ignored flags (warnings and errors still go to stderr)")
	format     = flag.String("format", "text", "format of the run summary: text, or json (counts, output paths, per-strategy means)")
	model      = flag.String("model", "", "model preset to price and time every session as, instead of the scenario's: as the scenario's model: NAME would (docs/presets.md lists them)")
	traces     list
	catalogs   list
	strategies list
	srds       list
	notRun     = registerRunOnly(flag.CommandLine)
)

func init() {
	flag.StringVar(out, "o", "", "short for --out")
	flag.BoolVar(quiet, "q", false, "short for --quiet")
	flag.Var(&traces, "traces", "trace files to replay instead of the scenario's (comma-separated or repeated); local or URLs")
	flag.Var(&catalogs, "catalogs", "catalog directories or files instead of the scenario's (local; URLs name directories)")
	flag.Var(&strategies, "strategies", "strategies to run: presets or names from the scenario (default: the scenario's)")
	flag.Var(&srds, "srd", "routing descriptions (SRD files or directories, v1 or v0.1) for routed search and by-domain directories instead of the scenario's or the embedded set (local or URLs; a URL not ending in .yaml, .yml or .json is a directory)")
	flag.Var(&bootMem, "bootstrap-memory", "most memory the bootstrap may allocate, e.g. 8GiB (-1 = no limit, 0 = as when not given); a larger --bootstrap is refused before the replay")
}

// scenarioArg takes the scenario given as the argument, as `defersim run
// [SCENARIO.yaml]` takes it, and parses the flags after it (the flag
// package stops at the first argument). It refuses a second scenario.
func scenarioArg(fs *flag.FlagSet) error {
	if fs.NArg() == 0 {
		return nil
	}
	arg := fs.Arg(0)
	if *scenario != "" {
		return fmt.Errorf("two scenarios: --scenario %s and the argument %s; give one", *scenario, arg)
	}
	if err := fs.Parse(fs.Args()[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("one scenario at most, as to defersim run [SCENARIO.yaml]; also given: %s", strings.Join(fs.Args(), " "))
	}
	*scenario = arg
	return nil
}

func main() {
	flag.Parse()
	if err := scenarioArg(flag.CommandLine); err != nil {
		fmt.Fprintln(os.Stderr, "defersim-beam:", err)
		os.Exit(2)
	}
	if *quiet {
		// Beam's own log (prism's job states, the SDK's workers) keeps
		// its warnings and errors only, as run's --quiet keeps errors.
		beamlog.LogLevel = quietLogLevel
	}
	beam.Init()
	ctx, stop := interrupt.Context(context.Background(), os.Stderr, "defersim-beam", "cancelling the pipeline")
	err := run(ctx)
	signalled := ctx.Err() != nil
	stop()
	if err != nil {
		code := exitStatus(err, signalled)
		if code == exitInterrupted {
			fmt.Fprintln(os.Stderr, "defersim-beam: interrupted:", err)
		} else {
			fmt.Fprintln(os.Stderr, "defersim-beam:", err)
		}
		os.Exit(code)
	}
}

// quietLogLevel is the level of Beam's log under --quiet (Beam's own
// default is info).
const quietLogLevel = "warn"

// exitInterrupted is defersim run's exit status when a signal interrupts
// it (docs/cli.md).
const exitInterrupted = 130

// exitStatus is defersim run's for the same failure (docs/cli.md): 130
// for an interruption (signalled: the launcher's signal cancelled the
// run, whatever error the runner then reports; or the job's context
// cancelled, here or in the job's workers); 2 for usage errors and inputs
// that cannot be read or do not fit, here and in the workers; 1 for any
// other failure (the runner, a worker, writing the outputs). An interruption is tested first:
// a stage cancelled while it read an input is not the input's error.
func exitStatus(err error, signalled bool) int {
	switch {
	case signalled || pipeline.IsInterrupted(err):
		return exitInterrupted
	case pipeline.IsInputError(err):
		return 2
	}
	return 1
}

func run(ctx context.Context) error {
	if err := checkFlags(); err != nil {
		return pipeline.InputError(err)
	}
	var notes io.Writer = os.Stderr
	if *quiet {
		notes = nil
	}
	if err := notRun.check(notes); err != nil {
		return pipeline.InputError(err)
	}
	spec := pipeline.Spec{Scenario: *scenario, Traces: traces, Catalogs: catalogs, Strategies: strategies, SRD: srds,
		Baseline: *baseline, Model: *model, SkipBad: *skipBad, Strict: *strict, Bootstrap: *bootstrap, BootstrapMemory: int64(bootMem), ExactSessions: *exact,
		Out: *out, NoReport: *noReport, BatchSessions: *batch, AllowUnresolved: *allowUnres}
	flag.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "seed":
			spec.Seed = seed
		case "max-unresolved":
			spec.MaxUnresolved = maxUnres
		}
	})
	if *scenario != "" {
		data, err := pipeline.ReadFile(ctx, *scenario, maxScenarioRead)
		if err != nil {
			return pipeline.InputError(fmt.Errorf("scenario: %w", err))
		}
		spec.ScenarioYAML = data
	}
	specNotes, err := spec.Notes()
	if err != nil {
		return pipeline.InputError(err)
	}
	for _, note := range specNotes {
		fmt.Fprintf(os.Stderr, "defersim-beam: note: %s\n", note)
	}
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(s, spec); err != nil {
		return err
	}
	if err := beamx.Run(ctx, p); err != nil {
		return err
	}
	style := summaryStyle{json: *format == formatJSON, quiet: *quiet}
	if !style.json && !style.quiet {
		fmt.Printf("defersim-beam: results in %s\n", *out)
	}
	res, err := readResults(ctx, *out)
	if err != nil {
		return fmt.Errorf("the job finished, but the results.json it wrote cannot be read back here for the summary (is --out a local path the job's workers do not share with this machine?): %w", err)
	}
	var failures []string
	var failed error
	if res.Run.Counts.SessionsSkipped > 0 {
		failures, failed = readFailures(ctx, *out)
	}
	return summarize(os.Stdout, os.Stderr, res, failures, failed, *out, !*noReport, style)
}

// The values of --format, as `defersim run`'s.
const (
	formatText = "text"
	formatJSON = "json"
)

// checkFlags refuses flags whose values defersim-beam cannot take.
func checkFlags() error {
	switch {
	case *out == "":
		return fmt.Errorf("--out (-o) is required: defersim-beam has no default output directory (defersim run's is defersim-out), since a runner's workers may not share this machine's disk")
	case *out == "-":
		return fmt.Errorf("--out -: defersim-beam writes results.json into a directory; -o - (results.json on stdout) is defersim run's only")
	case *format != formatText && *format != formatJSON:
		return fmt.Errorf("--format %s: want %s or %s", *format, formatText, formatJSON)
	}
	return nil
}
