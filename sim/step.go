package sim

// send simulates one model request producing output tokens, tool calls
// (calls) or only text; rec is the recorded step it replays (nil for an
// extra request).
func (r *replayer) send(extra bool, output int64, calls bool, rec *pstep, wantFid bool) {
	s := &r.st
	p, schemaTok := r.buildPrompt()
	read, write := s.cache.Request(s.clock, p)
	rt := request(&r.out.Values, p.Total(), read, write, output, schemaTok, extra, r.pm.mode)
	rt.Kind = requestKind(s.turnOpen, calls, rec != nil && rec.repeat)
	s.turnOpen = false
	dur := r.e.requestMs(rt, r.rng)
	s.clock += dur
	if extra {
		s.layerMs[layerSearch] += dur
	}
	r.out.PerRequest = append(r.out.PerRequest, rt)
	if wantFid && rec != nil && !extra && (rec.usage >= 0 || rec.dur > 0) {
		r.fid = append(r.fid, fidelityPair(r.n.id, len(r.out.PerRequest)-1, r.n.usageOf(rec), rec.dur, rt, dur))
	}
}

// modelStep replays one recorded model request: the loads its cold tools
// need, the request itself, then its tool calls, checked against the
// schemas the model sees and the server serves.
func (r *replayer) modelStep(st *pstep, wantFid bool) {
	e := r.e
	calls := st.calls(r.n)
	mode := r.deferredMode()
	// Which needed tools are cold?
	cold := r.buf.cold[:0]
	for i := range calls {
		ti := r.resolveAt(int(st.c0)+i, &calls[i])
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
	asst := e.packedAssistantTokens(r.n, st)
	r.send(false, outputTokens(r.n.usageOf(st), asst), len(calls) > 0, st, wantFid)
	if !r.st.replied && r.st.userSeen && (st.text != "" || st.textTok > 0) {
		r.st.replied = true
		r.recordFirstReply()
	}
	r.appendMsg(asst, false)
	mode = r.deferredMode()
	for i := range calls {
		c := &calls[i]
		ti := r.resolveAt(int(st.c0)+i, c)
		if ti != nil {
			exp, seen := r.state(ti, mode)
			switch exp {
			case expWarm:
				r.st.warm.touch(ti.ident)
				if seen.fp != ti.fp {
					r.out.Values[MStaleWarmCalls]++
					if c.unrecorded {
						r.out.Values[MCallsUnchecked]++ // nothing to check: not {}
					} else {
						classify(&r.out.Values, e.validate(seen, ti, c.args))
					}
				}
			case expCold:
				r.out.Values[MCallsWithoutSchema]++
			}
			r.ensureConnected(ti)
		}
		if (ti != nil && r.flags[ti.id]&flagDenied != 0) || (ti == nil && e.denied(c.server, c.tool)) {
			// Refused at execution: the request that made the call is
			// spent; the tool neither runs nor returns its result.
			r.out.Values[MDeniedCalls]++
			r.appendMsg(e.deniedTokens(), false)
			continue
		}
		if c.dur >= 0 {
			r.st.clock += c.dur
		} else {
			r.st.clock += e.params.DefaultToolMs
		}
		if c.resUnrecorded {
			r.out.Values[MCallsResultUnrecorded]++ // 0 tokens: not sized, not empty
		}
		r.appendMsg(c.resTok, false)
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
func (r *replayer) coldCalls(st *pstep, cold []*Tool) []*Tool {
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
		asst := e.packedAssistantTokens(r.n, st)
		r.send(true, outputTokens(r.n.usageOf(st), asst), true, nil, false)
		r.appendMsg(asst, false)
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

// resolvedCall is the tool a call of the session resolves to (nil: none)
// in the registry set.
type resolvedCall struct {
	set *serverSet
	ti  *Tool
}

// maxResolved bounds the memo of call resolutions: a session with more
// calls resolves them every time (a very long session must not grow the
// replayer's memory by its length).
const maxResolved = 1 << 15

// resolveAt is resolve for the call at index k of the need's calls,
// memoised for every strategy of the session: a call resolves in the
// registry alone, which changes only at the session's catalog changes,
// and those every strategy replays alike. r.resolved is emptied at every
// new session (run).
func (r *replayer) resolveAt(k int, c *pcall) *Tool {
	if len(r.n.calls) > maxResolved {
		return r.resolve(c)
	}
	if k >= len(r.resolved) {
		r.resolved = append(r.resolved, make([]resolvedCall, len(r.n.calls)-len(r.resolved))...)
	}
	rc := &r.resolved[k]
	if rc.set != r.st.set {
		*rc = resolvedCall{set: r.st.set, ti: r.resolve(c)}
	}
	return rc.ti
}
