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

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/calibrate"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/validation"
)

func newCalibrateCmd() *cobra.Command {
	var (
		catalogs  []string
		test      []string
		scenario  string
		model     string
		fitOn     string
		seed      int64
		split     string
		loss      string
		residuals string
		jitter    bool
		kinds     bool
		allowUnr  bool
		maxUnr    float64
		out       string
		jsonOut   string
		format    *cliout.Format
	)
	c := &cobra.Command{
		Use:   "calibrate TRACE...",
		Short: "Fit latency parameters and prompt overhead to recorded sessions",
		Long: `calibrate fits, on a selection of the sessions (--fit-on), the prompt
overhead the trace does not carry (request_overhead_tokens,
message_overhead_tokens, tool_overhead_tokens) to recorded input tokens, and
the latency model (overhead_ms, prefill_tps, cached_prefill_tps, decode_tps,
and a term per request kind, kind_ms) to recorded request durations, by
robust regression with every rate kept positive. It reports the fit and the
error on held-out sessions — the other sessions, or every session of --test
TRACES — per request and as distributions (KS distance of request and
first-reply times), before and after, per recorded model.

It writes a complete scenario (-o FILE) that replays the held-out sessions
with the calibrated model and params: the starting scenario (--scenario) with
its model and params updated, or a fresh one with the eager strategy. When
the held-out sessions are part of a trace file, they are written beside the
scenario (FILE without its extension + .held-out.jsonl.gz). Latency stays
deterministic unless --jitter writes the fitted jitter_cv.

The starting point is the scenario's model and params (--scenario, default:
the embedded default); --model picks a model preset instead (default: each
session's recorded model when it is a preset, with a warning naming the
preset used when it is not). Catalogs default to the traces' own: the
directory their session_start meta "catalog" names, else TRACE.catalog or
DIR/catalog beside them.`,
		Example: `  defersim calibrate telecom.jsonl.gz --fit-on even -o out/telecom.yaml
  defersim calibrate fit.jsonl.gz --test held.jsonl.gz --json out/cal.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			maxShare, err := givenMaxUnresolved(cmd, maxUnr)
			if err != nil {
				return err
			}
			sel, err := calibrate.ParseFitOn(fitOn)
			if err != nil {
				return err
			}
			data := calibrate.Data{Traces: args, Test: test, FitOn: sel}
			if err := data.Check(); err != nil {
				return err
			}
			// A calibration reads its traces several times: a FIFO or pipe
			// is spooled once (runner.Rereadable).
			all := slices.Concat(args, test)
			srcs, release, err := runner.Rereadable(runner.PathSources(all...))
			if err != nil {
				return err
			}
			defer release()
			var tally inputnotes.Tally
			data.Read = runner.TalliedSessionsByPath(srcs, traces.ReadOptions{}, &tally)
			in, err := jobInputs(cmd.ErrOrStderr(), scenario, model, catalogs, all, data.Read)
			if err != nil {
				return err
			}
			sc, m, catalogs, useRecorded := in.sc, in.sc.Model, in.catalogs, in.useRecorded
			if err := outguard.Check(slices.Concat(all, catalogs, []string{scenario}), out, jsonOut); err != nil {
				return err
			}
			catSrcs, err := runner.CatalogSources(catalogs, embeddedData())
			if err != nil {
				return err
			}
			cat, err := runner.LoadCatalogs(catSrcs)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("seed") {
				seed = sc.Seed
			}
			from := "scenario"
			switch {
			case useRecorded:
				m = in.own // each model group starts from its recorded preset, else from the scenario's
			case model != "":
				from = "--model"
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			data.Seed = seed
			res, err := calibrate.Run(ctx, calibrate.Config{
				Data:    data,
				Catalog: cat, Model: m, Params: sc.Params, UseRecorded: useRecorded, ModelFrom: from, ModelPreset: sc.ModelPreset,
				Split: split, Residuals: residuals, Loss: calibrate.Loss(loss), Jitter: jitter,
				NoKinds: !kinds, AllowUnresolved: allowUnr, MaxUnresolved: maxShare})
			if res != nil {
				for _, wn := range res.Warnings {
					fmt.Fprintf(cmd.ErrOrStderr(), "defersim: warning: %s\n", wn)
				}
			}
			if err != nil {
				return err
			}
			if res.Inputs = tally.Notes(catalog.Notes(cat.All(), validation.SchemaCheck)).OrNil(); res.Inputs != nil {
				defer warnInputs(cmd.ErrOrStderr(), *res.Inputs, calibrateNotesAt)
			}
			w := cmd.OutOrStdout()
			if *format == cliout.JSON {
				// The report goes to stdout as JSON; notes go to stderr.
				if err := cliout.WriteJSON(w, res); err != nil {
					return err
				}
				w = cmd.ErrOrStderr()
			} else if err := calibrate.WriteText(w, res); err != nil {
				return err
			}
			// The scenarios, their held-out sessions and --json are one
			// output set: all are written, or none is changed.
			set := atomicfile.NewSet()
			defer set.Abort()
			opt := calibrate.ScenarioOptions{Path: out, Catalogs: catalogs, Seed: seed, Set: set,
				Inputs: append(append(append([]string(nil), args...), test...), catalogs...)}
			if scenario != "" {
				opt.Inputs = append(opt.Inputs, scenario)
				if opt.Base, err = os.ReadFile(scenario); err != nil {
					return err
				}
				opt.BaseName = scenario
			}
			written, err := calibrate.WriteScenarios(res, opt)
			if err != nil {
				return err
			}
			if jsonOut != "" {
				data, err := json.MarshalIndent(res, "", "  ")
				if err != nil {
					return err
				}
				if err := os.WriteFile(set.File(jsonOut), append(data, '\n'), 0o644); err != nil {
					return err
				}
			}
			if err := set.Commit(nil); err != nil {
				return err
			}
			for _, s := range written {
				if out == "" {
					fmt.Fprintf(w, "\n# calibrated scenario for %s\n%s", s.Model, s.YAML)
					continue
				}
				fmt.Fprintf(w, "\ncalibrated scenario (%s): %s\n", s.Model, s.Scenario)
				if s.HeldOut != "" {
					fmt.Fprintf(w, "held-out sessions it replays: %s\n", s.HeldOut)
				}
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringSliceVar(&catalogs, "catalogs", nil, "catalog directories or files (default: the traces' own, else a --scenario's on disk; embedded:catalog, the embedded sample's, on purpose)")
	fl.StringSliceVar(&test, "test", nil, "held-out traces: judge the fit on every session of these (the calibration traces are then only fitted on)")
	fl.StringVar(&scenario, "scenario", "", "scenario whose model and params are the starting point, and which -o writes updated (default: embedded default)")
	fl.StringVar(&model, "model", "", "model preset to start from instead of the scenario's or the recorded one")
	fl.StringVar(&fitOn, "fit-on", "0.7", "sessions fitted on: a share (by a seeded hash of the id), even or odd (positions 0, 2, 4… or 1, 3, 5… in input order), or all (with --test)")
	fl.Int64Var(&seed, "seed", 0, "seed of the share split and of the jitter draws (default: the scenario's)")
	fl.StringVar(&split, "split", calibrate.SplitAuto, "prompt-token split for the latency fit: auto, recorded or replay")
	fl.StringVar(&loss, "loss", string(calibrate.Huber), "regression loss: huber, lad or ols")
	fl.StringVar(&residuals, "residuals", calibrate.Log, "latency fit residuals: log (multiplicative: each request by its ratio to the prediction) or absolute (ms)")
	fl.BoolVar(&jitter, "jitter", false, "write the fitted jitter_cv into the scenario (for distributions; per-request predictions are then random)")
	fl.BoolVar(&kinds, "kinds", true, "fit a time per request kind (kind_ms: first request of a turn or after tool results, text or tool calls, repeated calls); --kinds=false fits one overhead for all")
	fl.BoolVar(&allowUnr, "allow-unresolved", false, "calibrate even when more of the fitted or held-out sessions' tool calls than --max-unresolved do not resolve against the catalogs (the fitted overhead absorbs their definitions; the fit says so)")
	addMaxUnresolved(c, &maxUnr, "share of the fitted, and of the held-out, sessions' tool calls that may fail to resolve against the catalogs before calibrate stops with exit status 2, as run does (the scenario's max_unresolved is not read: calibrate's traces are its own)")
	fl.StringVarP(&out, "out", "o", "", "write the calibrated scenario to this file, and the held-out sessions beside it (default: print the scenario)")
	fl.StringVar(&jsonOut, "json", "", "also write the full calibration as JSON to this file")
	format = cliout.AddFormat(c, cliout.Text, cliout.JSON)
	return c
}
