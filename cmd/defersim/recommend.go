package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/internal/recommend"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

func newRecommendCmd() *cobra.Command {
	var (
		catalogs        []string
		out             string
		scenario        string
		model           string
		current         string
		base            string
		seed            int64
		testShare       float64
		value           float64
		conf            float64
		rare            float64
		expensive       int64
		results         string
		jsonOut         string
		bootstrap       int
		bootMem         report.ByteSize
		workers         int
		allowUnresolved bool
		failUncertain   bool
		heldOutOut      string
		trainingOut     string
	)
	c := &cobra.Command{
		Use:   "recommend TRACE...",
		Short: "Propose never/always-defer lists and a budget from opener logs",
		Long: `recommend reads recorded sessions and the catalogs they used, and for every
tool reports how often it opens a session, is called, is called in the first
turn and before the first reply, its schema tokens and its drift history.
From these, under the scenario's prices and latency, it proposes:

  never-defer   tools whose deferral adds more mean first-reply time (share
                needed before the first reply × one search round trip) than
                their direct schema costs (its prefill), with the share
                needed before the first reply above break-even at
                --confidence (--usd-per-second also weighs the dollars);
  always-defer  tools called in at most --rare of sessions, with a schema of
                at least --expensive tokens, cheaper deferred and without
                first-reply cost;
  a budget      the schema size above which deferring pays (with
                --usd-per-second, its first-reply time priced too).

It writes the proposal as a strategy snippet (-o), which records the model and
tokenizer it was chosen for (recommended_for: a run with others warns), and
validates it: a seeded share of sessions (--test-share, split by session id)
is held apart, and the proposal, the current strategy (--current, default
the scenario's baseline) and every preset are replayed on them, with paired
differences. --held-out
and --training write the two sides of the split as traces: a run of the
held-out one under the scenario with the snippet, at the same seed and
catalogs, reproduces the validation (docs/recommend.md). A --scenario's
local servers are applied as a run applies them: their tools are sent
whatever the budget unless always-deferred. Without --scenario, a note
names the embedded default's local servers, which it does not apply.

The report is printed as text (the snippet follows it unless -o names a
file), Markdown (for a pull request: decisions, validation, the snippet and
the evidence per tool), JSON (the proposal and its evidence, with the
snippet; docs/recommend.md) or CSV (the evidence, one row per tool) with
--format. -o - prints the snippet alone on stdout and the text report on
stderr.

Shares learnt from few sessions are uncertain: each decision's shares get
Wilson bounds at --confidence, and a decision whose bounds straddle the
threshold its rule compared them with is marked uncertain, counted, and
warned about with the sessions that would settle it (--fail-on-uncertain:
exit 1 then). So are sessions none of which used the catalog version
priced (each server's latest; for versions with no release order, the one
most sessions name): the tools they call that it lacks get no
decision, and its new tools are decided on sessions that could not call
them.`,
		Args: cobra.MinimumNArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.Markdown, cliout.JSON, cliout.CSV)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if out == cliout.Stdio && *format != cliout.Text {
			return exitError{code: 2, msg: "-o - prints the snippet on stdout: it cannot be combined with --format " + string(*format)}
		}
		// recommend reads its traces twice (learn, validate): a FIFO or pipe
		// is spooled once (runner.Rereadable).
		srcs, release, err := runner.Rereadable(runner.PathSources(args...))
		if err != nil {
			return err
		}
		defer release()
		in, err := jobInputs(cmd.ErrOrStderr(), scenario, model, catalogs, args, runner.SessionsByPath(srcs, traces.ReadOptions{}))
		if err != nil {
			return err
		}
		sc, m, catalogs, preset := in.sc, in.sc.Model, in.catalogs, in.sc.ModelPreset
		guard := outguard.New(slices.Concat(args, catalogs, []string{scenario})...)
		if err := guard.Check(out, results, jsonOut, heldOutOut, trainingOut); err != nil {
			return err
		}
		if heldOutOut != "" && testShare == 0 {
			return exitError{code: 2, msg: "--held-out: --test-share 0 holds no session out"}
		}
		if current == "" {
			current = sc.Baseline
		}
		cur, err := strategyOrPreset(sc, "--current", current)
		if err != nil {
			return err
		}
		var baseStrat *sim.Strategy
		if base != "" {
			b, err := strategyOrPreset(sc, "--base", base)
			if err != nil {
				return err
			}
			baseStrat = &b
		}
		if !cmd.Flags().Changed("seed") {
			seed = sc.Seed
		}
		rules := recommend.DefaultRules()
		rules.USDPerSecond, rules.Rare, rules.Expensive, rules.Confidence = value, rare, expensive, conf
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		prog := newReporter(cmd, progress.Config{Label: "recommend", Verb: "completed", Noun: "phases (learning, validation)", Total: 2})
		ro, local := runOnly(scenario, sc)
		p, err := recommend.Run(ctx, recommend.Config{Traces: args, Sources: srcs, Catalogs: catalogs, Embedded: embeddedData(), Model: m, ModelPreset: preset, Params: sc.Params,
			Current: cur, Base: baseStrat, Seed: seed, TestShare: testShare, Rules: rules, RunOnly: ro, LocalServers: local,
			Bootstrap: bootstrap, BootstrapMemory: int64(bootMem), Workers: workers, AllowUnresolved: allowUnresolved, Progress: func(n int) { prog.Update(int64(n), int64(n)) }})
		if err != nil {
			prog.Abort()
			return err
		}
		prog.Finish()
		if p.ModelsNote != "" {
			warnf(cmd, "%s", p.ModelsNote)
		}
		if *format != cliout.Text {
			// The text report prints them; the other forms carry them
			// where a person may not look (JSON warnings, snippet comments).
			for _, w := range p.Warnings {
				warnf(cmd, "%s", w)
			}
		}
		if p.Inputs != nil {
			defer warnInputs(cmd.ErrOrStderr(), *p.Inputs, recommendNotesAt)
		}
		snippet := recommend.Snippet(p)
		w, notes := cmd.OutOrStdout(), cmd.OutOrStdout()
		if *format != cliout.Text {
			notes = cmd.ErrOrStderr()
		}
		switch {
		case out == cliout.Stdio:
			if !cliout.Quiet(cmd) {
				if err := recommend.WriteText(cmd.ErrOrStderr(), p); err != nil {
					return err
				}
			}
			if _, err := w.Write(snippet); err != nil {
				return err
			}
			notes = cmd.ErrOrStderr()
		case *format == cliout.JSON:
			err = cliout.WriteJSON(w, struct {
				*recommend.Proposal
				Snippet string `json:"snippet"`
			}{p, string(snippet)})
		case *format == cliout.Markdown:
			err = recommend.WriteMarkdown(w, p)
		case *format == cliout.CSV:
			err = recommend.WriteCSV(w, p)
		default:
			if err = recommend.WriteText(w, p); err == nil && out == "" {
				_, err = fmt.Fprintf(w, "\n%s", snippet)
			}
		}
		if err != nil {
			return err
		}
		// The snippet, the validation results and the JSON are one output set.
		set := atomicfile.NewSet()
		defer set.Abort()
		if out != "" && out != cliout.Stdio {
			if err := atomicfile.WriteFile(set.File(out), snippet, 0o644); err != nil {
				return err
			}
		}
		if results != "" && p.Validation != nil {
			if err := report.WriteResults(set.File(results), p.Validation.Results); err != nil {
				return err
			}
		}
		// The sessions of each side of the split, as traces a run replays
		// (docs/recommend.md#reproducing-the-validation).
		written := map[string]int{}
		for _, side := range []struct {
			path    string
			heldOut bool
		}{{heldOutOut, true}, {trainingOut, false}} {
			if side.path == "" {
				continue
			}
			if side.heldOut && p.HeldOut == 0 {
				return exitError{code: 2, msg: fmt.Sprintf("--held-out %s: no session was held out (%d learnt from): raise --test-share", side.path, p.Training)}
			}
			n, err := recommend.WriteSplit(set.File(side.path), side.path, srcs, p, side.heldOut, func(msg string) { warnf(cmd, "%s", msg) })
			if err != nil {
				return fmt.Errorf("write %s: %w", side.path, err)
			}
			written[side.path] = n
		}
		if jsonOut != "" {
			data, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				return err
			}
			if err := atomicfile.WriteFile(set.File(jsonOut), append(data, '\n'), 0o644); err != nil {
				return err
			}
		}
		if err := set.Commit(guard.CheckOne); err != nil {
			return err
		}
		if out != "" && out != cliout.Stdio {
			fmt.Fprintf(notes, "\nstrategy snippet: %s\n", out)
		}
		if results != "" && p.Validation != nil {
			fmt.Fprintf(notes, "validation results: %s\n", results)
		}
		if heldOutOut != "" {
			fmt.Fprintf(notes, "held-out sessions: %s (%s)\n", heldOutOut, nouns.Count(written[heldOutOut], "session"))
		}
		if trainingOut != "" {
			fmt.Fprintf(notes, "training sessions: %s (%s)\n", trainingOut, nouns.Count(written[trainingOut], "session"))
		}
		if failUncertain && len(p.UncertainReasons()) > 0 {
			msg := fmt.Sprintf("%d of %s %s uncertain", p.UncertainDecisions, nouns.Count(len(p.Tools), "decision"), nouns.Form(p.UncertainDecisions, "is", "are"))
			if p.ModeUncertain() {
				msg += ", and the mode (the catalog's size is within the budget's bounds)"
			}
			if g := p.VersionGap; g != nil {
				msg += fmt.Sprintf(", and no training session used the catalog version priced of %s (%s without a decision, %s that the sessions using it could not call)",
					nouns.Count(len(g.Servers), "server"), nouns.Count(len(g.Gone), "called tool"), nouns.Count(len(g.Added), "tool"))
			}
			if u := p.Unsettled; u != nil {
				msg += fmt.Sprintf(", and the decisions did not settle in %d passes (%s flipped)", u.Passes, nouns.Count(len(u.Flipped), "decision"))
			}
			return exitError{code: 1, msg: msg + " (--fail-on-uncertain)"}
		}
		return nil
	}
	fl := c.Flags()
	fl.StringSliceVar(&catalogs, "catalogs", nil, "catalog directories or files (default: the traces' own, else a --scenario's on disk; embedded:catalog, the embedded sample's, on purpose)")
	fl.StringVarP(&out, "out", "o", "", "write the strategy snippet to this file (- for stdout; default: after the text report)")
	fl.StringVar(&scenario, "scenario", "", "scenario whose model, params and baseline strategy are used (default: embedded default)")
	fl.StringVar(&model, "model", "", "model preset instead of the scenario's (default without --scenario: the traces' model when it is a preset)")
	fl.StringVar(&current, "current", "", "the strategy in use today (default: the scenario's baseline)")
	fl.StringVar(&base, "base", "", "strategy or preset giving the proposal its deferral mechanics (default: --current when it defers)")
	fl.Int64Var(&seed, "seed", 0, "seed of the train/test split (default: the scenario's)")
	fl.Float64Var(&testShare, "test-share", 0.3, "share of sessions held apart for validation")
	fl.Float64Var(&value, "usd-per-second", 0, "price first-reply time: keep a tool direct only if the seconds it saves, at this many dollars each, pay for its extra cost (0 = time alone decides); the budget and the always-defer-only decision then weigh dollars and seconds too (0 = dollars alone)")
	fl.Float64Var(&conf, "confidence", recommend.DefaultRules().Confidence, "one-sided confidence of the shares' Wilson bounds: a never-defer tool's before-reply share must exceed its break-even share at it, and a decision whose bounds straddle its threshold is marked uncertain")
	fl.Float64Var(&rare, "rare", recommend.DefaultRules().Rare, "call share at or below which a tool may be always-deferred")
	fl.Int64Var(&expensive, "expensive", 0, "schema tokens at or above which a tool may be always-deferred (0 = catalog 75th percentile)")
	fl.StringVar(&results, "results", "", "also write the validation's results.json here")
	fl.StringVar(&heldOutOut, "held-out", "", "also write the held-out sessions, which the validation replays, here as a trace (.gz: gzipped)")
	fl.StringVar(&trainingOut, "training", "", "also write the training sessions, which the rules learn from, here as a trace (.gz: gzipped)")
	fl.StringVar(&jsonOut, "json", "", "also write the proposal and its evidence as JSON here")
	cliout.Deprecate(c, "json", "use --format json (on stdout; add > FILE)")
	fl.IntVar(&bootstrap, "bootstrap", 0, "bootstrap resamples of the validation (0 = default)")
	fl.Var(&bootMem, "bootstrap-memory", bootstrapMemoryUsage+"; a larger --bootstrap is refused before the replay")
	fl.IntVar(&workers, "workers", 0, "sessions replayed in parallel (0 = one per core)")
	fl.BoolVar(&allowUnresolved, "allow-unresolved", false, fixedLimitUsage)
	fl.BoolVar(&failUncertain, "fail-on-uncertain", false, "exit 1 when a decision is uncertain (its share's --confidence bounds straddle its threshold), no session used the catalog version priced of a server, or the decisions did not settle; the outputs are written first")
	return c
}

// strategyOrPreset returns the scenario's strategy called name, else the
// preset; flag names the option in the error, which offers the name most
// likely meant among both (catalog.NearName).
func strategyOrPreset(sc *scenarios.Scenario, flag, name string) (sim.Strategy, error) {
	if st, ok := sc.Strategy(name); ok {
		return st, nil
	}
	if st, err := presets.Strategy(name); err == nil {
		return st, nil
	}
	names := presets.StrategyNames()
	for _, st := range sc.Strategies {
		names = append(names, st.Name)
	}
	return sim.Strategy{}, errors.New(catalog.NearName(name, names).WithHint(
		fmt.Sprintf("%s: %q is neither a strategy of scenario %s nor a preset (presets: %s)", flag, name, sc.Name, strings.Join(presets.StrategyNames(), ", "))))
}
