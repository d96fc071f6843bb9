package calibrate

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// Config is one calibration.
type Config struct {
	Data
	// Catalog holds the tools the sessions used.
	Catalog *catalog.Catalog
	// Model and Params are the starting point: the values kept where the
	// data cannot decide, and the "before" of every error. With
	// UseRecorded, sessions whose recorded model resolves to a preset
	// start from that preset instead (params stay Params).
	Model       sim.Model
	Params      sim.Params
	UseRecorded bool
	// ModelFrom says where Model comes from ("--model"; default "scenario").
	ModelFrom string
	// ModelPreset names the preset Model was built from ("" for an inline
	// model): a scenario model renamed from a preset ({preset:
	// claude-sonnet-4.5, name: mine}) keeps its preset's tokenizer, a
	// stand-in or not.
	ModelPreset string
	// Split chooses the prompt-token split of the latency fit (SplitAuto
	// when empty); Residuals the latency fit's residual scale (Log
	// when empty); Loss the regression loss (Huber when empty).
	Split     string
	Residuals string
	Loss      Loss
	// Jitter writes the fitted jitter_cv into the calibrated latency (for
	// distributions); without it the written latency is deterministic.
	Jitter bool
	// NoKinds fits one overhead for every request instead of a term per
	// request kind (kind_ms), the formula before request kinds.
	NoKinds bool
	// AllowUnresolved calibrates a group even when more than
	// MaxUnresolved of its fit or held-out sessions' tool calls do not
	// resolve against Catalog (UnresolvedError): the fit then says what
	// absorbed them.
	AllowUnresolved bool
	// MaxUnresolved is the share of a group's fit or held-out sessions'
	// tool calls that may fail to resolve before it is refused (run's
	// --max-unresolved; nil: sim.DefaultMaxUnresolved).
	MaxUnresolved *float64
}

// maxUnresolved is the share of unresolved calls above which a group is
// refused.
func (cfg *Config) maxUnresolved() float64 {
	if cfg.MaxUnresolved != nil {
		return *cfg.MaxUnresolved
	}
	return sim.DefaultMaxUnresolved
}

// Result is a calibration's outcome: one ModelFit per model group of the
// sessions (sessions are grouped by the model they record).
type Result struct {
	Traces    []string `json:"traces"`
	Test      []string `json:"test,omitempty"`
	FitOn     string   `json:"fit_on"`
	Seed      int64    `json:"seed"`
	Loss      Loss     `json:"loss"`
	Residuals string   `json:"residuals"`
	Kinds     bool     `json:"request_kinds"`
	Tokenizer string   `json:"tokenizer"`
	// tokenScale is the starting params.token_scale.
	tokenScale float64
	Jitter     bool     `json:"jitter_written"`
	Warnings   []string `json:"warnings,omitempty"`
	// Inputs are the input problems of the traces and catalogs read (set
	// by the caller; nil when there are none). A written scenario's
	// header repeats them.
	Inputs *inputnotes.Notes `json:"input_notes,omitempty"`
	Models []*ModelFit       `json:"models"`
	fitOn  FitOn             `json:"-"`
	// testSessions counts the sessions of the test traces.
	testSessions int
	data         Data `json:"-"`
}

// ModelFit is the calibration of the sessions of one recorded model.
type ModelFit struct {
	// Recorded is the model the sessions record (its preset when it
	// resolves to one); Model the model calibrated from and how it was
	// chosen (ModelSource).
	Recorded    string `json:"recorded_model"`
	Model       string `json:"model"`
	ModelSource string `json:"model_source"`
	// TokenizerStandIn says that Model's tokenizer is not published, so
	// params.tokenizer stands in for it (presets.TokenizerStandInShort);
	// "" when the model counts with its own or is no preset.
	TokenizerStandIn string       `json:"tokenizer_stand_in,omitempty"`
	Sessions         int          `json:"sessions"`
	FitSessions      int          `json:"fit_sessions"`
	HeldSessions     int          `json:"held_out_sessions"`
	Requests         int          `json:"requests"`
	WithUsage        int          `json:"requests_with_usage"`
	WithDuration     int          `json:"requests_with_duration"`
	Skipped          Skipped      `json:"skipped,omitempty"`
	Overhead         *OverheadFit `json:"overhead,omitempty"`
	Latency          *LatencyFit  `json:"latency,omitempty"`
	HeldOut          *Evaluation  `json:"held_out_latency,omitempty"`
	Problems         []string     `json:"problems,omitempty"`
	// Warnings are what makes a written scenario's figures doubtful (a
	// fit that does worse on the held-out sessions than the starting
	// values); the text and the scenario's header repeat them.
	Warnings []string `json:"warnings,omitempty"`
	// latencyWhy says why the latency was not fitted (empty when it was,
	// or when nothing was calibrated).
	latencyWhy string
	// Resolution says how the held-out sessions' tool calls (those a
	// written scenario replays) resolve against the catalogs.
	Resolution *sim.Resolution `json:"held_out_resolution,omitempty"`
	// FitResolution is the same for the sessions fitted on, whose recorded
	// prompts the overhead is fitted to.
	FitResolution *sim.Resolution `json:"fit_resolution,omitempty"`
	// Params and ModelOut are the calibrated params and model (what a
	// written scenario carries); ScenarioParams the params before.
	Params         sim.Params `json:"-"`
	ModelOut       sim.Model  `json:"-"`
	ScenarioParams sim.Params `json:"-"`
	group          string
}

func (c *Config) check() error {
	if c.Loss == "" {
		c.Loss = Huber
	}
	switch c.Loss {
	case Huber, LAD, OLS:
	default:
		return fmt.Errorf("loss %q: want huber, lad or ols", c.Loss)
	}
	if c.Split == "" {
		c.Split = SplitAuto
	}
	switch c.Split {
	case SplitAuto, SplitRecorded, SplitReplay:
	default:
		return fmt.Errorf("split %q: want auto, recorded or replay", c.Split)
	}
	if c.Residuals == "" {
		c.Residuals = Log
	}
	if c.Residuals != Log && c.Residuals != Absolute {
		return fmt.Errorf("residuals %q: want log or absolute", c.Residuals)
	}
	if m := c.MaxUnresolved; m != nil {
		if err := sim.CheckMaxUnresolved(*m); err != nil {
			return fmt.Errorf("--max-unresolved: %w", err)
		}
	}
	return c.Data.Check()
}

// Check reports a selection that leaves nothing to fit on or to judge on.
func (d *Data) Check() error {
	if err := d.FitOn.validate(); err != nil {
		return err
	}
	if d.FitOn.Kind == FitAll && len(d.Test) == 0 {
		return fmt.Errorf("fitting on every session leaves none to judge on: pass --test TRACES, or --fit-on a share, even or odd")
	}
	return nil
}

// Run calibrates each model group of the sessions: the prompt overhead
// (when usage is recorded), then the latency model (when durations are),
// on the fit sessions, both judged on the held-out ones.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	groups, nTest, err := scanGroups(&cfg.Data)
	if err != nil {
		return nil, err
	}
	res := &Result{Traces: cfg.Traces, Test: cfg.Test, FitOn: cfg.FitOn.String(), Seed: cfg.Seed, Loss: cfg.Loss,
		Residuals: cfg.Residuals, Kinds: !cfg.NoKinds, Tokenizer: cfg.Params.Tokenizer, tokenScale: cfg.Params.TokenScale, Jitter: cfg.Jitter, fitOn: cfg.FitOn, data: cfg.Data}
	if len(cfg.Test) > 0 {
		res.testSessions = nTest
	}
	ok := 0
	var refused []string // groups whose tool calls do not resolve (UnresolvedError)
	var lastErr error
	var failed []string // the reasons of the groups that failed before lastErr's
	for _, g := range groups {
		m, preset, source, warn := cfg.modelFor(g)
		mf := &ModelFit{Recorded: g.name, Model: m.Name, ModelSource: source, group: g.key, TokenizerStandIn: standIn(preset, m.Name),
			Sessions: g.fit + g.held, FitSessions: g.fit, HeldSessions: g.held}
		for _, n := range g.deferred {
			mf.Sessions += n
		}
		res.Models = append(res.Models, mf)
		var err error
		switch {
		case g.requests > 0 && g.withUsage == 0 && g.withDuration == 0:
			err = nothingToCalibrate(&cfg, m, mf, g)
		case g.fit == 0 || g.held == 0:
			why := fmt.Sprintf("%s to fit on and %d to judge on (need at least one of each)", nouns.Count(g.fit, "session"), g.held)
			if sk := g.skippedText(); sk != "" {
				why = sk + "; that leaves " + why
			}
			if h := g.splitHint(cfg.FitOn, cfg.Seed, len(cfg.Test) > 0); h != "" {
				why += ": " + h
			}
			err = fmt.Errorf("not calibrated: %s", why)
		default:
			err = calibrateGroup(ctx, &cfg, m, mf)
		}
		if ue, isUnresolved := err.(*UnresolvedError); isUnresolved {
			mf.Problems = append(mf.Problems, err.Error())
			refused = append(refused, fmt.Sprintf("sessions of model %s: %s", recordedName(g.name), ue.Error()))
			continue
		}
		if err != nil {
			mf.Problems = append(mf.Problems, err.Error())
			if lastErr != nil {
				failed = append(failed, lastErr.Error())
			}
			lastErr = fmt.Errorf("sessions of model %s: %w", recordedName(g.name), err)
			continue
		}
		// A preset standing in for the recorded model is said only for
		// groups calibrated: the others get no scenario.
		if w := smallSampleNote(mf); w != "" {
			mf.Warnings = append(mf.Warnings, w)
		}
		if w := negativeFitNote(mf.Latency); w != "" {
			mf.Warnings = append(mf.Warnings, w)
		}
		if w := absorbedNote(&cfg, mf); w != "" {
			mf.Warnings = append(mf.Warnings, w)
		}
		if warn != "" {
			res.Warnings = append(res.Warnings, warn)
			mf.Warnings = append(mf.Warnings, standInNote(g.name, m, mf.Latency != nil))
		}
		if note := otherPresetNote(g.name, m, source, mf.Latency != nil); note != "" {
			res.Warnings = append(res.Warnings, note)
			mf.Warnings = append(mf.Warnings, note)
		}
		ok++
	}
	if len(refused) > 0 {
		return res, fmt.Errorf("not calibrated: %s", strings.Join(refused, "; "))
	}
	if ok == 0 {
		if lastErr == nil {
			lastErr = fmt.Errorf("no model group has sessions both to fit on and to judge on")
		}
		// Every group's reason; the last one wrapped (an interrupt's).
		prefix := ""
		if len(failed) > 0 {
			prefix = strings.Join(failed, "; ") + "; "
		}
		return res, fmt.Errorf("nothing calibrated: %s%w", prefix, lastErr)
	}
	return res, nil
}

// modelFor chooses the model a group is calibrated from, says how, and
// warns when the recorded model has no preset (otherPresetNote says when
// it is another preset than the one used).
func (c *Config) modelFor(g group) (m sim.Model, preset, source, warn string) {
	if c.UseRecorded && g.name != "" {
		if m, err := presets.Model(g.name); err == nil {
			return m, g.name, "recorded", ""
		}
		return c.Model, c.ModelPreset, "fallback", fmt.Sprintf("sessions record model %q, which has no preset: calibrating them from %s (pass --model to choose another)", g.name, describeModel(c.Model))
	}
	from := c.ModelFrom
	if from == "" {
		from = "scenario"
	}
	return c.Model, c.ModelPreset, from, ""
}

// standIn is presets.TokenizerStandInShort for a model built from preset
// and called name (presets.StandInFor, as the run line's): "" when the
// model counts with its own tokenizer or is no preset.
func standIn(preset, name string) string {
	return presets.StandInFor(preset, name, presets.TokenizerStandInShort)
}

// recordedName is a recorded model's name as calibrate prints it: quoted,
// or "(none recorded)" (the importer's words) when the sessions record none.
func recordedName(name string) string {
	if name == "" {
		return "(none recorded)"
	}
	return fmt.Sprintf("%q", name)
}

func describeModel(m sim.Model) string {
	if _, err := presets.Model(m.Name); err == nil {
		return "the " + m.Name + " preset"
	}
	if m.Name == "" {
		return "the scenario's inline model"
	}
	return "the scenario's model " + m.Name
}

// nothingToCalibrate fills in the counts and the held-out resolution of a
// group none of whose requests records usage or a duration, and says why
// it is not calibrated.
func nothingToCalibrate(cfg *Config, m sim.Model, mf *ModelFit, g group) error {
	setup, err := cfg.setup(m)
	if err != nil {
		return err
	}
	mf.Requests, mf.WithUsage, mf.WithDuration = g.requests, g.withUsage, g.withDuration
	if mf.Resolution, err = setup.resolution(cfg.source(mf.group, false), cfg.Params); err != nil {
		return err
	}
	return nothingToFit(g.requests)
}

// setup is the replay setup a group is calibrated with: model m under the
// recorded strategy (every schema sent).
func (c *Config) setup(m sim.Model) (*Setup, error) {
	strat, err := presets.Strategy("eager")
	if err != nil {
		return nil, err
	}
	strat.Name = "recorded"
	return &Setup{Model: m, Catalog: c.Catalog, Strategy: strat, Seed: c.Seed}, nil
}

// calibrateGroup fits and judges one model group.
func calibrateGroup(ctx context.Context, cfg *Config, m sim.Model, mf *ModelFit) error {
	setup, err := cfg.setup(m)
	if err != nil {
		return err
	}
	scale := mf.TokenizerStandIn != "" // fitted where the tokenizer is a stand-in
	setup.ScaleUnits = scale
	src := cfg.source(mf.group, false)
	mf.Params, mf.ScenarioParams, mf.ModelOut = cfg.Params, cfg.Params, m

	if mf.Resolution, err = setup.resolution(src, cfg.Params); err != nil {
		return err
	}
	if mf.FitResolution, err = setup.resolutionOf(src, cfg.Params, FitRole); err != nil {
		return err
	}
	if err := unresolvedRefusal(cfg, mf); err != nil {
		return err
	}
	reqs, sessions, skipped, err := setup.collect(src, cfg.Params)
	if err != nil {
		return err
	}
	if len(skipped) > 0 {
		mf.Skipped = skipped
	}
	mf.Requests = len(reqs)
	for i := range reqs {
		if reqs[i].HasUsage {
			mf.WithUsage++
		}
		if reqs[i].RecordedMs > 0 {
			mf.WithDuration++
		}
	}
	if mf.WithUsage == 0 && mf.WithDuration == 0 {
		return nothingToFit(mf.Requests)
	}
	params := cfg.Params
	if mf.WithUsage > 0 {
		replay := func(scales []float64) ([]map[reqKey]int64, error) { return setup.replayFitAt(src, cfg.Params, scales) }
		ov, err := fitOverhead(reqs, cfg.Params, cfg.Loss, scale, replay)
		if err != nil {
			mf.Problems = append(mf.Problems, err.Error())
		} else {
			params = ov.Apply(cfg.Params)
			if ov.Before, err = setup.fidelity(ctx, src, cfg.Params); err != nil {
				return err
			}
			if ov.After, err = setup.fidelity(ctx, src, params); err != nil {
				return err
			}
			mf.Overhead = ov
			if w := ov.worseNote(); w != "" {
				mf.Warnings = append(mf.Warnings, w)
			}
			ov.HeldOutKSBefore = promptKS(reqs)
			ov.HeldOutSessions = heldOutUsageSessions(reqs)
			// The latency fit uses the replay's split under the fitted overhead.
			setup.ScaleUnits = false
			if reqs, sessions, _, err = setup.collect(src, params); err != nil {
				return err
			}
			ov.HeldOutKS = promptKS(reqs)
		}
	} else {
		mf.Problems = append(mf.Problems, "prompt overhead not fitted: no model request has recorded token usage")
	}
	mf.Params = params
	if mf.WithDuration == 0 {
		mf.latencyWhy = "latency not fitted: no model request has a recorded duration: " + durationHint
		mf.Problems = append(mf.Problems, mf.latencyWhy)
		if mf.Overhead == nil {
			return fmt.Errorf("nothing to calibrate: %s", strings.Join(mf.Problems, "; "))
		}
		return nil
	}
	cachedUnread := sim.LatencyKeyUnread(m, "latency.cached_prefill_tps")
	lf, err := fitLatency(reqs, cfg.Split, cfg.Residuals, m.Latency, cfg.Loss, !cfg.NoKinds, cachedUnread)
	if err != nil {
		mf.Problems = append(mf.Problems, err.Error())
		if mf.Overhead == nil {
			return err
		}
		mf.latencyWhy = err.Error()
		return nil
	}
	mf.Latency = lf
	// Judge on the held-out sessions: deterministic, with the fitted jitter
	// (median-preserving, as --jitter writes it) and the scenario's latency.
	det, jit, before := m, m, m
	det.Latency = lf.Latency
	jit.Latency = withJitter(lf.Latency, lf.JitterCV, cachedUnread == "")
	if cfg.Jitter {
		lf.Latency = jit.Latency
	}
	mf.ModelOut.Latency = lf.Latency
	var fr firstReplySims
	for _, x := range []struct {
		m   sim.Model
		dst *map[string]float64
	}{{det, &fr.det}, {jit, &fr.jitter}, {before, &fr.before}} {
		if *x.dst, err = setup.firstReplies(src, x.m, params); err != nil {
			return err
		}
	}
	rows, _ := latencyRows(reqs, lf.Split)
	if cachedUnread != "" {
		withoutCacheReads(rows)
	}
	mf.HeldOut = evaluate(rows, sessions, det.Latency, m.Latency, lf.JitterCV, fr, cfg.Seed)
	mf.HeldOut.InSample = bestInSample(rows, lf.Kinds)
	if lf.Latency.JitterCV > 0 {
		// The written latency draws each request's time: its per-request
		// error is the replay's, not the deterministic prediction's.
		f, err := setup.fidelityOf(ctx, src, mf.ModelOut, params)
		if err != nil {
			return err
		}
		mf.HeldOut.Replayed = &ReplayedErrors{Requests: int(f.LatencyRequests), MedianAbsRel: f.LatencyMedianAbsRelErr, P90AbsRel: f.LatencyP90AbsRelErr}
	}
	return nil
}

// withJitter returns lat with jitter cv, its times scaled by √(1 + cv²) so
// that the engine's mean-one lognormal draws keep the fitted prediction as
// their median (the fit is on a log scale: it predicts medians). The
// cached prefill rate is scaled only when cached (the model reads it); else
// it keeps its value.
func withJitter(lat sim.Latency, cv float64, cached bool) sim.Latency {
	if cv <= 0 {
		return lat
	}
	c := math.Sqrt(1 + cv*cv)
	lat.OverheadMs = round(lat.OverheadMs*c, 0)
	for _, k := range sim.RequestKinds() {
		lat.Kinds.Set(k, round(lat.Kinds.Of(k)*c, 0))
	}
	lat.PrefillTPS = roundRate(lat.PrefillTPS / c)
	if cached {
		lat.CachedPrefillTPS = roundRate(lat.CachedPrefillTPS / c)
	}
	lat.DecodeTPS = round(lat.DecodeTPS/c, 1)
	lat.JitterCV = cv
	return lat
}
