package sim

// The collector's batches: RunState.add buffers sessions' values and
// flush files them a series at a time (see RunState's pend field).

// collectValues bounds the values add buffers (2 MiB): the batch holds
// up to collectValues / (strategies × NumMetrics) sessions, within
// [minCollectBatch, maxCollectBatch]. A large batch lets a series' sketch
// bins (kilobytes each, megabytes for all series: more than a core's
// cache) be loaded once for many values. The buffer holds
// minCollectBatch sessions until it first fills, so a small run does not
// allocate it whole.
const (
	collectValues   = 1 << 18
	minCollectBatch = 32
	maxCollectBatch = 1024
)

// collectBatch returns the largest number of sessions add buffers.
func (st *RunState) collectBatch() int {
	return min(max(collectValues/(len(st.Strategies)*NumMetrics), minCollectBatch), maxCollectBatch)
}

// scratch returns three columns of n values.
func (st *RunState) scratch(n int) (col, base, diffs []float64) {
	if len(st.cols) < 3*n {
		st.cols = make([]float64, 3*n)
	}
	return st.cols[:n], st.cols[n : 2*n], st.cols[2*n : 3*n]
}

// flush files every session's values not yet in Series and Paired: the
// buffered ones, then those waiting in the sample (lazy).
func (st *RunState) flush() {
	st.flushPend()
	st.fileLazy()
}

// Complete files the values of every session the state has added into
// Series and Paired. Every RunState method that reads them does it
// itself; code that reads or encodes the exported fields of a state made
// by a run with RunOptions.SummaryOnDemand must call it first.
func (st *RunState) Complete() { st.flush() }

// fileLazy files the values waiting in the sample (RunState.lazy) in the
// order they were added, through the same batches as add's.
func (st *RunState) fileLazy() {
	if len(st.lazy) == 0 {
		return
	}
	lazy := st.lazy
	st.lazy = nil
	st.flushPend() // empty while values wait: add files them before buffering
	W := len(st.Strategies) * NumMetrics
	if rows := min(len(lazy), st.collectBatch()); len(st.pend) < rows*W {
		st.pend = make([]float64, rows*W)
	}
	for _, v := range lazy {
		copy(st.pend[st.npend*W:(st.npend+1)*W], v)
		st.npend++
		if (st.npend+1)*W > len(st.pend) {
			st.flushPend()
		}
	}
	st.flushPend()
}

// flushPend files the buffered sessions' values into Series and Paired, a
// series at a time (each series sees its values in session order, so it
// ends up exactly as adding them one session at a time leaves it).
func (st *RunState) flushPend() {
	n := st.npend
	if n == 0 {
		return
	}
	st.npend = 0
	S := len(st.Strategies)
	W := S * NumMetrics
	b := st.Options.Baseline
	col, base, diffs := st.scratch(n)
	for m := range NumMetrics {
		for k := range n {
			base[k] = st.pend[k*W+b*NumMetrics+m]
		}
		st.Series[b][m].AddBatch(base)
		for s := range S {
			if s == b {
				continue
			}
			for k := range n {
				col[k] = st.pend[k*W+s*NumMetrics+m]
			}
			st.Series[s][m].AddBatch(col)
			st.Paired[s][m].AddBatch(col, base, diffs, st.Options.EqualTolerance, Metrics[m].LowerIsBetter)
		}
	}
}
