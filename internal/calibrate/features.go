package calibrate

import (
	"context"
	"fmt"
	"iter"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// Request is one recorded model request with what the replay computes for
// it under the recorded (eager) strategy.
type Request struct {
	Session string
	// Index is the request's position within its session (0-based).
	Index int
	Fit   bool
	// Recorded usage (HasUsage false when the trace has none) and duration
	// (RecordedMs ≤ 0 when not recorded).
	HasUsage   bool
	Usage      traces.Usage
	RecordedMs float64
	// Sim0 is the replay's prompt tokens with every overhead at zero;
	// MsgUnits and ToolUnits are the prompt tokens one token of
	// message_overhead_tokens and tool_overhead_tokens add to it.
	Sim0      int64
	MsgUnits  int64
	ToolUnits int64
	// Split of the prompt under the parameters in force (Params of the
	// Sampler): uncached (incl. cache write) and cache read, and the
	// output tokens the replay uses.
	SimUncached int64
	SimRead     int64
	SimOutput   int64
}

// RecordedInput is the recorded prompt size: uncached + cache read + write.
func (r *Request) RecordedInput() int64 {
	return r.Usage.Input + r.Usage.CacheRead + r.Usage.CacheWrite
}

// Source yields the sessions to calibrate on; it may be called more than
// once (each call reads them again).
type Source func() iter.Seq2[*traces.Session, error]

// Files returns a Source reading trace files in order.
func Files(paths []string) Source {
	return func() iter.Seq2[*traces.Session, error] {
		return func(yield func(*traces.Session, error) bool) {
			for _, p := range paths {
				r, err := traces.Open(p, traces.ReadOptions{})
				if err != nil {
					yield(nil, err)
					return
				}
				for s, err := range r.Sessions() {
					if !yield(s, err) || err != nil {
						r.Close()
						return
					}
				}
				r.Close()
			}
		}
	}
}

// Setup is what every replay of a calibration shares.
type Setup struct {
	Model    sim.Model
	Params   sim.Params
	Catalog  *catalog.Catalog
	Strategy sim.Strategy // the recorded strategy (trigger never)
	Seed     int64
	FitShare float64
}

func (s *Setup) engine(p sim.Params) (*sim.Engine, error) {
	return sim.NewEngine(sim.Config{Strategies: []sim.Strategy{s.Strategy}, Model: s.Model, Params: p,
		Catalog: s.Catalog, Seed: s.Seed, FidelityStrategy: s.Strategy.Name})
}

func zeroOverheads(p sim.Params) sim.Params {
	p.MessageOverheadTokens, p.ToolOverheadTokens, p.RequestOverheadTokens = 0, 0, 0
	return p
}

// Skipped counts sessions left out of a calibration, by reason.
type Skipped map[string]int

// collect replays every session under the recorded strategy with the
// overheads at zero, at one token per message and at one token per tool,
// and with params, and returns one Request per recorded model request.
func (s *Setup) collect(src Source, params sim.Params) ([]Request, Skipped, error) {
	p0 := zeroOverheads(params)
	pm, pt := p0, p0
	pm.MessageOverheadTokens = 1
	pt.ToolOverheadTokens = 1
	var engines [4]*sim.Engine
	for i, p := range []sim.Params{p0, pm, pt, params} {
		e, err := s.engine(p)
		if err != nil {
			return nil, nil, err
		}
		engines[i] = e
	}
	skipped := Skipped{}
	var out []Request
	for sess, err := range src() {
		if err != nil {
			return nil, nil, err
		}
		if st := sess.Start(); st != nil && st.RecordedStrategy != "" && st.RecordedStrategy != "eager" {
			skipped["recorded with deferral ("+st.RecordedStrategy+")"]++
			continue
		}
		need := sim.ExtractNeed(sess)
		var outs [4]sim.Outcome
		for i, e := range engines {
			outs[i] = e.ReplayNeed(need)[0]
		}
		var steps []*sim.Step
		for i := range need.Steps {
			if need.Steps[i].Kind == sim.StepModel {
				steps = append(steps, &need.Steps[i])
			}
		}
		if len(steps) == 0 {
			skipped["no model request"]++
			continue
		}
		if len(outs[0].PerRequest) != len(steps) {
			skipped["replay requests do not match recorded ones"]++
			continue
		}
		fit := InFitSet(s.Seed, sess.ID, s.FitShare)
		for k, st := range steps {
			r := Request{Session: sess.ID, Index: k, Fit: fit, RecordedMs: st.DurationMs,
				Sim0:      outs[0].PerRequest[k].Input,
				MsgUnits:  outs[1].PerRequest[k].Input - outs[0].PerRequest[k].Input,
				ToolUnits: outs[2].PerRequest[k].Input - outs[0].PerRequest[k].Input}
			if st.Usage != nil {
				r.HasUsage, r.Usage = true, *st.Usage
			}
			full := outs[3].PerRequest[k]
			r.SimUncached = full.Uncached + full.CacheWrite
			r.SimRead = full.CacheRead
			r.SimOutput = full.Output
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, skipped, fmt.Errorf("no recorded model request to calibrate on")
	}
	return out, skipped, nil
}

// fidelity replays the held-out sessions with params through the engine's
// fidelity machinery and summarises simulated vs recorded prompt tokens.
func (s *Setup) fidelity(ctx context.Context, src Source, params sim.Params) (*sim.Fidelity, error) {
	e, err := s.engine(params)
	if err != nil {
		return nil, err
	}
	held := func(yield func(*traces.Session, error) bool) {
		for sess, err := range src() {
			if err != nil {
				yield(nil, err)
				return
			}
			if InFitSet(s.Seed, sess.ID, s.FitShare) {
				continue
			}
			if !yield(sess, nil) {
				return
			}
		}
	}
	res, err := e.Run(ctx, held, sim.RunOptions{Workers: 1})
	if err != nil {
		return nil, err
	}
	return sim.SummarizeFidelity(s.Strategy.Name, res.Fidelity), nil
}

// RecordedModel returns the model named by the first session_start of the
// traces that has one ("" when none does).
func RecordedModel(src Source) (string, error) {
	for s, err := range src() {
		if err != nil {
			return "", err
		}
		if st := s.Start(); st != nil && st.Model != "" {
			return st.Model, nil
		}
	}
	return "", nil
}
