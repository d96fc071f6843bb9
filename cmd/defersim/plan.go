package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/plan"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
)

func newPlanCmd() *cobra.Command {
	var (
		perDay     float64
		perMonth   float64
		growth     []float64
		growthFrom string
		scenario   string
		traces     []string
		catalogs   []string
		out        string
		metrics    []string
		margin     float64
		bootstrap  int
		workers    int
	)
	c := &cobra.Command{
		Use:   "plan RESULTS.json --sessions-per-day N",
		Short: "Capacity planning: tokens, dollars and latency per day and month, and how they grow with the catalog",
		Long: `plan projects a results file to a session volume: per strategy, tokens per
day by kind (uncached input, cache write, cache read, output), dollars per
day and month, and first-reply and session latency percentiles, each with
the 95% interval carried through from the results.

--growth 1,2,4,8 replays the scenario (--scenario, default: the embedded
default; it should be the one that produced RESULTS.json) over catalogs
grown to those multiples of its tool count — servers drawn like the
existing ones, or the servers of --growth-from DIR (real catalogs) — and
shows how cost and first-reply latency grow per strategy (a table, sweep
plots, and the size at which each rule gets --breakdown-margin worse than
on today's catalog).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := report.ReadResults(args[0])
			if err != nil {
				return err
			}
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
			proj, err := plan.Project(res, plan.Options{SessionsPerDay: perDay, DaysPerMonth: perMonth})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if err := plan.WriteProjection(w, proj); err != nil {
				return err
			}
			doc := struct {
				Projection *plan.Projection   `json:"projection"`
				Growth     []plan.GrowthPoint `json:"growth,omitempty"`
				Breakdowns []plan.Breakdown   `json:"breakdowns,omitempty"`
				Plots      []string           `json:"plots,omitempty"`
			}{Projection: proj}
			if len(growth) > 0 {
				sc, err := loadScenario(scenario)
				if err != nil {
					return err
				}
				var names []string
				for _, s := range res.Strategies {
					names = append(names, s.Name)
				}
				rc, err := runner.FromScenario(sc, runner.Overrides{Traces: traces, Catalogs: catalogs, Strategies: names,
					Baseline: res.BaselineName()}, embeddedData())
				if err != nil {
					return err
				}
				if rc.ScenarioFingerprint != res.Run.ScenarioFingerprint {
					fmt.Fprintf(w, "\nnote: the scenario's fingerprint (%.12s) differs from the results' (%.12s): growth is measured on the scenario as given\n",
						rc.ScenarioFingerprint, res.Run.ScenarioFingerprint)
				}
				rc.Bootstrap, rc.Workers = bootstrap, workers
				g := outguard.New(append(rc.InputPaths(), args[0], scenario, growthFrom)...)
				if err := g.Check(filepath.Join(out, "plan.json")); err != nil {
					return err
				}
				guard = g
				ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				pts, plots, err := plan.Growth(ctx, plan.GrowthConfig{Base: rc, Factors: growth, Pool: growthFrom,
					Seed: rc.Seed, Dir: stage, Metrics: metrics})
				if err != nil {
					return err
				}
				for i := range pts {
					pts[i].ResultsPath = set.Final(pts[i].ResultsPath)
				}
				for i := range plots {
					plots[i] = set.Final(plots[i])
				}
				var points []plan.Point
				fmt.Fprintf(w, "\ncatalog growth (same %d sessions; added servers offered to every session):\n", pts[0].Results.Sessions)
				for _, p := range pts {
					fmt.Fprintf(w, "  ×%g: %d servers, %d tools\n", p.Factor, p.Servers, p.Tools)
					for _, n := range p.Notes {
						fmt.Fprintf(w, "    note: %s\n", n)
					}
					points = append(points, p.Point)
				}
				fmt.Fprintln(w)
				if err := plan.WriteSeries(w, plan.Rows(points)); err != nil {
					return err
				}
				bs := plan.Breakdowns(points, margin)
				fmt.Fprintln(w)
				if err := plan.WriteBreakdowns(w, bs, margin, points[0].Label, points[len(points)-1].Label); err != nil {
					return err
				}
				fmt.Fprintln(w, "\nplots:")
				for _, p := range plots {
					fmt.Fprintln(w, "  "+p)
				}
				doc.Growth, doc.Breakdowns, doc.Plots = pts, bs, plots
			}
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
				fmt.Fprintf(w, "plan: %s\n", filepath.Join(out, "plan.json"))
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.Float64Var(&perDay, "sessions-per-day", 0, "sessions per day to project to (required)")
	fl.Float64Var(&perMonth, "days-per-month", 30, "days in a month")
	fl.Float64SliceVar(&growth, "growth", nil, "catalog size multiples to replay, e.g. 1,2,4,8")
	fl.StringVar(&growthFrom, "growth-from", "", "grow with the servers of this catalog directory (real catalogs) instead of generated ones")
	fl.StringVar(&scenario, "scenario", "", "scenario to replay for --growth (default: the embedded default)")
	fl.StringSliceVar(&traces, "traces", nil, "traces instead of the scenario's (for --growth)")
	fl.StringSliceVar(&catalogs, "catalogs", nil, "catalogs instead of the scenario's (for --growth)")
	fl.StringVarP(&out, "out", "o", "defersim-plan", "output directory (plan.json; growth results and plots)")
	fl.StringSliceVar(&metrics, "metrics", []string{"cost_usd", "first_reply_ms"}, "metrics plotted against catalog size")
	fl.Float64Var(&margin, "breakdown-margin", 0.25, "a rule breaks down where its cost or p95 first reply is this much worse than on today's catalog")
	fl.IntVar(&bootstrap, "bootstrap", 0, "bootstrap resamples of the growth runs (0 = default)")
	fl.IntVar(&workers, "workers", 0, "sessions replayed in parallel (0 = one per core)")
	_ = c.MarkFlagRequired("sessions-per-day")
	return c
}
