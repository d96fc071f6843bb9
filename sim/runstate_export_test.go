package sim

// AddSessionBuffered files one session as the run's collector does: its
// metric values wait in the state's batch until the batch is full or the
// state is read (AddSession flushes at once).
func (st *RunState) AddSessionBuffered(idx int64, id string, values [][NumMetrics]float64) {
	st.add(&jobResult{idx: idx, id: id, values: values, perReq: make([][]RequestTokens, len(values))})
	st.Next = max(st.Next, idx+1)
}

// Flush files the buffered sessions.
func (st *RunState) Flush() { st.flush() }

// Buffered returns the number of sessions waiting in the batch.
func (st *RunState) Buffered() int { return st.npend }

// AddSessionReference files one session's metric values the way add did
// before sessions were batched: every strategy and metric in turn, one
// Series.Add and one Paired.Add against the baseline per value. It files
// only the series and paired descriptions (the reference the batched
// collector is compared with).
func (st *RunState) AddSessionReference(values [][NumMetrics]float64) {
	opt := &st.Options
	base := values[opt.Baseline]
	for s := range values {
		for m := range NumMetrics {
			v := values[s][m]
			st.Series[s][m].Add(v)
			if s != opt.Baseline {
				st.Paired[s][m].Add(v, base[m], opt.EqualTolerance, Metrics[m].LowerIsBetter)
			}
		}
	}
}

// CollectBatch returns the number of sessions add buffers.
func (st *RunState) CollectBatch() int { return st.collectBatch() }

// MinCollectBatch is the number of sessions add's buffer starts with.
const MinCollectBatch = minCollectBatch

// SetOnDemand sets whether the state lets sessions' values wait in its
// sample (RunOptions.SummaryOnDemand).
func (st *RunState) SetOnDemand(on bool) { st.onDemand = on }

// Waiting returns the number of sessions whose values wait in the sample.
func (st *RunState) Waiting() int { return len(st.lazy) }
