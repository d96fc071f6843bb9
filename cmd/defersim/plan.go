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

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/plan"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
)

// planDoc is what plan computes: plan.json, and `plan --format json`.
type planDoc struct {
	Projection *plan.Projection   `json:"projection"`
	Growth     []plan.GrowthPoint `json:"growth,omitempty"`
	// GrowthTolerance is --growth-tolerance, the share above its factor
	// past which a size is flagged (growth[].overshoot); absent without
	// --growth.
	GrowthTolerance *float64         `json:"growth_tolerance,omitempty"`
	Breakdowns      []plan.Breakdown `json:"breakdowns,omitempty"`
	Plots           []string         `json:"plots,omitempty"`
	// Inputs are the input problems of the growth runs' traces and
	// catalogs (nil when there are none, or without --growth).
	Inputs *inputnotes.Notes `json:"input_notes,omitempty"`
	// GrowthScenario is set when the growth runs replay a scenario other
	// than the results' (growthScenarioDiffers).
	GrowthScenario *growthScenario `json:"growth_scenario_differs,omitempty"`
	// GrowthWarnings are the warnings printed below the growth table
	// (another scenario, a shard's results, requests over the context
	// window), so that a reader of plan.json sees them as the text does.
	GrowthWarnings []string `json:"growth_warnings,omitempty"`
	// GrowthSkipped are the sessions some growth size failed to replay,
	// each once with the sizes (skippedAtPoints lists them on stderr and
	// plan exits 1, as run does).
	GrowthSkipped []plan.SkippedSession `json:"growth_skipped_sessions,omitempty"`
	// A note about the growth runs (not in JSON): the results record no
	// inputs to check the growth base against.
	fingerprintNote string
	margin          float64
	// growthLines are the lines plan prints below the growth points: the
	// cache assumption (plan.GrowthCache), then the warning of requests
	// over the context window (plan.GrowthOverflowWarning).
	growthLines []plan.Line
}

func newPlanCmd() *cobra.Command {
	var (
		perDay     float64
		perMonth   float64
		growth     []float64
		growthFrom string
		scenario   string
		model      string
		traces     []string
		catalogs   []string
		out        string
		metrics    []string
		margin     = plan.DefaultMargin
		bootstrap  int
		bootMem    report.ByteSize
		workers    int
		allowUnres bool
		warmTol    float64
		growthTol  float64
	)
	c := &cobra.Command{
		Use:   "plan RESULTS.json --sessions-per-day N",
		Short: "Capacity planning: cost and latency per day, month and growth",
		Long: `plan projects a results file to a session volume: per strategy, tokens per
day by kind (uncached input, cache write, cache read, output), dollars per
day and month, and first-reply and session latency percentiles, each with
the 95% interval carried through from the results. RESULTS.json may be -
(stdin).

--growth 1,2,4,8 replays the scenario (--scenario, default: the embedded
default; it should be the one that produced RESULTS.json, and plan warns,
naming what differs, when it is not) over catalogs grown to those
multiples of its tool count — servers drawn like the
existing ones, or the servers of --growth-from DIR (real catalogs) — and
shows how cost and first-reply latency grow per strategy (a table, sweep
plots, and the size at which each rule gets --breakdown-margin worse than
on today's catalog).

The plan is printed as text, Markdown (for a planning document or a pull
request), JSON (the content of plan.json) or CSV (the projection, one row
per strategy) with --format; plan.json, the growth runs and plots go to the
directory -o.`,
		Args: cobra.ExactArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.Markdown, cliout.JSON, cliout.CSV)
	c.RunE = func(cmd *cobra.Command, args []string) (rerr error) {
		if out == cliout.Stdio {
			return exitError{code: 2, msg: "-o names the directory for plan.json and the growth runs; print the plan with --format instead"}
		}
		if len(growth) == 0 {
			if err := growthOnlyFlags(cmd); err != nil {
				return err
			}
		}
		// Project reads 0 as its default (30): given, it is a mistake, which
		// CheckDaysPerMonth refuses as any value that is not positive.
		if err := plan.CheckDaysPerMonth("--days-per-month", perMonth); err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
		if err := plan.CheckMargin(margin, growth); err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
		if err := plan.CheckWarmStartTolerance("--warm-start-tolerance", warmTol); err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
		if err := plan.CheckGrowthTolerance("--growth-tolerance", growthTol); err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
		res, err := readResultsArg(cmd, args[0])
		if err != nil {
			return err
		}
		if err := plan.CheckPrices(res); err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
		proj, err := plan.Project(res, plan.Options{SessionsPerDay: perDay, DaysPerMonth: perMonth, WarmStartTolerance: &warmTol})
		if err != nil {
			return err
		}
		if *format != cliout.Text {
			// The text and Markdown plans print them; JSON holds them
			// in projection.warnings; say them where CSV cannot. Like
			// input warnings, --quiet does not silence them.
			for _, w := range proj.Warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "defersim: warning: %s\n", w)
			}
		}
		doc := planDoc{Projection: proj, margin: margin.Share}
		guard := outguard.New(args[0], scenario, growthFrom)
		set := atomicfile.NewSet()
		defer set.Abort()
		stage := out
		if out != "" {
			if err := guard.Check(filepath.Join(out, "plan.json")); err != nil {
				return err
			}
			if stage, err = set.Dir(out); err != nil {
				return err
			}
		}
		if len(growth) > 0 {
			sc, err := loadScenario(scenario)
			if err != nil {
				return err
			}
			if err := useModelFlag(cmd.ErrOrStderr(), sc, scenario, model); err != nil {
				return err
			}
			if err := sc.CheckParams(""); err != nil {
				return err
			}
			var names []string
			for _, s := range res.Strategies {
				names = append(names, s.Name)
			}
			rc, err := runner.FromScenario(sc, runner.Overrides{Traces: traces, Catalogs: catalogs, Strategies: names,
				Baseline: res.BaselineName(), AllowUnresolved: allowUnres}, embeddedData())
			if err != nil {
				return err
			}
			rc.Bootstrap, rc.Workers, rc.BootstrapMemory = bootstrap, workers, int64(bootMem)
			rc.Validator = contextValidator(cmd.Context())
			g := outguard.New(append(rc.InputPaths(), args[0], scenario, growthFrom)...)
			if err := g.Check(filepath.Join(out, "plan.json")); err != nil {
				return err
			}
			guard = g
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			prog := newReporter(cmd, progress.Config{Label: "plan --growth", Verb: "replayed", Noun: "catalog sizes", One: "catalog size", Total: int64(len(growth))})
			if len(res.Run.Inputs) == 0 {
				doc.fingerprintNote = "the results record no inputs (a file of an earlier build): " +
					"that the growth base replays the same traces and catalogs could not be checked"
			}
			pts, plots, err := plan.Growth(ctx, plan.GrowthConfig{Base: rc, Factors: growth, Pool: growthFrom, Recorded: res.Run.Inputs,
				Seed: rc.Seed, Dir: stage, Named: set.Final, Metrics: metrics, Tolerance: &growthTol, Progress: func(n int) { prog.Update(int64(n), int64(n)) }})
			if err != nil {
				prog.Abort()
				return err
			}
			prog.Finish()
			for i := range pts {
				pts[i].ResultsPath = set.Final(pts[i].ResultsPath)
			}
			for i := range plots {
				plots[i] = set.Final(plots[i])
			}
			var points []plan.Point
			for _, p := range pts {
				points = append(points, p.Point)
			}
			doc.growthLines = plan.GrowthCache(proj, pts)
			if rc.ScenarioFingerprint != res.Run.ScenarioFingerprint {
				doc.GrowthScenario = growthScenarioDiffers(res, pts[0].Results, rc.ScenarioFingerprint, rc.Model.Name)
				doc.growthLines = append([]plan.Line{{Warning: true, Text: doc.GrowthScenario.Warning}}, doc.growthLines...)
			}
			if l, ok := growthShardWarning(res, pts[0].Results); ok {
				doc.growthLines = append([]plan.Line{l}, doc.growthLines...)
			}
			if l, ok := plan.GrowthOverflowWarning(pts); ok {
				doc.growthLines = append(doc.growthLines, l)
			}
			for _, l := range doc.growthLines {
				if l.Warning {
					doc.GrowthWarnings = append(doc.GrowthWarnings, l.Text)
				}
			}
			if *format != cliout.Text {
				for _, w := range doc.GrowthWarnings {
					fmt.Fprintf(cmd.ErrOrStderr(), "defersim: warning: %s\n", w)
				}
			}
			doc.Growth, doc.Breakdowns, doc.Plots = pts, plan.Breakdowns(points, margin.Share), plots
			doc.GrowthTolerance = &growthTol
			// The largest catalog holds every other's servers: its
			// replay's notes cover every point's.
			inputs := pts[len(pts)-1].Inputs
			doc.Inputs = inputs.OrNil()
			doc.GrowthSkipped = plan.SkippedSessions(points)
			// After the output: the input warnings, then the sessions a
			// size failed to replay, and exit 1 on them, as run ends.
			defer func() {
				warnInputs(cmd.ErrOrStderr(), inputs, planNotesAt)
				if rerr == nil {
					rerr = skippedAtPoints(cmd.ErrOrStderr(), "size", points)
				}
			}()
		}
		var path string
		if out != "" {
			data, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				return err
			}
			if err := atomicfile.WriteFile(filepath.Join(stage, "plan.json"), append(data, '\n'), 0o644); err != nil {
				return err
			}
			if err := set.Commit(guard.CheckOne); err != nil {
				return err
			}
			path = filepath.Join(out, "plan.json")
		}
		w := cmd.OutOrStdout()
		switch *format {
		case cliout.JSON:
			return cliout.WriteJSON(w, doc)
		case cliout.CSV:
			return plan.WriteProjectionCSV(w, proj)
		case cliout.Markdown:
			return doc.writeMarkdown(w)
		}
		if err := doc.writeText(w); err != nil {
			return err
		}
		if path != "" {
			fmt.Fprintf(w, "plan: %s\n", path)
		}
		return nil
	}
	fl := c.Flags()
	fl.Float64Var(&perDay, "sessions-per-day", 0, "sessions per day to project to (required)")
	fl.Float64Var(&perMonth, "days-per-month", 30, "days in a month, at most 31 (fewer to count only the days with traffic)")
	fl.Float64Var(&warmTol, "warm-start-tolerance", plan.DefaultWarmStartTolerance, "warn when the results' params.cache_warm_start is more than this far, colder or warmer, from the warm start the sessions per day imply (a difference of probabilities, below 1)")
	fl.Float64SliceVar(&growth, "growth", nil, "catalog size multiples to replay, e.g. 1,2,4,8")
	fl.Float64Var(&growthTol, "growth-tolerance", plan.DefaultGrowthTolerance, "flag a size more than this share above its factor (servers are added whole, so a size can overshoot: 0.1 = ×2 replayed past ×2.2 today's tools)")
	fl.StringVar(&growthFrom, "growth-from", "", "grow with the servers of this catalog directory (real catalogs) instead of generated ones")
	fl.StringVar(&scenario, "scenario", "", "scenario to replay for --growth (default: the embedded default)")
	addModelFlag(c, &model, modelUsage+" (for --growth)")
	fl.StringSliceVar(&traces, "traces", nil, "traces instead of the scenario's (for --growth)")
	fl.StringSliceVar(&catalogs, "catalogs", nil, "catalogs instead of the scenario's (for --growth)")
	fl.StringVarP(&out, "out", "o", "defersim-plan", "output directory (plan.json; growth results and plots)")
	fl.StringSliceVar(&metrics, "metrics", []string{"cost_usd", "first_reply_ms"}, "metrics plotted against catalog size")
	fl.Var(&margin, "breakdown-margin", "a rule breaks down where its cost or p95 first reply is this much worse than on today's catalog: a share up to 1 (0.25 = 25% worse), or a percentage with its sign (25%, 150%)")
	fl.IntVar(&bootstrap, "bootstrap", 0, "bootstrap resamples of the growth runs (0 = default)")
	fl.Var(&bootMem, "bootstrap-memory", bootstrapMemoryUsage+"; a larger --bootstrap is refused before the replay")
	fl.IntVar(&workers, "workers", 0, "sessions replayed in parallel (0 = one per core)")
	fl.BoolVar(&allowUnres, "allow-unresolved", false, scenarioLimitUsage)
	_ = c.MarkFlagRequired("sessions-per-day")
	return c
}

// planGrowthFlags are the plan flags only --growth reads: the projection
// reads RESULTS.json alone.
var planGrowthFlags = []string{"scenario", "model", "traces", "catalogs", "growth-from", "growth-tolerance", "metrics", "breakdown-margin", "bootstrap", "bootstrap-memory", "workers", "allow-unresolved"}

// growthOnlyFlags refuses a growth flag given without --growth: it used to
// be ignored without a word (a --scenario that does not exist included).
func growthOnlyFlags(cmd *cobra.Command) error {
	for _, name := range planGrowthFlags {
		if cmd.Flags().Changed(name) {
			return exitError{code: 2, msg: fmt.Sprintf("--%s is read only with --growth (the projection reads RESULTS.json alone: its prices, model and sessions): drop it, or add --growth", name)}
		}
	}
	return nil
}

// readResultsArg reads a results file named on the command line, - being
// stdin.
func readResultsArg(cmd *cobra.Command, path string) (*report.Results, error) {
	if path != cliout.Stdio {
		return report.ReadResults(path)
	}
	data, err := (&cliout.Inputs{Stdin: cmd.InOrStdin()}).ReadFile(path)
	if err != nil {
		return nil, err
	}
	res, err := report.DecodeResults(data)
	if err != nil {
		return nil, fmt.Errorf("read results %s: %w", cliout.StdinName, err)
	}
	return res, nil
}

func (d *planDoc) points() []plan.Point {
	var points []plan.Point
	for _, p := range d.Growth {
		points = append(points, p.Point)
	}
	return points
}

func (d *planDoc) writeText(w io.Writer) error {
	if err := plan.WriteProjection(w, d.Projection); err != nil {
		return err
	}
	if len(d.Growth) == 0 {
		return nil
	}
	if d.fingerprintNote != "" {
		fmt.Fprintf(w, "\nnote: %s\n", d.fingerprintNote)
	}
	fmt.Fprintf(w, "\ncatalog growth (same %s; added servers offered to every session):\n", nouns.Count(d.Growth[0].Results.Sessions, "session"))
	for _, p := range d.Growth {
		fmt.Fprintf(w, "  %s: %s\n", p.FactorText(""), p.SizeText())
		for _, n := range p.Notes {
			fmt.Fprintf(w, "    note: %s\n", n)
		}
	}
	for _, l := range d.growthLines {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	points := d.points()
	if err := plan.WriteSeries(w, plan.Rows(points)); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := plan.WriteBreakdowns(w, d.Breakdowns, d.margin, points[0].Label, points[len(points)-1].Label); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nplots:")
	for _, p := range d.Plots {
		fmt.Fprintln(w, "  "+p)
	}
	return nil
}

func (d *planDoc) writeMarkdown(w io.Writer) error {
	if err := plan.WriteProjectionMarkdown(w, d.Projection); err != nil {
		return err
	}
	if len(d.Growth) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\n### Catalog growth\n\nThe same %s over catalogs grown to:", nouns.Count(d.Growth[0].Results.Sessions, "session"))
	for i, p := range d.Growth {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %s", sep, p.FactorText(p.SizeText()))
	}
	fmt.Fprint(w, ". Added servers are offered to every session.\n\n")
	writeGrowthNotesMarkdown(w, d.Growth)
	for _, l := range d.growthLines {
		fmt.Fprint(w, l.Markdown())
	}
	writeSkippedMarkdown(w, "size", d.points())
	if d.fingerprintNote != "" {
		fmt.Fprintf(w, "> Note: %s\n\n", cliout.MDEscape(d.fingerprintNote))
	}
	points := d.points()
	if err := plan.WriteSeriesMarkdown(w, plan.Rows(points)); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return plan.WriteBreakdownsMarkdown(w, d.Breakdowns, d.margin, points[0].Label, points[len(points)-1].Label)
}

// writeGrowthNotesMarkdown writes the notes of the growth points, each note
// once with the sizes it is about.
func writeGrowthNotesMarkdown(w io.Writer, growth []plan.GrowthPoint) {
	var order []string
	at := map[string][]string{}
	for _, p := range growth {
		for _, n := range p.Notes {
			if _, ok := at[n]; !ok {
				order = append(order, n)
			}
			at[n] = append(at[n], p.FactorText(""))
		}
	}
	for _, n := range order {
		fmt.Fprintf(w, "> Note %s: %s.\n\n", plan.FactorsAt(at[n]), cliout.MDEscape(n))
	}
}
