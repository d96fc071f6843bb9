package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/plan"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
)

func newSweepCmd() *cobra.Command {
	var (
		param      string
		traces     []string
		catalogs   []string
		strategies []string
		model      string
		out        string
		metrics    []string
		bootstrap  int
		bootMem    report.ByteSize
		workers    int
		allowUnres bool
	)
	c := &cobra.Command{
		Use:   "sweep [SCENARIO.yaml] --param PATH=FROM:TO:STEP",
		Short: "Replay a scenario over a range of one parameter and plot it",
		Long: `sweep replays the scenario (default: the embedded default) at each value of
one numeric parameter and writes OUT/PATH=VALUE/results.json for each, a
table of cost and first reply per value and strategy, and the sweep plot
of each --metrics metric (one line per strategy, 95% intervals).

PATH is params.KEY, model.KEY[.KEY] or strategy.KEY[.KEY] (set on every
strategy that reads it and for which it is valid, the others keep their
own value and are marked constant; the traces are then read once for
every value),
e.g. strategy.warm.max_tools=2:16:2,
strategy.trigger.budget=2000:16000:2000,
model.latency.prefill_tps=4000:16000:4000,
params.cold_call_prob=0:0.5:0.1. Without --param the scenario's sweep:
block is used.

The table is printed as text, Markdown, JSON (the content of
OUT/sweep.json) or CSV (one row per value and strategy, plain numbers;
the notes go to stderr) with --format.`,
		Args: cobra.MaximumNArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.Markdown, cliout.JSON, cliout.CSV)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if out == cliout.Stdio {
			return exitError{code: 2, msg: "-o names the directory for the runs and plots; print the table with --format instead"}
		}
		path := ""
		if len(args) == 1 {
			path = args[0]
		}
		sc, err := loadScenario(path)
		if err != nil {
			return err
		}
		if err := useModelFlag(cmd.ErrOrStderr(), sc, path, model); err != nil {
			return err
		}
		var spec plan.SweepSpec
		switch {
		case param != "":
			if spec, err = plan.ParseSweep(param); err != nil {
				return err
			}
		case sc.Sweep != nil:
			spec = plan.SweepSpec{Param: sc.Sweep.Param, From: sc.Sweep.From, To: sc.Sweep.To, Step: sc.Sweep.Step}
		default:
			return fmt.Errorf("no --param and the scenario has no sweep: block")
		}
		if err := sc.CheckParams(spec.Param); err != nil {
			return err
		}
		ov := runner.Overrides{Traces: traces, Catalogs: catalogs, Strategies: strategies, AllowUnresolved: allowUnres}
		guard, err := scenarioGuard(sc, path, ov)
		if err != nil {
			return err
		}
		if err := guard.Check(filepath.Join(out, "sweep.json")); err != nil {
			return err
		}
		set := atomicfile.NewSet()
		defer set.Abort()
		stage, err := set.Dir(out)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		prog := newReporter(cmd, progress.Config{Label: "sweep", Verb: "replayed", Noun: "values", One: "value", Total: int64(len(spec.Values()))})
		sw, err := plan.Sweep(ctx, plan.SweepConfig{Scenario: sc, Spec: spec, Overrides: ov,
			Embedded: embeddedData(), Dir: stage, Metrics: metrics, Bootstrap: bootstrap, BootstrapMemory: int64(bootMem), Workers: workers,
			Validator: contextValidator(cmd.Context()),
			Progress:  func(n int) { prog.Update(int64(n), int64(n)) }})
		if err != nil {
			prog.Abort()
			return err
		}
		prog.Finish()
		pts, plots, rows := sw.Points, sw.Plots, sw.Rows
		for i := range pts {
			pts[i].ResultsPath = set.Final(pts[i].ResultsPath)
		}
		for i := range plots {
			plots[i] = set.Final(plots[i])
		}
		doc := sweepDoc{spec, sw.Notes, sw.AppliesTo, sw.Constant, pts, rows, sw.Unchanged, plots, sw.Inputs.OrNil(), plan.SkippedSessions(pts)}
		data, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(stage, "sweep.json"), append(data, '\n'), 0o644); err != nil {
			return err
		}
		if err := set.Commit(guard.CheckOne); err != nil {
			return err
		}
		// run's warnings in run's order (runWarnings), after the output,
		// then the sessions some value failed to replay, and exit 1 on
		// them, as run ends (skippedSessions). The lists' entries that
		// match nothing or that no replayed version serves, and the
		// catalog versions no session replayed, are the same at every
		// value (the same traces, catalogs and upgrades; sweep sets
		// numbers only): said once, from the last value, as run says
		// them. The context window is said over the values, and a
		// strategy recommended for another setup at any value (a sweep of
		// model.* or params.* moves the model's values recommended_for
		// records) (TestSweepWarnsInRunsOrder).
		results := make([]*report.Results, len(pts))
		labels := make([]string, len(pts))
		for i := range pts {
			results[i], labels[i] = pts[i].Results, pts[i].Label
		}
		last := results[len(results)-1]
		warn := runWarnings{notes: sw.Inputs, notesAt: sweepNotesAt, last: last, info: &last.Run,
			overflow: func(stderr io.Writer) {
				if warn := plan.SweepOverflowWarning(rows); warn != "" {
					// Like input warnings, --quiet does not silence it.
					fmt.Fprintf(stderr, "defersim: warning: %s\n", warn)
				}
			}, recommended: results, recommendedAt: labels}
		if err := writeSweep(cmd, *format, sw, &doc, warn.kinds()); err != nil {
			return err
		}
		warn.write(cmd.ErrOrStderr())
		return skippedAtPoints(cmd.ErrOrStderr(), "value", pts)
	}
	fl := c.Flags()
	fl.StringVar(&param, "param", "", "parameter and range, PATH=FROM:TO:STEP")
	fl.StringSliceVar(&traces, "traces", nil, "traces instead of the scenario's")
	fl.StringSliceVar(&catalogs, "catalogs", nil, "catalogs instead of the scenario's")
	addStrategiesFlag(c, &strategies, strategiesUsage)
	addModelFlag(c, &model, modelUsage)
	fl.StringVarP(&out, "out", "o", "defersim-sweep", "output directory")
	fl.StringSliceVar(&metrics, "metrics", []string{"cost_usd", "first_reply_ms"}, "metrics to plot against the parameter")
	fl.IntVar(&bootstrap, "bootstrap", 0, "bootstrap resamples (0 = default)")
	fl.Var(&bootMem, "bootstrap-memory", bootstrapMemoryUsage+"; a larger --bootstrap is refused before the replay")
	fl.IntVar(&workers, "workers", 0, "sessions replayed in parallel (0 = one per core)")
	fl.BoolVar(&allowUnres, "allow-unresolved", false, scenarioLimitUsage)
	return c
}

// sweepDoc is sweep.json, and `sweep --format json`.
type sweepDoc struct {
	Spec      plan.SweepSpec    `json:"sweep"`
	Notes     []string          `json:"notes,omitempty"`
	AppliesTo []string          `json:"applies_to"`
	Constant  []plan.Unchanged  `json:"constant,omitempty"`
	Points    []plan.Point      `json:"points"`
	Rows      []plan.SeriesRow  `json:"rows"`
	Unchanged []plan.Unchanged  `json:"unchanged,omitempty"`
	Plots     []string          `json:"plots"`
	Inputs    *inputnotes.Notes `json:"input_notes,omitempty"`
	// Skipped are the sessions some value failed to replay, each once
	// with the values (skippedAtPoints lists them on stderr).
	Skipped []plan.SkippedSession `json:"skipped_sessions,omitempty"`
}

// writeSweep prints the sweep's table in format; warnings are the kinds
// of run's warnings the sweep gives after it (runWarnings.kinds), which
// the CSV's rows end with.
func writeSweep(cmd *cobra.Command, format cliout.Format, sw *plan.SweepResult, doc *sweepDoc, warnings []string) error {
	spec, pts, plots, rows := doc.Spec, doc.Points, doc.Plots, doc.Rows
	if len(doc.Skipped) > 0 {
		warnings = append(warnings, "skipped_sessions")
	}
	w := cmd.OutOrStdout()
	switch format {
	case cliout.JSON:
		return cliout.WriteJSON(w, doc)
	case cliout.Markdown:
		fmt.Fprintf(w, "### Sweep of %s over %s, %s each\n\n", cliout.MDEscape(spec.Param), nouns.Count(len(pts), "value"), nouns.Count(pts[0].Results.Sessions, "session"))
		if a := appliesLine(spec.Param, sw); a != "" {
			fmt.Fprintf(w, "%s\n\n", cliout.MDEscape(a))
		}
		for _, n := range sw.Notes {
			fmt.Fprintf(w, "> Note: %s\n\n", cliout.MDEscape(n))
		}
		for _, p := range pts {
			for _, n := range p.Notes {
				fmt.Fprintf(w, "> Note (%s): %s\n\n", cliout.MDEscape(p.Label), cliout.MDEscape(n))
			}
		}
		writeSkippedMarkdown(w, "value", pts)
		if err := plan.WriteSeriesMarkdown(w, rows); err != nil {
			return err
		}
		plan.WriteUnchangedMarkdown(w, spec.Param, sw.Unchanged)
		return nil
	case cliout.CSV:
		// The text table's lines around it go where CSV cannot hold
		// them, as notes; like the warnings, --quiet does not
		// silence them.
		sweepNotes(cmd.ErrOrStderr(), true, spec.Param, sw)
		return plan.WriteSeriesCSV(w, spec.Param, rows, warnings)
	}
	fmt.Fprintf(w, "sweep of %s over %s, %s each\n", spec.Param, nouns.Count(len(pts), "value"), nouns.Count(pts[0].Results.Sessions, "session"))
	sweepNotes(w, false, spec.Param, sw)
	fmt.Fprintln(w)
	if err := plan.WriteSeries(w, rows); err != nil {
		return err
	}
	if len(sw.Unchanged) > 0 {
		fmt.Fprintln(w)
		plan.WriteUnchanged(w, spec.Param, sw.Unchanged)
	}
	fmt.Fprintln(w, "\nresults and plots:")
	for _, p := range pts {
		fmt.Fprintln(w, "  "+p.ResultsPath)
	}
	for _, p := range plots {
		fmt.Fprintln(w, "  "+p)
	}
	return nil
}

// sweepNotes writes the lines the text table follows: which strategies
// the swept key applies to (appliesLine), then the sweep's notes and each
// point's. As messages on stderr (when CSV holds the table) each is a
// note and starts "defersim: note", as every message of a command does,
// followed by the strategies no value changed (plan.WriteUnchanged: a
// note whose lines are indented under it), which the text prints after
// its table.
func sweepNotes(w io.Writer, messages bool, param string, sw *plan.SweepResult) {
	lead, applies := "", ""
	if messages {
		lead, applies = "defersim: ", "defersim: note: "
	}
	if a := appliesLine(param, sw); a != "" {
		fmt.Fprintln(w, applies+a)
	}
	for _, n := range sw.Notes {
		fmt.Fprintf(w, "%snote: %s\n", lead, n)
	}
	for _, p := range sw.Points {
		for _, n := range p.Notes {
			fmt.Fprintf(w, "%snote (%s): %s\n", lead, p.Label, n)
		}
	}
	if messages && len(sw.Unchanged) > 0 {
		fmt.Fprint(w, applies)
		plan.WriteUnchanged(w, param, sw.Unchanged)
	}
}

// appliesLine says which strategies the swept key applies to and which
// are constant across the sweep, when some are; "" when it applies to
// every strategy.
func appliesLine(param string, sw *plan.SweepResult) string {
	if len(sw.Constant) == 0 {
		return ""
	}
	names := make([]string, len(sw.Constant))
	for i, c := range sw.Constant {
		names[i] = c.Strategy
	}
	return fmt.Sprintf("%s applies to %s; constant across the sweep (the key does not apply to them; the notes say why): %s",
		param, strings.Join(sw.AppliesTo, ", "), strings.Join(names, ", "))
}

// scenarioGuard is the outguard of a command that replays a scenario
// (file path, "" for the embedded default) with overrides: its inputs are
// the scenario file and the traces and catalogs on disk.
func scenarioGuard(sc *scenarios.Scenario, path string, ov runner.Overrides) (*outguard.Guard, error) {
	c := *sc
	c.Strategies = nil // inputs only: strategies do not matter here
	rc, err := runner.FromScenario(&c, runner.Overrides{Traces: ov.Traces, Catalogs: ov.Catalogs}, embeddedData())
	if err != nil {
		return nil, err
	}
	return outguard.New(append(rc.InputPaths(), path)...), nil
}
