package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/calibrate"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/traces"
)

func newCalibrateCmd() *cobra.Command {
	var (
		catalogs []string
		scenario string
		model    string
		fitOn    float64
		seed     int64
		split    string
		loss     string
		out      string
		jsonOut  string
	)
	c := &cobra.Command{
		Use:   "calibrate TRACE...",
		Short: "Fit latency parameters and prompt overhead to recorded sessions",
		Long: `calibrate fits, on a seeded share of the sessions (--fit-on), the prompt
overhead the trace does not carry (request_overhead_tokens,
message_overhead_tokens, tool_overhead_tokens) to recorded input tokens, and
the latency model (overhead_ms, prefill_tps, cached_prefill_tps, decode_tps,
jitter_cv) to recorded request durations, by robust regression. It reports
the fit and the error on the held-out sessions, before and after, and writes
the values as a scenario snippet (-o).

The starting point is the scenario's model and params (--scenario, default:
the embedded default); --model picks a model preset instead (default: the
traces' recorded model when it is a preset). Catalogs default to those
written beside the traces (TRACE.catalog, DIR/catalog).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srcs, release, err := runner.Rereadable(runner.PathSources(args...))
			if err != nil {
				return err
			}
			defer release()
			sc, m, catalogs, err := jobInputs(scenario, model, catalogs, srcs)
			if err != nil {
				return err
			}
			guard := outguard.New(slices.Concat(args, catalogs, []string{scenario})...)
			if err := guard.Check(out, jsonOut); err != nil {
				return err
			}
			cat, err := runner.LoadCatalogs(runner.PathSources(catalogs...))
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("seed") {
				seed = sc.Seed
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			res, err := calibrate.Run(ctx, calibrate.Config{Traces: args, Catalog: cat, Model: m, Params: sc.Params,
				Sessions: runner.SessionSource(srcs, traces.ReadOptions{}),
				FitShare: fitOn, Seed: seed, Split: split, Loss: calibrate.Loss(loss)})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if err := calibrate.WriteText(w, res); err != nil {
				return err
			}
			set := atomicfile.NewSet()
			defer set.Abort()
			if out != "" {
				if err := atomicfile.WriteFile(set.File(out), calibrate.Snippet(res), 0o644); err != nil {
					return fmt.Errorf("write snippet: %w", err)
				}
			}
			if jsonOut != "" {
				data, err := json.MarshalIndent(res, "", "  ")
				if err != nil {
					return err
				}
				if err := atomicfile.WriteFile(set.File(jsonOut), append(data, '\n'), 0o644); err != nil {
					return fmt.Errorf("write %s: %w", jsonOut, err)
				}
			}
			if err := set.Commit(guard.CheckOne); err != nil {
				return err
			}
			if out != "" {
				fmt.Fprintf(w, "\nscenario snippet: %s\n", out)
			} else {
				fmt.Fprintf(w, "\n%s", calibrate.Snippet(res))
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringSliceVar(&catalogs, "catalogs", nil, "catalog directories or files (default: beside the traces)")
	fl.StringVar(&scenario, "scenario", "", "scenario whose model and params are the starting point (default: embedded default)")
	fl.StringVar(&model, "model", "", "model preset to start from instead of the scenario's")
	fl.Float64Var(&fitOn, "fit-on", 0.7, "share of sessions fitted on; the rest are held out")
	fl.Int64Var(&seed, "seed", 0, "seed of the session split (default: the scenario's)")
	fl.StringVar(&split, "split", calibrate.SplitAuto, "prompt-token split for the latency fit: auto, recorded or replay")
	fl.StringVar(&loss, "loss", string(calibrate.Huber), "regression loss: huber, lad or ols")
	fl.StringVarP(&out, "out", "o", "", "write the scenario snippet to this file (default: print it)")
	fl.StringVar(&jsonOut, "json", "", "also write the full calibration as JSON to this file")
	return c
}
