package sim

import "github.com/defersim/defersim/traces"

// pneed is a need in the compact form the replayer reads: what Need holds
// that a replay uses, and nothing else (no request or call ids, statuses,
// line numbers, times, recorded queries), with every step's calls in one
// slice and usages by index. Every strategy of a session walks the same
// steps, so the smaller they are the fewer cache lines a replay touches.
type pneed struct {
	id        string
	sysText   string
	sysTokens int64
	servers   []traces.ServerRef
	steps     []pstep
	calls     []pcall // every step's calls: steps[i].calls() is calls[c0:c1]
	usages    []traces.Usage
	changes   []pchange
	// queryFor maps a tool name to the first recorded query that returned
	// it (Need.QueryFor).
	queryFor map[string]string
	// deferred says the session was recorded with deferral
	// (Need.RecordedStrategy): its requests make no fidelity pairs.
	deferred bool

	prepared bool // token counts filled by Engine.preparePacked
}

// pstep is one step of a pneed (Step's fields the replay reads).
type pstep struct {
	kind StepKind
	// pause is Step.PauseMs (user steps).
	pause float64
	// text is the user's message, or a model step's (or canned message's)
	// visible text ("" when none was recorded).
	text    string
	textTok int64
	// usage indexes pneed.usages (-1: none); aux indexes pneed.changes
	// for a catalog change.
	usage, aux int32
	// dur is Step.DurationMs (-1 when not recorded).
	dur float64
	// repeat is Step.Repeat (its calls are the previous model step's).
	repeat bool
	c0, c1 int32
}

// pcall is one tool call of a pstep (Call's fields the replay reads).
type pcall struct {
	tool, server string
	args         []byte // raw, validated only against a stale schema
	// unrecorded: the trace did not record args (Call.ArgsUnrecorded).
	unrecorded bool
	// resUnrecorded: the trace did not record the result (Call.ResultUnrecorded).
	resUnrecorded bool
	// result is the result text, kept only while its tokens are to be
	// counted (no result_tokens recorded).
	result   string
	dur      float64 // -1 when not recorded
	resBytes int64
	resTok   int64
	argTok   int64 // filled by preparePacked
	nameTok  int64 // filled by preparePacked
}

// pchange is a catalog change step: server moves to version.
type pchange struct{ server, version string }

func (s *pstep) calls(n *pneed) []pcall { return n.calls[s.c0:s.c1] }

// usageOf returns the usage a step recorded (nil when none).
func (n *pneed) usageOf(s *pstep) *traces.Usage {
	if s.usage < 0 {
		return nil
	}
	return &n.usages[s.usage]
}

// fill sets p to the compact form of n, reusing p's memory where it is
// small enough to be worth keeping (a very long session must not pin its
// memory for the rest of the run). It marks n's repeated steps first
// (markRepeats). p refers to n's strings, arguments and query map: n must
// not change while p is in use.
func (p *pneed) fill(n *Need) {
	markRepeats(n)
	p.reset(n, len(n.Steps), countCalls(n))
	for i := range n.Steps {
		p.add(&n.Steps[i])
	}
}

// reset empties p for the compact form of n, which has the given numbers
// of steps and calls.
func (p *pneed) reset(n *Need, nsteps, ncalls int) {
	steps, calls, usages, changes := p.steps, p.calls, p.usages, p.changes
	if cap(steps) > maxReusedSteps {
		steps = nil
	}
	if cap(calls) > maxReusedCalls {
		calls = nil
	}
	if cap(usages) > maxReusedSteps {
		usages = nil
	}
	clear(steps[:cap(steps)]) // let the previous session's strings go
	clear(calls[:cap(calls)])
	clear(changes)
	if cap(steps) < nsteps {
		steps = make([]pstep, 0, nsteps) // exactly: a long session's would grow by copies
	}
	if cap(calls) < ncalls {
		calls = make([]pcall, 0, ncalls)
	}
	*p = pneed{id: n.SessionID, sysText: n.SystemText, sysTokens: n.SystemTokens,
		servers: n.Servers, queryFor: n.QueryFor, prepared: n.prepared, deferred: traces.RecordedDeferred(n.RecordedStrategy),
		steps: steps[:0], calls: calls[:0], usages: usages[:0], changes: changes[:0]}
}

// add appends the compact form of step st (its Repeat marked).
func (p *pneed) add(st *Step) {
	ps := pstep{kind: st.Kind, pause: st.PauseMs, text: st.Text, textTok: st.TextTokens, usage: -1, aux: -1,
		dur: st.DurationMs, repeat: st.Repeat, c0: int32(len(p.calls))}
	if st.Usage != nil {
		ps.usage = int32(len(p.usages))
		p.usages = append(p.usages, *st.Usage)
	}
	if st.Kind == StepCatalogChange {
		ps.aux = int32(len(p.changes))
		p.changes = append(p.changes, pchange{st.Server, st.Version})
	}
	for j := range st.Calls {
		c := &st.Calls[j]
		p.calls = append(p.calls, pcall{tool: c.Tool, server: c.Server, args: c.Args, unrecorded: c.ArgsUnrecorded, resUnrecorded: c.ResultUnrecorded, result: c.Result,
			dur: c.DurationMs, resBytes: c.ResultBytes, resTok: c.ResultTokens, argTok: c.ArgTokens,
			nameTok: c.NameTokens})
	}
	ps.c1 = int32(len(p.calls))
	p.steps = append(p.steps, ps)
}

// countCalls returns the number of tool calls of n's steps.
func countCalls(n *Need) int {
	k := 0
	for i := range n.Steps {
		k += len(n.Steps[i].Calls)
	}
	return k
}

// compactNeed returns the compact form of a need.
func compactNeed(n *Need) *pneed {
	p := &pneed{}
	p.fill(n)
	return p
}
