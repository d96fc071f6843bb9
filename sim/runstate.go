package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/defersim/defersim/internal/streamstats"
)

// Defaults callers may pass in SummaryOptions (the zero value keeps
// everything, as a small run wants).
const (
	// DefaultExactSessions is how many sessions keep their per-session
	// values when a caller bounds memory: about NumMetrics × 8 bytes per
	// session and strategy.
	DefaultExactSessions = 10000
	// DefaultFidelityPairs is how many fidelity pairs are kept when a
	// caller bounds memory.
	DefaultFidelityPairs = 200000
	// maxFailureMessages bounds the failure messages a run keeps (every
	// failure is counted).
	maxFailureMessages = 1000
	// runStateVersion is the version of RunState's encoding; a state of
	// another version cannot be resumed or merged.
	runStateVersion = 10 // 10: Resolution.VersionsReplayed
)

// SummaryOptions says how a run summarises its sessions.
type SummaryOptions struct {
	// ExactSessions bounds the sessions whose per-session values are kept:
	// beyond it, Outcomes hold a seeded uniform sample of that many sessions
	// and the distributions come from streaming statistics (exact counts,
	// sums, means, min, max; sketched quantiles). 0 or less keeps every
	// session.
	ExactSessions int
	// FidelityPairs bounds the fidelity pairs kept (beyond it the fidelity
	// summary is sketched). 0 or less keeps every pair.
	FidelityPairs int
	// RelativeAccuracy of the quantile sketches (0: streamstats default).
	RelativeAccuracy float64
	// Baseline is the index of the strategy paired comparisons are made
	// against (streamed for every session).
	Baseline int
	// EqualTolerance is the relative difference under which two values of a
	// pair count as equal.
	EqualTolerance float64
	// Seed of the sample's priorities.
	Seed int64
}

// SessionValues are one session's metric values under every strategy:
// Values[s*NumMetrics+m] is metric m under strategy s.
type SessionValues struct {
	ID     string
	Values []float64
}

// IndexedPair is a fidelity pair with the stream index of its session.
type IndexedPair struct {
	Index int64
	Pair  FidelityPair
}

// IndexedFailure is a failure message with the stream index and the id
// of its session.
type IndexedFailure struct {
	Index   int64
	Session string
	Msg     string
}

// RunState is everything a run has accumulated over the sessions it
// handled: it is what a checkpoint saves, what a resumed run continues and
// what shards merge. Every part merges exactly (sums are exact, sketches
// add bin counts, the sample is a bottom-k by seeded priority), so a merge
// of shards equals a single run over the same sessions.
type RunState struct {
	Version    int
	Strategies []string
	NumMetrics int
	Options    SummaryOptions
	// Next is the stream index of the first session not yet handled: every
	// session before it was replayed, failed, or left to another shard.
	Next int64
	// Replayed and Skipped (failed to replay) sessions; StepsRemoved summed.
	Replayed, Skipped, StepsRemoved int64
	// EpochDated counts the replayed sessions that an `at` upgrade placed
	// before it by a start in 1970 or earlier (applyUpgrades): times that
	// look like placeholders. Kept here so that shards, merges and resumes
	// count every such session once.
	EpochDated int64
	// UserPauses counts the replayed sessions' user messages after the
	// first (each follows a pause); UserPausesFromParams those of them
	// with no recorded pause, which took params.user_think_ms. Kept here
	// so that shards, merges and resumes count each once.
	UserPauses, UserPausesFromParams int64
	// ToolCalls counts the replayed sessions' tool calls; UntimedToolCalls
	// those with no recorded duration, whose time is
	// params.default_tool_ms under the strategies that run them.
	ToolCalls, UntimedToolCalls int64
	// Upgrades counts the sessions each scenario upgrade applied to (UpgradeReach).
	Upgrades []UpgradeReach
	// Resolution sums how the replayed sessions' inputs resolved.
	Resolution Resolution
	// Digests[s] sums, over sessions, a hash of the session (id and stream
	// index) and its metric values under strategy s: two strategies, or two
	// runs of one, with equal digests had identical outcomes on every
	// session (up to a 64-bit hash collision). Sums merge exactly.
	Digests  []uint64
	Failures []IndexedFailure
	// Series[s][m] and Paired[s][m] describe every replayed session
	// (Paired[baseline] is empty).
	Series [][]*streamstats.Series
	Paired [][]*streamstats.Paired
	// Sample holds the per-session values of up to ExactSessions sessions.
	Sample         *streamstats.Sample[SessionValues]
	ByRequestIndex [][]RequestIndexStat
	// Overflow[s] counts strategy s's requests over the model's context
	// window (ContextOverflow).
	Overflow []ContextOverflow
	// Fidelity: the pairs while there are at most FidelityPairs, and
	// streaming statistics of every pair.
	FidelityPairs    []IndexedPair
	FidelityOverflow bool
	FidelityInput    *streamstats.Series // |sim − rec| / rec of input tokens
	FidelityInputRel streamstats.Sum     // Σ (sim − rec) / rec
	FidelityLatency  *streamstats.Series // |sim − rec| / rec of duration

	// pend holds the metric values of the last npend sessions added, not
	// yet in Series and Paired (row k: strategy s's metric m at
	// s*NumMetrics+m): flush files them a series at a time, with each
	// series' state loaded once per batch instead of once per session.
	// Every method that reads Series or Paired flushes first, and so does
	// the run before a checkpoint and when it ends.
	pend  []float64
	npend int
	cols  []float64 // flush's scratch space: three columns
	// lazy holds, in the order they were added, the values of sessions
	// filed only in the sample (each the sample's own slice), not yet in
	// Series and Paired: with onDemand, while the sample keeps every
	// session, a session's values go to the sample alone and the series
	// are built from them when first read (fileLazy), in the same order.
	// A run whose sessions all fit in the sample and whose state is never
	// saved does not build them at all (RunOptions.SummaryOnDemand).
	lazy     [][]float64
	onDemand bool
}

// NewRunState returns the empty state of a run of strategies.
func NewRunState(strategies []Strategy, opt SummaryOptions) (*RunState, error) {
	S := len(strategies)
	if opt.Baseline < 0 || opt.Baseline >= S {
		return nil, fmt.Errorf("run state: baseline index %d out of range", opt.Baseline)
	}
	st := &RunState{Version: runStateVersion, NumMetrics: NumMetrics, Options: opt,
		Series: make([][]*streamstats.Series, S), Paired: make([][]*streamstats.Paired, S),
		Sample:         streamstats.NewSample[SessionValues](opt.ExactSessions),
		ByRequestIndex: make([][]RequestIndexStat, S), Digests: make([]uint64, S), Overflow: make([]ContextOverflow, S)}
	var err error
	for s := range strategies {
		st.Strategies = append(st.Strategies, strategies[s].Name)
		st.Series[s] = make([]*streamstats.Series, NumMetrics)
		st.ByRequestIndex[s] = make([]RequestIndexStat, MaxRequestIndex)
		if s != opt.Baseline {
			st.Paired[s] = make([]*streamstats.Paired, NumMetrics)
		}
		for m := range NumMetrics {
			if st.Series[s][m], err = streamstats.NewSeries(opt.RelativeAccuracy); err != nil {
				return nil, err
			}
			if s != opt.Baseline {
				if st.Paired[s][m], err = streamstats.NewPaired(opt.RelativeAccuracy); err != nil {
					return nil, err
				}
			}
		}
	}
	if st.FidelityInput, err = streamstats.NewSeries(opt.RelativeAccuracy); err != nil {
		return nil, err
	}
	if st.FidelityLatency, err = streamstats.NewSeries(opt.RelativeAccuracy); err != nil {
		return nil, err
	}
	return st, nil
}

// Check reports whether st can continue or merge with a run of strategies
// under opt.
func (st *RunState) Check(strategies []Strategy, opt SummaryOptions) error {
	if st.Version != runStateVersion {
		return fmt.Errorf("run state version %d, this defersim reads version %d", st.Version, runStateVersion)
	}
	if st.NumMetrics != NumMetrics {
		return fmt.Errorf("run state has %d metrics, this defersim has %d", st.NumMetrics, NumMetrics)
	}
	names := make([]string, len(strategies))
	for i, s := range strategies {
		names[i] = s.Name
	}
	if !slices.Equal(names, st.Strategies) {
		return fmt.Errorf("run state strategies %v differ from the run's %v", st.Strategies, names)
	}
	if st.Options != opt {
		return fmt.Errorf("run state summary options %+v differ from the run's %+v", st.Options, opt)
	}
	if opt.Baseline < 0 || opt.Baseline >= len(names) {
		return fmt.Errorf("run state baseline index %d out of range", opt.Baseline)
	}
	if st.Sample != nil && st.Sample.K != opt.ExactSessions {
		return fmt.Errorf("run state sample size %d, options say %d", st.Sample.K, opt.ExactSessions)
	}
	if len(st.Series) != len(names) || len(st.Paired) != len(names) || len(st.ByRequestIndex) != len(names) ||
		len(st.Digests) != len(names) || len(st.Overflow) != len(names) || st.Sample == nil ||
		st.FidelityInput == nil || st.FidelityLatency == nil {
		return fmt.Errorf("run state is incomplete")
	}
	for s := range names {
		wantPaired := NumMetrics
		if s == opt.Baseline {
			wantPaired = 0
		}
		if len(st.Series[s]) != NumMetrics || len(st.Paired[s]) != wantPaired || len(st.ByRequestIndex[s]) != MaxRequestIndex {
			return fmt.Errorf("run state is incomplete (strategy %s)", names[s])
		}
		for m := range NumMetrics {
			if st.Series[s][m] == nil || (wantPaired > 0 && st.Paired[s][m] == nil) {
				return fmt.Errorf("run state is incomplete (strategy %s, metric %d)", names[s], m)
			}
		}
	}
	for _, it := range st.Sample.Items {
		if len(it.Value.Values) != len(names)*NumMetrics {
			return fmt.Errorf("run state sample entry %d has %d values, want %d", it.Index, len(it.Value.Values), len(names)*NumMetrics)
		}
	}
	return nil
}

// add files one replayed session.
func (st *RunState) add(r *jobResult) {
	S := len(st.Strategies)
	opt := &st.Options
	key := mix(hashString(r.id), uint64(r.idx))
	W := S * NumMetrics
	pri := streamstats.Priority(uint64(opt.Seed), r.idx)
	var vals []float64
	if st.Sample.Wants(pri, r.idx) {
		vals = make([]float64, 0, W)
		for s := range S {
			vals = append(vals, r.values[s][:]...)
		}
	}
	// The sample keeps this session and drops none: its values can wait
	// there (lazy). Otherwise the waiting ones are filed first, in order.
	lazy := st.onDemand && st.npend == 0 && (st.Sample.K <= 0 || st.Sample.Len() < st.Sample.K)
	if lazy {
		st.lazy = append(st.lazy, vals)
	} else {
		st.fileLazy()
		if st.pend == nil {
			st.pend = make([]float64, min(minCollectBatch, st.collectBatch())*W)
		}
		row := st.pend[st.npend*W : (st.npend+1)*W]
		st.npend++
		for s := range S {
			copy(row[s*NumMetrics:], r.values[s][:])
		}
	}
	for s := range S {
		st.Digests[s] += outcomeDigest(key, &r.values[s])
		if s < len(r.over) {
			st.Overflow[s].add(r.over[s], r.idx, r.id)
		}
		step, last := 0, -1 // extra round trips precede the request of their step
		for k, rt := range r.perReq[s] {
			if k < MaxRequestIndex {
				is := &st.ByRequestIndex[s][k]
				is.Sessions++
				is.Input += rt.Input
				is.CacheRead += rt.CacheRead
				if rt.Extra {
					is.Extra++
				}
			}
			if step < MaxRequestIndex {
				ss := &st.ByRequestIndex[s][step]
				if step != last {
					ss.StepSessions++
					last = step
				}
				ss.StepRequests++
				ss.StepInput += rt.Input
				ss.StepCacheRead += rt.CacheRead
			}
			if !rt.Extra {
				step++
			}
		}
	}
	if vals != nil {
		st.Sample.Offer(pri, r.idx, SessionValues{ID: r.id, Values: vals})
	}
	for _, p := range r.fid {
		st.addFidelity(r.idx, p)
	}
	st.Replayed++
	st.StepsRemoved += int64(r.removed)
	if r.epoch {
		st.EpochDated++
	}
	st.UserPauses += int64(r.pauses)
	st.UserPausesFromParams += int64(r.pausesFromParams)
	st.ToolCalls += int64(r.calls)
	st.UntimedToolCalls += int64(r.callsUntimed)
	st.countUpgrades(r.applied)
	st.Resolution.Merge(&r.resol)
	st.Resolution.addVersionsReplayed(r.versions)
	if !lazy && (st.npend+1)*W > len(st.pend) {
		st.flushPend()
		if len(st.pend) < st.collectBatch()*W {
			st.pend = make([]float64, st.collectBatch()*W)
		}
	}
}

func (st *RunState) fail(idx int64, session, msg string) {
	st.Skipped++
	if len(st.Failures) < maxFailureMessages {
		st.Failures = append(st.Failures, IndexedFailure{Index: idx, Session: session, Msg: msg})
	}
}

// Merge adds o, the state of a run over other sessions of the same input
// (another shard), to st. Next becomes the larger of the two.
func (st *RunState) Merge(o *RunState) error {
	if o.Version != st.Version || o.NumMetrics != st.NumMetrics || !slices.Equal(o.Strategies, st.Strategies) || o.Options != st.Options {
		return fmt.Errorf("merge run states: different runs (strategies %v vs %v, options %+v vs %+v)",
			st.Strategies, o.Strategies, st.Options, o.Options)
	}
	if len(o.Overflow) != len(st.Overflow) {
		return fmt.Errorf("merge run states: %d context-overflow counts, want %d", len(o.Overflow), len(st.Overflow))
	}
	st.flush()
	o.flush()
	for s := range st.Series {
		st.Digests[s] += o.Digests[s]
		st.Overflow[s].merge(&o.Overflow[s])
		for m := range NumMetrics {
			if err := st.Series[s][m].Merge(o.Series[s][m]); err != nil {
				return err
			}
			if s != st.Options.Baseline {
				if err := st.Paired[s][m].Merge(o.Paired[s][m]); err != nil {
					return err
				}
			}
		}
		for k := range st.ByRequestIndex[s] {
			a, b := &st.ByRequestIndex[s][k], o.ByRequestIndex[s][k]
			a.Sessions += b.Sessions
			a.Input += b.Input
			a.CacheRead += b.CacheRead
			a.Extra += b.Extra
			a.StepSessions += b.StepSessions
			a.StepRequests += b.StepRequests
			a.StepInput += b.StepInput
			a.StepCacheRead += b.StepCacheRead
		}
	}
	st.Sample.Merge(o.Sample)
	st.Next = max(st.Next, o.Next)
	st.Replayed += o.Replayed
	st.Skipped += o.Skipped
	st.StepsRemoved += o.StepsRemoved
	st.EpochDated += o.EpochDated
	st.UserPauses += o.UserPauses
	st.UserPausesFromParams += o.UserPausesFromParams
	st.ToolCalls += o.ToolCalls
	st.UntimedToolCalls += o.UntimedToolCalls
	if err := st.mergeUpgrades(o.Upgrades); err != nil {
		return err
	}
	st.Resolution.Merge(&o.Resolution)
	st.Failures = append(st.Failures, o.Failures...)
	slices.SortStableFunc(st.Failures, func(a, b IndexedFailure) int { return cmpInt64(a.Index, b.Index) })
	st.Failures = st.Failures[:min(len(st.Failures), maxFailureMessages)]
	if err := st.FidelityInput.Merge(o.FidelityInput); err != nil {
		return err
	}
	if err := st.FidelityLatency.Merge(o.FidelityLatency); err != nil {
		return err
	}
	st.FidelityInputRel.Merge(&o.FidelityInputRel)
	st.FidelityOverflow = st.FidelityOverflow || o.FidelityOverflow
	if max := st.Options.FidelityPairs; !st.FidelityOverflow && max > 0 && len(st.FidelityPairs)+len(o.FidelityPairs) > max {
		st.FidelityOverflow = true
	}
	if st.FidelityOverflow {
		st.FidelityPairs = nil
	} else {
		st.FidelityPairs = append(st.FidelityPairs, o.FidelityPairs...)
		slices.SortStableFunc(st.FidelityPairs, func(a, b IndexedPair) int { return cmpInt64(a.Index, b.Index) })
	}
	return nil
}

// outcomeDigest hashes one session's values under one strategy with the
// session's key.
func outcomeDigest(key uint64, values *[NumMetrics]float64) uint64 {
	h := key
	for _, v := range values {
		h = mix(h, math.Float64bits(v))
	}
	return h
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Outcomes returns the outcomes of the sessions replayed so far, for
// strategies (the run's, in order): every session's values while there
// are at most ExactSessions of them, else the sample's, with the streaming
// summary of every session.
func (st *RunState) Outcomes(strategies []Strategy) *Outcomes {
	// A summary is read only when the sample does not hold every session
	// (Outcomes.Sampled): else the values still waiting in the sample
	// stay there, and the summary has no series (see RunState.lazy).
	unread := len(st.lazy) > 0 && int64(st.Sample.Len()) == st.Replayed
	if !unread {
		st.flush()
	}
	S := len(strategies)
	items := st.Sample.Sorted()
	o := &Outcomes{Strategies: strategies, Values: make([][NumMetrics][]float64, S),
		ByRequestIndex: make([][]RequestIndexStat, S), SessionIDs: make([]string, 0, len(items)),
		Digests: slices.Clone(st.Digests), Overflow: slices.Clone(st.Overflow)}
	for s := range S {
		o.ByRequestIndex[s] = slices.Clone(st.ByRequestIndex[s])
		for m := range NumMetrics {
			o.Values[s][m] = make([]float64, 0, len(items))
		}
	}
	for _, it := range items {
		o.SessionIDs = append(o.SessionIDs, it.Value.ID)
		for s := range S {
			for m := range NumMetrics {
				o.Values[s][m] = append(o.Values[s][m], it.Value.Values[s*NumMetrics+m])
			}
		}
	}
	sum := &OutcomeSummary{Sessions: st.Replayed, Baseline: st.Options.Baseline, EqualTolerance: st.Options.EqualTolerance,
		RelativeAccuracy: st.Series[0][0].RelativeAccuracy(), Series: make([][NumMetrics]*streamstats.Series, S),
		Paired: make([][NumMetrics]*streamstats.Paired, S)}
	if unread {
		sum.Series, sum.Paired = nil, nil
	}
	for s := range len(sum.Series) {
		copy(sum.Series[s][:], st.Series[s])
		copy(sum.Paired[s][:], st.Paired[s])
	}
	o.Summary = sum
	return o
}

// FailureMessages returns the kept failure messages in session order.
func (st *RunState) FailureMessages() []string {
	out := make([]string, len(st.Failures))
	for i, f := range st.Failures {
		out[i] = f.Msg
	}
	return out
}

// FailedSessions returns the ids of the kept failures' sessions, aligned
// with FailureMessages.
func (st *RunState) FailedSessions() []string {
	out := make([]string, len(st.Failures))
	for i, f := range st.Failures {
		out[i] = f.Session
	}
	return out
}

// AddSession files one session's values (values[s] under strategy s) as a
// run does for a replayed session; idx is its stream index. It lets tools
// and tests build states from outcomes computed elsewhere.
func (st *RunState) AddSession(idx int64, id string, values [][NumMetrics]float64) {
	st.add(&jobResult{idx: idx, id: id, values: values, perReq: make([][]RequestTokens, len(values))})
	st.flush()
	st.Next = max(st.Next, idx+1)
}
