package calibrate

import (
	"context"
	"fmt"
	"time"

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
	Role  Role
	// AfterUser: the request answers a user message (the first request of
	// a turn); otherwise it follows a tool result of the same turn.
	AfterUser bool
	// Kind is the request's kind as the replay classifies it (what it
	// answers, what it returns, whether it repeats the previous calls).
	Kind sim.RequestKind
	// Recorded usage (HasUsage false when the trace has none), time to
	// first token and duration (≤ 0 when not recorded).
	HasUsage   bool
	Usage      traces.Usage
	TTFTMs     float64
	RecordedMs float64
	// Sim0 is the replay's prompt tokens with every overhead at zero;
	// MsgUnits and ToolUnits are the prompt tokens one token of
	// message_overhead_tokens and tool_overhead_tokens add to it.
	Sim0      int64
	MsgUnits  int64
	ToolUnits int64
	// ScaleUnits is the part of Sim0 that params.token_scale scales (the
	// tokenizer's counts times the scale; not counts a trace records nor
	// sizes converted by bytes_per_token): what Sim0 gains when the scale
	// doubles. Set only when Setup.ScaleUnits asks for it (HasScaleUnits).
	ScaleUnits    int64
	HasScaleUnits bool
	// Split of the prompt under the params of the replay that collected
	// it: uncached (incl. cache write) and cache read, and the
	// output tokens the replay uses.
	SimUncached int64
	SimRead     int64
	SimOutput   int64
}

// Fit reports whether the request belongs to the fit set.
func (r *Request) Fit() bool { return r.Role == FitRole }

// RecordedInput is the recorded prompt size: uncached + cache read + write.
func (r *Request) RecordedInput() int64 {
	return r.Usage.Input + r.Usage.CacheRead + r.Usage.CacheWrite
}

// SessionRec is what a calibration keeps of one session.
type SessionRec struct {
	ID   string
	Role Role
	// FirstReplyMs is the recorded first reply: from the first user message
	// to the end of the first model request with text the user sees (-1
	// when the trace does not time it).
	FirstReplyMs float64
}

// Setup is what every replay of a calibration of one model shares.
type Setup struct {
	Model    sim.Model
	Catalog  *catalog.Catalog
	Strategy sim.Strategy // the recorded strategy (trigger never)
	Seed     int64
	// ScaleUnits makes collect replay once more, at twice the token
	// scale, to measure each request's Request.ScaleUnits (for the
	// token_scale fit of a model whose tokenizer is a stand-in).
	ScaleUnits bool
}

func (s *Setup) engine(m sim.Model, p sim.Params) (*sim.Engine, error) {
	return sim.NewEngine(sim.Config{Strategies: []sim.Strategy{s.Strategy}, Model: m, Params: p,
		Catalog: s.Catalog, Seed: s.Seed, FidelityStrategy: s.Strategy.Name})
}

func zeroOverheads(p sim.Params) sim.Params {
	p.MessageOverheadTokens, p.ToolOverheadTokens, p.RequestOverheadTokens = 0, 0, 0
	return p
}

// Skipped counts sessions left out of a calibration, by reason.
type Skipped map[string]int

// collect replays every fit or held-out session of src under the recorded
// strategy with the overheads at zero, at one token per message and at one
// token per tool, and with params (and, with s.ScaleUnits, with the
// overheads at zero at twice the token scale), and returns one Request per
// recorded model request and one SessionRec per session.
func (s *Setup) collect(src Source, params sim.Params) ([]Request, []SessionRec, Skipped, error) {
	p0 := zeroOverheads(params)
	pm, pt, p2 := p0, p0, p0
	pm.MessageOverheadTokens = 1
	pt.ToolOverheadTokens = 1
	p2.TokenScale *= 2
	ps := []sim.Params{p0, pm, pt, params}
	if s.ScaleUnits {
		ps = append(ps, p2)
	}
	engines := make([]*sim.Engine, len(ps))
	for i, p := range ps {
		e, err := s.engine(s.Model, p)
		if err != nil {
			return nil, nil, nil, err
		}
		engines[i] = e
	}
	skipped := Skipped{}
	var out []Request
	var sessions []SessionRec
	for it, err := range src() {
		if err != nil {
			return nil, nil, nil, err
		}
		sess := it.Session
		if it.Role == Unused {
			continue
		}
		if st := sess.Start(); st != nil && traces.RecordedDeferred(st.RecordedStrategy()) {
			skipped["recorded with deferral ("+st.RecordedStrategy()+")"]++
			continue
		}
		need := sim.ExtractNeed(sess)
		outs := make([]sim.Outcome, len(engines))
		for i, e := range engines {
			if i == 4 && it.Role != FitRole {
				// Only the fit rows' ScaleUnits are read (fitTokenScale).
				continue
			}
			outs[i] = e.ReplayNeed(need)[0]
		}
		var steps []*sim.Step
		var afterUser []bool
		prevUser := false
		for i := range need.Steps {
			switch need.Steps[i].Kind {
			case sim.StepModel:
				steps = append(steps, &need.Steps[i])
				afterUser = append(afterUser, prevUser)
				prevUser = false
			case sim.StepUser:
				prevUser = true
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
		sessions = append(sessions, SessionRec{ID: sess.ID, Role: it.Role, FirstReplyMs: recordedFirstReply(need)})
		for k, st := range steps {
			r := Request{Session: sess.ID, Index: k, Role: it.Role, AfterUser: afterUser[k], RecordedMs: st.DurationMs, TTFTMs: st.TTFTMs,
				Sim0:      outs[0].PerRequest[k].Input,
				MsgUnits:  outs[1].PerRequest[k].Input - outs[0].PerRequest[k].Input,
				ToolUnits: outs[2].PerRequest[k].Input - outs[0].PerRequest[k].Input}
			if st.Usage != nil {
				r.HasUsage, r.Usage = true, *st.Usage
			}
			r.Kind = outs[0].PerRequest[k].Kind
			full := outs[3].PerRequest[k]
			r.SimUncached = full.Uncached + full.CacheWrite
			r.SimRead = full.CacheRead
			r.SimOutput = full.Output
			if len(outs) > 4 && len(outs[4].PerRequest) == len(steps) {
				r.ScaleUnits, r.HasScaleUnits = outs[4].PerRequest[k].Input-outs[0].PerRequest[k].Input, true
			}
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, nil, skipped, fmt.Errorf("no recorded model request to calibrate on")
	}
	return out, sessions, skipped, nil
}

// Values of SessionRec.FirstReplyMs when no first reply is measured.
const (
	// firstReplyUntimed: the trace does not time it.
	firstReplyUntimed = -1
	// firstReplyContradicted: its times contradict each other (a request
	// timed before the user message it answers, or before an earlier
	// request of the turn ended): clocks of two machines, or rewritten
	// times. Measuring it would give a span that did not happen.
	firstReplyContradicted = -2
)

// timingSlack is how far a request may start before an earlier one's
// recorded end and still be taken as after it: durations are whole
// milliseconds, timestamps finer.
const timingSlack = time.Millisecond

// recordedFirstReply is the recorded time from the first user message to
// the end of the first model request that produced text, the span the
// engine reports as first_reply_ms (firstReplyUntimed when the trace does
// not time it, firstReplyContradicted when its times contradict).
func recordedFirstReply(n *sim.Need) float64 {
	var t0, end time.Time // the user message; the latest end of a request since
	for i := range n.Steps {
		st := &n.Steps[i]
		switch {
		case st.Kind == sim.StepUser && t0.IsZero():
			if st.T.IsZero() {
				return firstReplyUntimed
			}
			t0 = st.T
		case st.Kind == sim.StepModel && !t0.IsZero():
			if st.T.IsZero() || st.DurationMs <= 0 {
				if st.Text != "" || st.TextTokens > 0 {
					return firstReplyUntimed
				}
				continue
			}
			if st.T.Before(t0) || st.T.Add(timingSlack).Before(end) {
				return firstReplyContradicted
			}
			stEnd := st.T.Add(time.Duration(st.DurationMs * float64(time.Millisecond)))
			if st.Text != "" || st.TextTokens > 0 {
				return float64(st.T.Sub(t0))/float64(time.Millisecond) + st.DurationMs
			}
			if stEnd.After(end) {
				end = stEnd
			}
		}
	}
	return firstReplyUntimed
}

// heldOut yields the held-out sessions of src.
func heldOut(src Source) func(func(*traces.Session, error) bool) {
	return sessionsIn(src, HeldOut)
}

// sessionsIn yields the sessions of src in role, skipping those recorded
// under a deferral rule as the calibration does.
func sessionsIn(src Source, role Role) func(func(*traces.Session, error) bool) {
	return func(yield func(*traces.Session, error) bool) {
		for it, err := range src() {
			if err != nil {
				yield(nil, err)
				return
			}
			if it.Role != role {
				continue
			}
			if st := it.Session.Start(); st != nil && traces.RecordedDeferred(st.RecordedStrategy()) {
				continue // skipped by the calibration, as by collect
			}
			if !yield(it.Session, nil) {
				return
			}
		}
	}
}

// fidelity replays the held-out sessions with params through the engine's
// fidelity machinery and summarises simulated vs recorded prompt tokens.
func (s *Setup) fidelity(ctx context.Context, src Source, params sim.Params) (*sim.Fidelity, error) {
	return s.fidelityOf(ctx, src, s.Model, params)
}

// fidelityOf is fidelity with model m: what a run of the held-out sessions
// with m and params reports as run.fidelity.
func (s *Setup) fidelityOf(ctx context.Context, src Source, m sim.Model, params sim.Params) (*sim.Fidelity, error) {
	e, err := s.engine(m, params)
	if err != nil {
		return nil, err
	}
	res, err := e.Run(ctx, heldOut(src), sim.RunOptions{Workers: 1})
	if err != nil {
		return nil, err
	}
	return sim.SummarizeFidelity(s.Strategy.Name, res.Fidelity), nil
}

// resolution counts how the held-out sessions' tool calls resolve against
// the catalog (sim.Engine.Resolve).
func (s *Setup) resolution(src Source, params sim.Params) (*sim.Resolution, error) {
	return s.resolutionOf(src, params, HeldOut)
}

// resolutionOf counts how the tool calls of src's sessions in role
// resolve against the catalog.
func (s *Setup) resolutionOf(src Source, params sim.Params, role Role) (*sim.Resolution, error) {
	e, err := s.engine(s.Model, params)
	if err != nil {
		return nil, err
	}
	r := &sim.Resolution{}
	for sess, err := range sessionsIn(src, role) {
		if err != nil {
			return nil, err
		}
		e.Resolve(sess, r)
	}
	return r, nil
}

// firstReplies replays the held-out sessions with model and params and
// returns each session's simulated first reply without the server
// connection and tool listing the recording does not time, by session id.
func (s *Setup) firstReplies(src Source, m sim.Model, params sim.Params) (map[string]float64, error) {
	e, err := s.engine(m, params)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for sess, err := range heldOut(src) {
		if err != nil {
			return nil, err
		}
		v := e.ReplayNeed(sim.ExtractNeed(sess))[0].Values
		out[sess.ID] = v[sim.MFirstReplyMs] - v[sim.MFirstReplyConnectMs] - v[sim.MFirstReplyListMs]
	}
	return out, nil
}

// replayFitAt replays src's fit sessions under params with every overhead
// at zero at each of scales (params.token_scale), in one pass over src,
// and returns for each scale every fit request's prompt tokens by reqKey
// (the profile of the token_scale fit). The stand-in tokenizer's counts
// are memoised once for every scale.
func (s *Setup) replayFitAt(src Source, params sim.Params, scales []float64) ([]map[reqKey]int64, error) {
	p0 := zeroOverheads(params)
	p0.TokenScale = 1
	e1, err := s.engine(s.Model, p0)
	if err != nil {
		return nil, err
	}
	content := e1.ContentCounter()
	engines := make([]*sim.Engine, len(scales))
	out := make([]map[reqKey]int64, len(scales))
	for i, sc := range scales {
		p := p0
		p.TokenScale = sc
		e, err := sim.NewEngine(sim.Config{Strategies: []sim.Strategy{s.Strategy}, Model: s.Model, Params: p,
			Catalog: s.Catalog, Seed: s.Seed, FidelityStrategy: s.Strategy.Name, Content: content})
		if err != nil {
			return nil, err
		}
		engines[i], out[i] = e, map[reqKey]int64{}
	}
	for it, err := range src() {
		if err != nil {
			return nil, err
		}
		if it.Role != FitRole {
			continue
		}
		if st := it.Session.Start(); st != nil && traces.RecordedDeferred(st.RecordedStrategy()) {
			continue
		}
		need := sim.ExtractNeed(it.Session)
		for i, e := range engines {
			for k, pr := range e.ReplayNeed(need)[0].PerRequest {
				out[i][reqKey{it.Session.ID, k}] = pr.Input
			}
		}
	}
	return out, nil
}
