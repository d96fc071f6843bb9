package calibrate

import (
	"context"
	"fmt"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// Config is one calibration.
type Config struct {
	// Traces are the recorded sessions; Catalog the tools they used.
	Traces []string
	// Sessions, when set, reads the traces instead of opening Traces (the
	// CLI passes sources that can be read several times, FIFOs included).
	Sessions Source
	Catalog  *catalog.Catalog
	// Model and Params are the scenario's: the starting point, the values
	// kept where the data cannot decide, and the "before" of every error.
	Model  sim.Model
	Params sim.Params
	// FitShare of the sessions (by a seeded hash of their id) are fitted
	// on; the others are held out and judged on.
	FitShare float64
	Seed     int64
	// Split chooses the prompt-token split of the latency fit (SplitAuto
	// when empty); Loss the regression loss (Huber when empty).
	Split string
	Loss  Loss
}

// Result is a calibration's outcome. Overhead is nil when no request has
// recorded usage, Latency when none has a recorded duration; Problems say
// why.
type Result struct {
	Traces       []string     `json:"traces"`
	Model        string       `json:"model"`
	Tokenizer    string       `json:"tokenizer"`
	Seed         int64        `json:"seed"`
	FitShare     float64      `json:"fit_share"`
	Loss         Loss         `json:"loss"`
	Sessions     int          `json:"sessions"`
	FitSessions  int          `json:"fit_sessions"`
	Requests     int          `json:"requests"`
	WithUsage    int          `json:"requests_with_usage"`
	WithDuration int          `json:"requests_with_duration"`
	Skipped      Skipped      `json:"skipped,omitempty"`
	Overhead     *OverheadFit `json:"overhead,omitempty"`
	Latency      *LatencyFit  `json:"latency,omitempty"`
	Problems     []string     `json:"problems,omitempty"`
	Params       sim.Params   `json:"-"`
	// scenarioParams are the params before the fit.
	scenarioParams sim.Params
	ModelOut       sim.Model `json:"-"`
}

// Run fits the prompt overhead (when usage is recorded) and then the
// latency model (when durations are), on the fit sessions, and measures
// both on the held-out ones.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.FitShare <= 0 || cfg.FitShare >= 1 {
		return nil, fmt.Errorf("fit share %v: want a value in (0, 1)", cfg.FitShare)
	}
	if cfg.Loss == "" {
		cfg.Loss = Huber
	}
	switch cfg.Loss {
	case Huber, LAD, OLS:
	default:
		return nil, fmt.Errorf("loss %q: want huber, lad or ols", cfg.Loss)
	}
	if cfg.Split == "" {
		cfg.Split = SplitAuto
	}
	switch cfg.Split {
	case SplitAuto, SplitRecorded, SplitReplay:
	default:
		return nil, fmt.Errorf("split %q: want auto, recorded or replay", cfg.Split)
	}
	strat, err := presets.Strategy("eager")
	if err != nil {
		return nil, err
	}
	strat.Name = "recorded"
	setup := &Setup{Model: cfg.Model, Params: cfg.Params, Catalog: cfg.Catalog, Strategy: strat,
		Seed: cfg.Seed, FitShare: cfg.FitShare}
	src := cfg.Sessions
	if src == nil {
		src = Files(cfg.Traces)
	}
	res := &Result{Traces: cfg.Traces, Model: cfg.Model.Name, Tokenizer: cfg.Params.Tokenizer, Seed: cfg.Seed,
		FitShare: cfg.FitShare, Loss: cfg.Loss, Params: cfg.Params, ModelOut: cfg.Model, scenarioParams: cfg.Params}

	reqs, skipped, err := setup.collect(src, cfg.Params)
	if err != nil {
		return nil, err
	}
	res.Skipped = skipped
	sessions, fitSessions := map[string]bool{}, map[string]bool{}
	for i := range reqs {
		r := &reqs[i]
		sessions[r.Session] = true
		if r.Fit {
			fitSessions[r.Session] = true
		}
		if r.HasUsage {
			res.WithUsage++
		}
		if r.RecordedMs > 0 {
			res.WithDuration++
		}
	}
	res.Sessions, res.FitSessions, res.Requests = len(sessions), len(fitSessions), len(reqs)
	if res.FitSessions == 0 || res.FitSessions == res.Sessions {
		return nil, fmt.Errorf("the split put %d of %d sessions in the fit set: use more sessions or another --fit-on share", res.FitSessions, res.Sessions)
	}

	params := cfg.Params
	if res.WithUsage > 0 {
		ov, err := fitOverhead(reqs, cfg.Params, cfg.Loss)
		if err != nil {
			res.Problems = append(res.Problems, err.Error())
		} else {
			params = ov.Apply(cfg.Params)
			if ov.Before, err = setup.fidelity(ctx, src, cfg.Params); err != nil {
				return nil, err
			}
			if ov.After, err = setup.fidelity(ctx, src, params); err != nil {
				return nil, err
			}
			res.Overhead = ov
			// The latency fit uses the replay's split under the fitted overhead.
			if reqs, _, err = setup.collect(src, params); err != nil {
				return nil, err
			}
		}
	} else {
		res.Problems = append(res.Problems, "prompt overhead not fitted: no model request has recorded token usage")
	}
	res.Params = params
	if res.WithDuration > 0 {
		lf, err := fitLatency(reqs, cfg.Split, cfg.Model.Latency, cfg.Loss)
		if err != nil {
			res.Problems = append(res.Problems, err.Error())
		} else {
			res.Latency = lf
			res.ModelOut.Latency = lf.Latency
		}
	} else {
		res.Problems = append(res.Problems, "latency not fitted: no model request has a recorded duration")
	}
	if res.Overhead == nil && res.Latency == nil {
		return res, fmt.Errorf("nothing to calibrate: %v", res.Problems)
	}
	return res, nil
}
