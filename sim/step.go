package sim

// send simulates one model request producing output tokens, tool calls
// (calls) or only text; rec is the recorded step it replays (nil for an
// extra request).
func (r *replayer) send(extra bool, output int64, calls bool, rec *Step, wantFid bool) {
	s := &r.st
	p, schemaTok := r.buildPrompt()
	read, write := s.cache.Request(s.clock, p)
	rt := request(&r.out.Values, p.Total(), read, write, output, schemaTok, extra, r.pm.mode)
	rt.Kind = requestKind(s.turnOpen, calls, rec != nil && rec.Repeat)
	s.turnOpen = false
	dur := r.e.requestMs(rt, r.rng)
	s.clock += dur
	if extra {
		s.layerMs[layerSearch] += dur
	}
	r.out.PerRequest = append(r.out.PerRequest, rt)
	if wantFid && rec != nil && !extra && (rec.Usage != nil || rec.DurationMs > 0) {
		r.fid = append(r.fid, fidelityPair(r.n.SessionID, len(r.out.PerRequest)-1, rec, rt.Input, dur))
	}
}

// modelStep replays one recorded model request: the loads its cold tools
// need, the request itself, then its tool calls, checked against the
// schemas the model sees and the server serves.
func (r *replayer) modelStep(st *Step, wantFid bool) {
	e := r.e
	mode := r.deferredMode()
	// Which needed tools are cold?
	cold := r.buf.cold[:0]
	for i := range st.Calls {
		ti := r.resolve(&st.Calls[i])
		if ti == nil {
			continue
		}
		if exp, _ := r.state(ti, mode); exp == expCold && !containsTool(cold, ti) {
			cold = append(cold, ti)
		}
	}
	r.buf.cold = cold
	cold = r.coldCalls(st, cold)
	if len(cold) > 0 {
		r.load(cold)
	}
	r.send(false, e.outputTokens(st), len(st.Calls) > 0, st, wantFid)
	if !r.st.replied && r.st.userSeen && (st.Text != "" || st.TextTokens > 0) {
		r.st.replied = true
		r.recordFirstReply()
	}
	r.appendMsg(e.assistantTokens(st), false)
	mode = r.deferredMode()
	for i := range st.Calls {
		c := &st.Calls[i]
		ti := r.resolve(c)
		if ti != nil {
			exp, seen := r.state(ti, mode)
			switch exp {
			case expWarm:
				r.st.warm.touch(ti.ident)
				if seen.fp != ti.fp {
					r.out.Values[MStaleWarmCalls]++
					classify(&r.out.Values, e.validate(seen, ti, c.Args))
				}
			case expCold:
				r.out.Values[MCallsWithoutSchema]++
			}
			r.ensureConnected(ti.server)
		}
		if (ti != nil && r.flags[ti.id]&flagDenied != 0) || (ti == nil && e.denied(c.Server, c.Tool)) {
			// Refused at execution: the request that made the call is
			// spent; the tool neither runs nor returns its result.
			r.out.Values[MDeniedCalls]++
			r.appendMsg(e.deniedTokens(), false)
			continue
		}
		r.st.clock += e.toolMs(c)
		r.appendMsg(e.resultTokens(c), false)
	}
	if r.p.disabled && len(r.st.transient) > 0 {
		r.st.transient = r.st.transient[:0]
		r.pm.tver++
	}
}

// coldCalls applies the cold-call assumption: with probability ColdCallProb
// the model calls a cold tool directly, guessing its schema from the
// directory. Under rejected: execute, a guess that is well formed (with
// probability ColdCallWellFormedProb) runs without a schema in view and
// needs no load. Any other guess is rejected: the request that made it is
// wasted (an extra round trip), the rejection is added to the conversation,
// and the tool is loaded as usual. It returns the tools still to load.
func (r *replayer) coldCalls(st *Step, cold []*Tool) []*Tool {
	e := r.e
	if e.params.ColdCallProb <= 0 || len(cold) == 0 {
		return cold
	}
	keep := cold[:0:0]
	rejected := 0
	for _, ti := range cold {
		if r.rng.Float64() >= e.params.ColdCallProb {
			keep = append(keep, ti)
			continue
		}
		if r.p.rejectExecute && r.rng.Float64() < e.params.ColdCallWellFormedProb {
			continue // executed without a schema in view: counted at the call
		}
		rejected++
		r.out.Values[MMalformedNoSchema]++
		keep = append(keep, ti)
	}
	if rejected > 0 {
		r.send(true, e.outputTokens(st), true, nil, false)
		r.appendMsg(e.assistantTokens(st), false)
		r.appendMsg(e.countText(rejectionText)*int64(rejected), false)
	}
	return keep
}

// rejectionText is what a runtime answers to a call of an unloaded tool
// (its token count is what the conversation grows by).
const rejectionText = "Tool not loaded: call tool_search first, then retry."

// recordFirstReply notes the first reply's time and how much of it each
// loading layer took.
func (r *replayer) recordFirstReply() {
	firstReply(&r.out.Values, r.st.clock, r.st.t0, &r.st.layerMs)
}
