package sim

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/defersim/defersim/traces"
)

// RunOptions controls a replay run.
type RunOptions struct {
	// Workers replaying sessions in parallel (0 = GOMAXPROCS).
	Workers int
	// Strict stops the run at the first session that fails to replay;
	// otherwise the session is skipped and counted.
	Strict bool
	// Progress, when set, is called after each replayed session with the
	// number replayed so far (from the collecting goroutine).
	Progress func(done int64)
	// Summary says how sessions are summarised (the zero value keeps every
	// session and fidelity pair; baseline is the first strategy).
	Summary SummaryOptions
	// Select, when set, says which sessions to replay, by stream index (the
	// session's position among all sessions the iterator yields, from 0)
	// and id; the others are read but left out (a shard of the run).
	Select func(idx int64, id string) bool
	// Resume, when set, continues that state (made by an earlier run with
	// the same inputs and options): sessions before Resume.Next are read but
	// not replayed again. The state is updated in place.
	Resume *RunState
	// Checkpoint, when set, is called from the collecting goroutine with the
	// state after every CheckpointEvery replayed sessions (and never
	// concurrently with changes to it). An error stops the run.
	Checkpoint      func(*RunState) error
	CheckpointEvery int
	// SummaryOnDemand lets the state build its streaming summary (the
	// Series and Paired of RunState) only when something reads it, while
	// the sample holds every session whole: a run whose sessions all fit
	// in Summary.ExactSessions, and whose state is neither checkpointed
	// nor merged, then never files them (Outcomes.Summary has no series:
	// the outcomes are exact). The caller must call State.Complete before
	// it reads or encodes the state's exported fields itself.
	SummaryOnDemand bool
	// Views, when set, file the sessions under the views' strategies
	// instead of the engine's (RunResult.Views, one per view; no Resume or
	// Checkpoint, and Summary is unused).
	Views []View
}

// RunResult is the outcome of a run: outcomes aligned by session, fidelity
// pairs, and counts of what was replayed and skipped.
type RunResult struct {
	Outcomes *Outcomes
	// Fidelity holds every fidelity pair in session order, unless the run
	// kept only a bounded number (then nil; see State.FidelitySummary).
	Fidelity []FidelityPair
	Counts   Counts
	// Failures lists sessions that could not be replayed (id: reason), in
	// session order, at most maxFailureMessages of them (Counts.SessionsSkipped
	// counts them all).
	Failures []string
	// FailedSessions are the ids of Failures' sessions, aligned with it
	// (a session's failures at several points are grouped by its id).
	FailedSessions []string
	// Resolution says how the replayed sessions' inputs resolved against
	// the catalogs (a copy of State.Resolution).
	Resolution Resolution
	// Views are the results of opt.Views, in order (the run's own fields
	// are then the first view's).
	Views []*RunResult
	// State is the accumulated state of the run (for checkpoints, resume and
	// shard merges). After an interruption it covers the sessions before
	// State.Next.
	State *RunState
}

type job struct {
	seq int64 // dispatch order
	idx int64 // stream index
	input
}

// input is one session to replay: a decoded session, or its need built
// as it was read.
type input struct {
	s *traces.Session
	b *NeedBuilder
}

func (in input) id() string {
	if in.b != nil {
		return in.b.ID()
	}
	return in.s.ID
}

type jobResult struct {
	seq     int64
	idx     int64
	id      string
	values  [][NumMetrics]float64
	perReq  [][]RequestTokens
	over    []sessionOverflow // over[s]: requests over the context window under strategy s
	fid     []FidelityPair
	removed int
	resol   Resolution // how the session's inputs resolved
	epoch   bool       // an `at` upgrade placed it by times that look like placeholders (applyUpgrades)
	applied []bool     // applied[i]: the scenario's upgrade i moved a server of the session (applyUpgradesReach)
	// versions are the server versions the session replayed (sessionVersions)
	versions []*serverTable
	// pauses counts the session's user messages after the first;
	// pausesFromParams those of them that took params.user_think_ms (no
	// recorded pause). calls counts its tool calls; callsUntimed those
	// with no recorded duration, whose time is params.default_tool_ms.
	pauses, pausesFromParams int
	calls, callsUntimed      int
	err                      error
	bufs                     *resultBufs // the memory values, perReq and fid live in (nil: not recycled)
}

// Run replays every session of sessions under every strategy. Sessions are
// decoded once, spread over workers, and collected in input order, so the
// result does not depend on the number of workers. When ctx is cancelled,
// Run stops dispatching, lets the sessions in flight finish, and returns
// the result so far with ctx's error: its State covers a prefix of the
// sessions and can be resumed.
func (e *Engine) Run(parent context.Context, sessions iter.Seq2[*traces.Session, error], opt RunOptions) (*RunResult, error) {
	return e.run(parent, func(yield func(input, error) bool) {
		for s, err := range sessions {
			if !yield(input{s: s}, err) {
				return
			}
		}
	}, opt)
}

// RunNeeds is Run over needs built as the sessions were read, each given
// by its NeedBuilder once the session's last event was added: no session
// is held as events, and each need's steps are let go as the replay's
// compact form of them is made. The builders must come from e.BuildNeeds
// and must not be used afterwards.
func (e *Engine) RunNeeds(parent context.Context, needs iter.Seq2[*NeedBuilder, error], opt RunOptions) (*RunResult, error) {
	return e.run(parent, func(yield func(input, error) bool) {
		for b, err := range needs {
			if !yield(input{b: b}, err) {
				return
			}
		}
	}, opt)
}

func (e *Engine) run(parent context.Context, sessions iter.Seq2[input, error], opt RunOptions) (*RunResult, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	state := opt.Resume
	var cols []*collector
	switch {
	case len(opt.Views) > 0:
		var err error
		if cols, err = e.viewCollectors(opt); err != nil {
			return nil, err
		}
		state = cols[0].st
	case state == nil:
		var err error
		if state, err = NewRunState(e.strategies, opt.Summary); err != nil {
			return nil, err
		}
	default:
		if err := state.Check(e.strategies, opt.Summary); err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
	}
	if cols == nil {
		cols = []*collector{{st: state, strategies: e.strategies}}
		state.onDemand = opt.SummaryOnDemand
	}
	for _, c := range cols {
		if err := e.initUpgradeReach(c.st); err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	jobs := make(chan job, workers*2)
	results := make(chan jobResult, workers*2)
	free := newResultPool()
	produced := make(chan struct{})
	var readErr error
	var read, dispatched int64
	finished := false // the iterator was read to its end
	resumeAt := state.Next
	go func() {
		defer close(produced)
		defer close(jobs)
		var idx, seq int64
		for s, err := range sessions {
			if err != nil {
				readErr = err
				return
			}
			read++
			i := idx
			idx++
			if ctx.Err() != nil {
				return
			}
			if i < resumeAt || (opt.Select != nil && !opt.Select(i, s.id())) {
				continue
			}
			select {
			case jobs <- job{seq: seq, idx: i, input: s}:
				seq++
				dispatched = seq
			case <-ctx.Done():
				return
			}
		}
		finished = true
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newReplayer(e)
			for j := range jobs {
				res := e.replayOne(r, j, free.get())
				select {
				case results <- res:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := map[int64]jobResult{}
	var next int64
	var firstErr error
	sinceCheckpoint := 0
	// stopped: the caller cancelled. Sessions already replayed but not yet
	// collected are dropped, not added: an interrupt ends the run at the
	// session it was asked at, whatever the workers had done ahead (the
	// checkpoint's Next says where a resume starts).
	stopped := false
	for res := range results {
		if firstErr != nil || stopped {
			continue // drain
		}
		pending[res.seq] = res
		for {
			if parent.Err() != nil {
				stopped = true
				break
			}
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			for _, c := range cols {
				c.st.Next = r.idx + 1
			}
			var dated *DatedUpgradeError
			if errors.As(r.err, &dated) && firstErr == nil { // the scenario's, not the session's: stops the run
				firstErr = r.err
				cancel()
				free.put(r.bufs)
				continue
			}
			if r.err != nil {
				for _, c := range cols {
					c.st.fail(r.idx, r.id, fmt.Sprintf("session %s: %v", r.id, r.err))
				}
				if opt.Strict && firstErr == nil {
					firstErr = fmt.Errorf("session %s: %w", r.id, r.err)
					cancel()
				}
				free.put(r.bufs)
				continue
			}
			for _, c := range cols {
				c.add(&r)
			}
			free.put(r.bufs) // add keeps nothing of r's slices
			if opt.Progress != nil {
				opt.Progress(state.Replayed)
			}
			sinceCheckpoint++
			if opt.Checkpoint != nil && opt.CheckpointEvery > 0 && sinceCheckpoint >= opt.CheckpointEvery && firstErr == nil {
				sinceCheckpoint = 0
				state.flush()
				if err := opt.Checkpoint(state); err != nil {
					firstErr = fmt.Errorf("checkpoint: %w", err)
					cancel()
				}
			}
		}
	}
	<-produced
	var interrupted error
	if finished && readErr == nil && next == dispatched {
		for _, c := range cols {
			c.st.Next = max(c.st.Next, read) // every session was handled
		}
	} else {
		interrupted = parent.Err()
	}
	var out *RunResult
	for i, c := range cols {
		res := c.result(read)
		if i == 0 {
			out = res
		}
		if len(opt.Views) > 0 {
			out.Views = append(out.Views, res)
		}
	}
	switch {
	case firstErr != nil:
		return out, firstErr
	case readErr != nil:
		return out, readErr
	case interrupted != nil:
		return out, interrupted
	}
	return out, nil
}

// replayOne replays one session under every strategy into b, which the
// result carries to the collector (and the collector back to a worker).
func (e *Engine) replayOne(r *replayer, j job, b *resultBufs) (res jobResult) {
	res = jobResult{seq: j.seq, idx: j.idx, id: j.id(), bufs: b}
	defer func() {
		if p := recover(); p != nil {
			res.err = fmt.Errorf("internal error (please report): %v\n%s", p, debug.Stack())
			r.init(e)
		}
	}()
	if res.err = e.resolveJob(r, j, b, &res); res.err != nil {
		return res
	}
	n := &r.pn
	S := len(e.strategies)
	res.values = b.size(S)
	oc := &r.outcome
	// Every strategy's requests are gathered in one buffer, then cut up.
	reqs := b.reqs[:0]
	// So are the fidelity strategies' pairs (fidEnds cuts them).
	fid := b.fid[:0]
	for si := 0; si < S; si++ {
		r.run(n, si, oc, e.keepsFidelity(si))
		res.values[si] = oc.Values
		b.over[si] = overflowOf(oc.PerRequest, e.model.ContextWindow)
		reqs = append(reqs, filedRequests(oc.PerRequest)...)
		b.ends[si] = len(reqs)
		if e.keepsFidelity(si) {
			fid = append(fid, r.fid...)
		}
		b.fidEnds[si] = len(fid)
	}
	res.pauses, res.pausesFromParams = userPauses(n)
	res.calls = len(n.calls)
	for i := range n.calls {
		if n.calls[i].dur < 0 {
			res.callsUntimed++
		}
	}
	r.endSession()
	b.fid = fid
	res.fid = b.fidelity(e.fidelity)
	b.reqs = reqs
	res.perReq = b.perReq
	res.over = b.over
	start := 0
	for si, end := range b.ends {
		if end > start {
			res.perReq[si] = reqs[start:end:end]
		}
		start = end
	}
	return res
}

// filedRequests returns the part of one strategy's per-request tokens that
// RunState.add files: the requests whose index or step is below
// MaxRequestIndex. A request's step is at most its index and grows with it,
// so that part is a prefix; a long session's other requests are not
// carried to the collector (they would cost 48 bytes a request and
// strategy).
func filedRequests(rs []RequestTokens) []RequestTokens {
	if len(rs) <= MaxRequestIndex {
		return rs
	}
	step := 0
	for k := range rs {
		if step >= MaxRequestIndex {
			return rs[:k]
		}
		if !rs[k].Extra {
			step++
		}
	}
	return rs
}

// ReplayNeed replays one need under every strategy and returns the outcomes
// (for tests and tools that work on a single session).
func (e *Engine) ReplayNeed(n *Need) []Outcome {
	r := newReplayer(e)
	out := make([]Outcome, len(e.strategies))
	pn := compactNeed(n)
	for si := range e.strategies {
		r.run(pn, si, &out[si], e.keepsFidelity(si))
		out[si].PerRequest = append([]RequestTokens(nil), out[si].PerRequest...)
	}
	return out
}

// userPauses counts the user messages of n after its first (each follows
// a pause), and those of them with no recorded pause, which take
// params.user_think_ms (replayer.userStep): the same under every strategy,
// so counted once per session, off the replay.
func userPauses(n *pneed) (pauses, fromParams int) {
	seen := false
	for i := range n.steps {
		st := &n.steps[i]
		if st.kind != StepUser {
			continue
		}
		if !seen {
			seen = true
			continue
		}
		pauses++
		if st.pause < 0 {
			fromParams++
		}
	}
	return pauses, fromParams
}
