package sim

import (
	"context"
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
}

// RunResult is the outcome of a run: outcomes aligned by session, fidelity
// pairs, and counts of what was replayed and skipped.
type RunResult struct {
	Outcomes *Outcomes
	Fidelity []FidelityPair
	Counts   Counts
	// Failures lists sessions that could not be replayed (id: reason).
	Failures []string
}

type job struct {
	idx int
	s   *traces.Session
}

type jobResult struct {
	idx     int
	id      string
	values  [][NumMetrics]float64
	perReq  [][]RequestTokens
	fid     []FidelityPair
	removed int
	err     error
}

// Run replays every session of sessions under every strategy. Sessions are
// decoded once, spread over workers, and collected in input order, so the
// result does not depend on the number of workers.
func (e *Engine) Run(ctx context.Context, sessions iter.Seq2[*traces.Session, error], opt RunOptions) (*RunResult, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job, workers*2)
	results := make(chan jobResult, workers*2)
	var readErr error
	var read int64
	go func() {
		defer close(jobs)
		i := 0
		for s, err := range sessions {
			if err != nil {
				readErr = err
				return
			}
			read++
			select {
			case jobs <- job{idx: i, s: s}:
			case <-ctx.Done():
				return
			}
			i++
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newReplayer(e)
			for j := range jobs {
				res := e.replayOne(r, j)
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

	S := len(e.strategies)
	out := &RunResult{Outcomes: &Outcomes{Strategies: e.strategies, Values: make([][NumMetrics][]float64, S),
		ByRequestIndex: make([][]RequestIndexStat, S)}}
	for s := range out.Outcomes.ByRequestIndex {
		out.Outcomes.ByRequestIndex[s] = make([]RequestIndexStat, MaxRequestIndex)
	}
	pending := map[int]jobResult{}
	next := 0
	var done int64
	var firstErr error
	for res := range results {
		pending[res.idx] = res
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if r.err != nil {
				out.Counts.SessionsSkipped++
				out.Failures = append(out.Failures, fmt.Sprintf("session %s: %v", r.id, r.err))
				if opt.Strict && firstErr == nil {
					firstErr = fmt.Errorf("session %s: %w", r.id, r.err)
					cancel()
				}
				continue
			}
			e.collect(out, &r)
			done++
			if opt.Progress != nil {
				opt.Progress(done)
			}
		}
	}
	out.Counts.SessionsRead = read
	out.Counts.SessionsReplayed = done
	if firstErr != nil {
		return out, firstErr
	}
	if readErr != nil {
		return out, readErr
	}
	if err := ctx.Err(); err != nil && err != context.Canceled {
		return out, err
	}
	return out, nil
}

func (e *Engine) replayOne(r *replayer, j job) (res jobResult) {
	res = jobResult{idx: j.idx, id: j.s.ID}
	defer func() {
		if p := recover(); p != nil {
			res.err = fmt.Errorf("internal error (please report): %v\n%s", p, debug.Stack())
		}
	}()
	n := ExtractNeed(j.s)
	e.applyUpgrades(n, int64(j.idx))
	res.removed = n.Removed
	S := len(e.strategies)
	res.values = make([][NumMetrics]float64, S)
	res.perReq = make([][]RequestTokens, S)
	var oc Outcome
	for si := 0; si < S; si++ {
		r.run(n, si, &oc, si == e.fidelity)
		res.values[si] = oc.Values
		res.perReq[si] = append([]RequestTokens(nil), oc.PerRequest...)
		if si == e.fidelity {
			res.fid = append(res.fid, r.fid...)
		}
	}
	return res
}

// ReplayNeed replays one need under every strategy and returns the outcomes
// (for tests and tools that work on a single session).
func (e *Engine) ReplayNeed(n *Need) []Outcome {
	r := newReplayer(e)
	out := make([]Outcome, len(e.strategies))
	for si := range e.strategies {
		r.run(n, si, &out[si], si == e.fidelity)
		out[si].PerRequest = append([]RequestTokens(nil), out[si].PerRequest...)
	}
	return out
}

func (e *Engine) collect(out *RunResult, r *jobResult) {
	o := out.Outcomes
	o.SessionIDs = append(o.SessionIDs, r.id)
	for s := range r.values {
		for m := 0; m < NumMetrics; m++ {
			o.Values[s][m] = append(o.Values[s][m], r.values[s][m])
		}
		for k, rt := range r.perReq[s] {
			if k >= MaxRequestIndex {
				break
			}
			st := &o.ByRequestIndex[s][k]
			st.Sessions++
			st.Input += rt.Input
			st.CacheRead += rt.CacheRead
			if rt.Extra {
				st.Extra++
			}
		}
	}
	out.Fidelity = append(out.Fidelity, r.fid...)
	out.Counts.StepsRemoved += int64(r.removed)
}
