package sim

import "fmt"

// A run can file its sessions under views instead of its engine's
// strategies: each view is a run of its own (its strategies, in its
// order and under its names, its baseline and summary options, its
// fidelity strategy) whose sessions were replayed with the engine's. A
// strategy's outcomes depend on nothing but the strategy and the session
// (every strategy of a session draws from the same random stream), so a
// view's state is the one a run of the view's strategies alone would
// have made: one replay of the traces serves runs that share every input
// but their strategies (a sweep over a strategy key).

// View is one run filed from a run of more strategies.
type View struct {
	// Strategies are the view's, in its order: Strategies[k] is the
	// engine's strategy Index[k] (under the view's name for it).
	Strategies []Strategy
	Index      []int
	// Fidelity is the engine strategy whose fidelity pairs the view keeps
	// (-1: none); the engine must keep them (Config.MoreFidelity).
	Fidelity int
	Summary  SummaryOptions
}

// collector files the sessions of a run, or of one of its views, into st.
type collector struct {
	st         *RunState
	strategies []Strategy
	view       *View
	// the session being filed, projected on the view's strategies
	values [][NumMetrics]float64
	perReq [][]RequestTokens
	over   []sessionOverflow
}

// viewCollectors checks opt's views against e and returns their
// collectors.
func (e *Engine) viewCollectors(opt RunOptions) ([]*collector, error) {
	if opt.Resume != nil || opt.Checkpoint != nil {
		return nil, fmt.Errorf("a run with views cannot resume or checkpoint")
	}
	var cols []*collector
	for vi := range opt.Views {
		v := &opt.Views[vi]
		if len(v.Index) != len(v.Strategies) || len(v.Index) == 0 {
			return nil, fmt.Errorf("view %d: %d strategies, %d indexes", vi, len(v.Strategies), len(v.Index))
		}
		for _, si := range v.Index {
			if si < 0 || si >= len(e.strategies) {
				return nil, fmt.Errorf("view %d: strategy index %d out of range", vi, si)
			}
		}
		if v.Fidelity >= len(e.strategies) || (v.Fidelity >= 0 && !e.keepsFidelity(v.Fidelity)) {
			return nil, fmt.Errorf("view %d: the engine keeps no fidelity pairs of strategy %d", vi, v.Fidelity)
		}
		st, err := NewRunState(v.Strategies, v.Summary)
		if err != nil {
			return nil, fmt.Errorf("view %d: %w", vi, err)
		}
		cols = append(cols, &collector{st: st, strategies: v.Strategies, view: v,
			values: make([][NumMetrics]float64, len(v.Index)), perReq: make([][]RequestTokens, len(v.Index)),
			over: make([]sessionOverflow, len(v.Index))})
	}
	return cols, nil
}

// add files r (a session replayed under every engine strategy).
func (c *collector) add(r *jobResult) {
	v := c.view
	if v == nil {
		c.st.add(r)
		return
	}
	for k, si := range v.Index {
		c.values[k], c.perReq[k], c.over[k] = r.values[si], r.perReq[si], r.over[si]
	}
	p := jobResult{seq: r.seq, idx: r.idx, id: r.id, values: c.values, perReq: c.perReq, over: c.over,
		removed: r.removed, resol: r.resol, versions: r.versions, epoch: r.epoch, applied: r.applied,
		pauses: r.pauses, pausesFromParams: r.pausesFromParams, calls: r.calls, callsUntimed: r.callsUntimed}
	if r.bufs != nil {
		p.fid = r.bufs.fidelity(v.Fidelity)
	}
	c.st.add(&p)
	clear(c.perReq) // add keeps nothing of them
}

// result is the collector's run result; read counts the sessions read.
func (c *collector) result(read int64) *RunResult {
	st := c.st
	out := &RunResult{Outcomes: st.Outcomes(c.strategies), Fidelity: st.Fidelity(), State: st,
		Failures: st.FailureMessages(), FailedSessions: st.FailedSessions()}
	out.Counts.SessionsRead = read
	out.Counts.SessionsReplayed = st.Replayed
	out.Counts.SessionsSkipped = st.Skipped
	out.Counts.StepsRemoved = st.StepsRemoved
	out.Counts.SessionsEpochDated = st.EpochDated
	out.Counts.UserPausesFromParams = st.UserPausesFromParams
	out.Resolution = st.Resolution
	return out
}
