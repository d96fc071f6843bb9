package sim

import "sync"

// resultBufs is the memory of one session's results (jobResult's values,
// per-request tokens and fidelity pairs). A session's results are garbage
// as soon as the collector has filed them (RunState.add copies what it
// keeps), so the collector hands the buffers back to the workers instead
// of every session allocating its own: at 8 strategies they were the
// largest allocation of the replay after decoding.
type resultBufs struct {
	values [][NumMetrics]float64
	perReq [][]RequestTokens // cut from reqs
	over   []sessionOverflow // by strategy
	reqs   []RequestTokens   // every strategy's requests, in order
	ends   []int             // ends[s]: end of strategy s's requests in reqs
	fid    []FidelityPair    // every fidelity strategy's pairs, in order
	// fidEnds[s]: end of strategy s's pairs in fid
	fidEnds []int
	applied []bool // by scenario upgrade: it applied to the session
	// versions: the server versions the session replayed (sessionVersions)
	versions []*serverTable
}

// fidelity returns strategy si's fidelity pairs (nil for si < 0).
func (b *resultBufs) fidelity(si int) []FidelityPair {
	if si < 0 {
		return nil
	}
	start := 0
	if si > 0 {
		start = b.fidEnds[si-1]
	}
	end := b.fidEnds[si]
	if start == end {
		return nil
	}
	return b.fid[start:end:end]
}

// size readies b for a session of S strategies and returns its values.
// Every value is overwritten by the replay; perReq is cleared so that a
// strategy without requests has none.
func (b *resultBufs) size(S int) [][NumMetrics]float64 {
	if cap(b.values) < S {
		b.values = make([][NumMetrics]float64, S)
		b.perReq = make([][]RequestTokens, S)
		b.over = make([]sessionOverflow, S)
		b.ends = make([]int, S)
		b.fidEnds = make([]int, S)
	}
	b.values, b.perReq, b.ends, b.fidEnds = b.values[:S], b.perReq[:S], b.ends[:S], b.fidEnds[:S]
	b.over = b.over[:S]
	clear(b.perReq)
	clear(b.over)
	b.fid = b.fid[:0]
	return b.values
}

// maxPooledRequests bounds the requests a recycled buffer keeps room for:
// one very long session must not pin its buffer for the rest of the run.
const maxPooledRequests = 8192

// resultPool is the free list of result buffers. A buffer is in flight
// from a worker's get until the collector files its session in order and
// puts it back; sessions that finish before an earlier, longer one wait
// in the collector with their buffers, so the number in flight follows
// how far the workers run ahead, not the number of workers. The list
// keeps every buffer put back (a bounded channel dropped those beyond
// 4·workers+2 after each such wait, and about a third of the benchmark's
// sessions then allocated new buffers): it never holds more than were in
// flight at once, memory the run already needed at that moment, and a
// buffer grown by a very long session is dropped (maxPooledRequests).
type resultPool struct {
	mu   sync.Mutex
	free []*resultBufs
}

func newResultPool() *resultPool { return &resultPool{} }

func (p *resultPool) get() *resultBufs {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
		return b
	}
	return &resultBufs{}
}

// put recycles b once nothing refers to its slices any more.
func (p *resultPool) put(b *resultBufs) {
	if b == nil || cap(b.reqs) > maxPooledRequests || cap(b.fid) > maxPooledRequests {
		return
	}
	clear(b.fid) // session ids: let the session's strings go
	p.mu.Lock()
	p.free = append(p.free, b)
	p.mu.Unlock()
}
