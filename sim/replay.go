package sim

import "math/rand/v2"

// exposure of one tool in one request.
type exposure uint8

const (
	expDirect exposure = iota
	expWarm
	expCold
)

// block is one unit of a prompt: its content hash and tokens.
type block struct {
	h      uint64
	tokens int64
	schema bool
}

// replayer replays one session under one strategy at a time. A worker
// reuses one replayer for every session and strategy. Its state is kept in
// separate parts:
//
//   - st, the simulated session (state.go): what a replay from scratch
//     tracks, reset by every run (reference_test.go replays from it alone);
//   - pm, the previous prompt and what it was assembled from, so that the
//     next prompt is reassembled incrementally (prompt.go); its generation
//     counters say what changed;
//   - sess, what every strategy of the current session shares (session.go);
//   - memo, what is derived from tools and directories once for every
//     session (memo.go);
//   - buf, scratch space.
//
// Only st decides outcomes; the other parts only make them faster to
// compute.
type replayer struct {
	e *Engine

	// The run: strategy si (plan p, tool flags flags) of need n, into out.
	p     *plan
	s     *Strategy
	si    int
	flags []uint8
	n     *pneed
	out   *Outcome
	pcg   rand.PCG
	rng   *rand.Rand

	st   simState
	pm   promptMemo
	sess sessionMemo
	memo replayMemo
	buf  scratch

	// resolved memoises the session's call resolutions (step.go).
	resolved []resolvedCall

	fid     []FidelityPair
	outcome Outcome     // scratch outcome (run.go)
	need    needBuffers // the need of the session being replayed (run.go)
	pn      pneed       // and its compact form
}

// scratch holds buffers a replayer reuses; nothing in them outlives the
// call that fills them.
type scratch struct {
	tables []*serverTable // table sequences being built
	key    []byte         // server set keys
	got    []*Tool        // a keyword search's loads
	sel    []*Tool        // a select batch
	one    [1]*Tool
	cold   []*Tool  // a step's cold tools
	query  []byte   // a search query being built
	call   []byte   // a search call: {"query":...}
	text   []byte   // text being counted (countString)
	bits   []uint64 // a bitmap of tools[] positions (prompt.go)
	at     []*Tool  // the schema seen at a tools[] position (prompt.go)
	dir    dirScratch
	dirKey []byte // a directory memo key past 64 tables (prompt.go)
}

func newReplayer(e *Engine) *replayer {
	r := &replayer{}
	r.init(e)
	return r
}

// init (re)sets r to a new replayer's state. A replayer whose run
// panicked is re-initialised: its buffers and memos may be inconsistent.
func (r *replayer) init(e *Engine) {
	*r = replayer{e: e}
	r.st.init()
	r.pm.searchBlk = block{h: hashString("\x00tool_search"), tokens: e.params.SearchToolCount(), schema: true}
	r.rng = rand.New(&r.pcg)
	r.memo.userFn = r.userWords
}

// FidelityPair is one model request of the recorded strategy: what the
// trace recorded and what the replay computed.
type FidelityPair struct {
	Session       string  `json:"session"`
	Request       int     `json:"request"`
	RecordedInput int64   `json:"recorded_input"`
	SimInput      int64   `json:"sim_input"`
	RecordedMs    float64 `json:"recorded_ms"`
	SimMs         float64 `json:"sim_ms"`
	// SimCacheRead and SimCacheWrite are the replayed request's prompt
	// tokens read from and written to the cache (SimInput holds them).
	SimCacheRead  int64 `json:"sim_cache_read,omitempty"`
	SimCacheWrite int64 `json:"sim_cache_write,omitempty"`
	// RecordedCacheRead is the recorded usage's cache_read, -1 when the
	// usage records no cached token (none read, or a source without the
	// split: tau2's prompt_tokens) or there is no usage.
	RecordedCacheRead int64 `json:"recorded_cache_read"`
}

// run replays n under strategy si into out; with wantFid, its recorded
// requests make fidelity pairs (r.fid), unless n was recorded with
// deferral: its recorded usage is not an eager replay's to compare with.
func (r *replayer) run(n *pneed, si int, out *Outcome, wantFid bool) {
	e := r.e
	wantFid = wantFid && !n.deferred
	if !n.prepared {
		e.preparePacked(n, &r.buf.text)
	}
	r.p = e.plans[si]
	r.s = &e.strategies[si]
	r.si = si
	r.flags = e.flags[si]
	r.n = n
	r.out = out
	*out = Outcome{PerRequest: out.PerRequest[:0]}
	if r.sess.need != n {
		r.newSession(n)
		clear(r.resolved)
		r.resolved = r.resolved[:0]
	}
	// Common random numbers: every strategy of a session draws from the same
	// stream (seeded by the run seed and the session id, not the strategy),
	// so paired comparisons are not blurred by independent draws and
	// renaming a strategy does not change its results.
	r.pcg.Seed(uint64(e.seed), r.sess.seed)
	if r.st.cache == nil {
		r.st.cache = e.newCache()
		r.st.placer, _ = r.st.cache.(BreakpointPlacer)
	}
	r.st.reset(r.p, mix(r.sess.seed, 1))
	r.pm.resetMsgs() // the previous prompt's messages are another run's
	r.fid = r.fid[:0]
	r.pm.tver++
	r.useSet(r.sess.set)
	r.st.runFP = r.st.set.fp

	for i := range n.steps {
		st := &n.steps[i]
		switch st.kind {
		case StepUser:
			r.userStep(st, i)
		case StepCanned:
			r.appendMsg(st.textTok, false)
		case StepCatalogChange:
			c := &n.changes[st.aux]
			r.changeVersion(c.server, c.version)
		case StepModel:
			r.startOnce()
			r.modelStep(st, wantFid)
		}
	}
	r.finish()
}

// userStep is a user message: the user's pause, then the message.
func (r *replayer) userStep(st *pstep, i int) {
	s := &r.st
	if s.userSeen {
		if st.pause >= 0 {
			s.clock += st.pause
		} else {
			s.clock += r.e.params.UserThinkMs
		}
	} else {
		s.userSeen = true
		s.t0 = s.clock
	}
	r.startOnce()
	r.runStart()
	s.lastUser, s.userStep, s.userMsg = st.text, i, len(s.msgs)
	s.turnOpen = true
	r.appendMsg(st.textTok, false)
}

// startOnce starts the session (startSession) at its first user message
// or model step.
func (r *replayer) startOnce() {
	if !r.st.started {
		r.st.started = true
		r.startSession()
	}
}

// finish files the session's last metrics.
func (r *replayer) finish() {
	if !r.st.replied {
		r.recordFirstReply()
	}
	r.e.finish(&r.out.Values, r.st.clock, &r.st.layerMs)
}
