package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/runner"
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
	seed       int64
	skipBad    bool
	strict     bool
	perRequest string
	sessions   bool
	bootstrap  int
	noReport   bool
	quiet      bool
	json       bool
}

func (f *runFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVarP(&f.out, "out", "o", "defersim-out", "output directory")
	fl.IntVar(&f.workers, "workers", 0, "sessions replayed in parallel (0 = one per core)")
	fl.StringSliceVar(&f.traces, "traces", nil, "trace files to replay instead of the scenario's (comma-separated or repeated)")
	fl.StringSliceVar(&f.catalogs, "catalogs", nil, "catalog directories or files instead of the scenario's")
	fl.StringSliceVar(&f.strategies, "strategies", nil, "strategies to run: presets or names from the scenario (default: the scenario's)")
	fl.StringVar(&f.baseline, "baseline", "", "strategy the others are compared with (default: the scenario's)")
	fl.Int64Var(&f.seed, "seed", 0, "override the scenario's seed")
	fl.BoolVar(&f.skipBad, "skip-bad", false, "skip malformed trace lines (they are counted and reported) instead of stopping")
	fl.BoolVar(&f.strict, "strict", false, "stop at the first session that fails to replay")
	fl.StringVar(&f.perRequest, "per-request", "", "write simulated vs recorded tokens and latency per request (CSV) to this file")
	fl.BoolVar(&f.sessions, "sessions-csv", false, "also write sessions.csv with every metric per session and strategy")
	fl.IntVar(&f.bootstrap, "bootstrap", 0, "bootstrap resamples for confidence intervals (0 = default 1000, -1 = none)")
	fl.BoolVar(&f.noReport, "no-report", false, "write results.json only, no plots or HTML")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors")
	fl.BoolVar(&f.json, "json", false, "print the run summary (counts, output paths, per-strategy means) as JSON")
}

func newRunCmd() *cobra.Command {
	var f runFlags
	c := &cobra.Command{
		Use:   "run [SCENARIO.yaml]",
		Short: "Replay traces under every strategy of a scenario and write results and a report",
		Long: `Replay every session of the scenario's traces under every strategy, in one
pass, and write results.json, report.html, report.md and plots to the output
directory. Without a scenario file the embedded default scenario is used;
--traces, --catalogs and --strategies override the scenario's.`,
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

func doRun(cmd *cobra.Command, path string, f *runFlags) error {
	sc, err := loadScenario(path)
	if err != nil {
		return err
	}
	ov := runner.Overrides{Traces: f.traces, Catalogs: f.catalogs, Strategies: f.strategies, Baseline: f.baseline}
	if cmd.Flags().Changed("seed") {
		ov.Seed = &f.seed
	}
	cfg, err := runner.FromScenario(sc, ov, embeddedData())
	if err != nil {
		return err
	}
	cfg.Workers, cfg.SkipBad, cfg.Strict, cfg.Bootstrap = f.workers, f.skipBad, f.strict, f.bootstrap
	stderr := cmd.ErrOrStderr()
	if !f.quiet && isTerminal(stderr) {
		cfg.Progress = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out, err := runner.Run(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return exitError{code: 130, msg: "interrupted: nothing was written"}
		}
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	if err := runner.WriteOutputs(out, f.out, runner.WriteOptions{Report: !f.noReport, SessionsCSV: f.sessions, PerRequest: f.perRequest}); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	switch {
	case f.json:
		if err := printRunJSON(w, out, f.out, !f.noReport); err != nil {
			return err
		}
	case !f.quiet:
		printRunSummary(w, out, f.out, !f.noReport)
	}
	if n := len(out.Run.Failures); n > 0 {
		for _, msg := range out.Run.Failures {
			fmt.Fprintln(stderr, "defersim: skipped", firstLineOf(msg))
		}
		return exitError{code: 1, msg: fmt.Sprintf("%d session(s) failed to replay and were skipped (see above); results cover the rest", n)}
	}
	return nil
}

func printRunSummary(w io.Writer, out *runner.Output, dir string, withReport bool) {
	c := out.Info.Counts
	fmt.Fprintf(w, "replayed %d of %d sessions (%d skipped; %d lines read, %d skipped) under %d strategies\n",
		c.SessionsReplayed, c.SessionsRead, c.SessionsSkipped, c.LinesRead, c.LinesSkipped, len(out.Results.Strategies))
	report.Summary(w, out.Results)
	fmt.Fprintf(w, "results: %s\n", filepath.Join(dir, "results.json"))
	if withReport {
		fmt.Fprintf(w, "report:  %s\n", filepath.Join(dir, "report.html"))
	}
}

// runSummaryJSON is what `run --json` prints.
type runSummaryJSON struct {
	Results    string                        `json:"results"`
	Report     string                        `json:"report,omitempty"`
	Counts     any                           `json:"counts"`
	Baseline   string                        `json:"baseline"`
	Strategies map[string]map[string]float64 `json:"strategy_means"`
	Failures   []string                      `json:"failures,omitempty"`
}

func printRunJSON(w io.Writer, out *runner.Output, dir string, withReport bool) error {
	s := runSummaryJSON{Results: filepath.Join(dir, "results.json"), Counts: out.Info.Counts,
		Baseline: out.Results.BaselineName(), Strategies: map[string]map[string]float64{}}
	if withReport {
		s.Report = filepath.Join(dir, "report.html")
	}
	for si, st := range out.Run.Outcomes.Strategies {
		m := map[string]float64{}
		for mi, def := range sim.Metrics {
			vals := out.Run.Outcomes.Values[si][mi]
			var sum float64
			for _, v := range vals {
				sum += v
			}
			if len(vals) > 0 {
				m[def.Name] = sum / float64(len(vals))
			}
		}
		s.Strategies[st.Name] = m
	}
	for _, f := range out.Run.Failures {
		s.Failures = append(s.Failures, firstLineOf(f))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

func firstLineOf(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
