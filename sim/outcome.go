package sim

import "github.com/defersim/defersim/internal/streamstats"

// Outcome is what one session cost under one strategy.
type Outcome struct {
	Values [NumMetrics]float64
	// PerRequest holds, for each model request in order, its prompt tokens
	// and cache-read tokens (for the hit-ratio-by-request-index view).
	PerRequest []RequestTokens
}

// RequestTokens is the token split of one simulated model request.
type RequestTokens struct {
	Input      int64 `json:"input"`
	Uncached   int64 `json:"uncached"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
	Output     int64 `json:"output"`
	// Extra is true for requests that exist only because of deferral.
	Extra bool `json:"extra,omitempty"`
	// Kind is the request's kind, as the latency model charged it.
	Kind RequestKind `json:"kind"`
}

// Outcomes holds the sessions' outcomes under every strategy of a run,
// aligned by session: Values[s][m][i] is metric m of session i under
// strategy s. They hold every session, unless Sampled: then they hold a
// seeded uniform sample of the sessions and Summary describes them all.
type Outcomes struct {
	Strategies []Strategy
	SessionIDs []string
	Values     [][NumMetrics][]float64
	// ByRequestIndex[s][k] aggregates request k (0-based) of every session
	// under strategy s, up to MaxRequestIndex.
	ByRequestIndex [][]RequestIndexStat
	// Summary, when not nil, describes every session of the run with
	// mergeable streaming statistics (see RunState).
	Summary *OutcomeSummary
	// Digests[s], when set, summarises every session's values under
	// strategy s (RunState.Digests): equal digests, identical outcomes.
	Digests []uint64
	// Overflow[s], when set, counts strategy s's requests over the
	// model's context window (RunState.Overflow).
	Overflow []ContextOverflow
}

// OutcomeSummary describes every session of a run: per strategy and metric,
// exact count, sum, mean, standard deviation, min and max and sketched
// quantiles (Series); per strategy and metric against the baseline, exact
// better/worse/equal counts and mean difference and sketched quantiles of
// the differences (Paired, nil for the baseline).
type OutcomeSummary struct {
	Sessions         int64
	Baseline         int
	EqualTolerance   float64
	RelativeAccuracy float64
	Series           [][NumMetrics]*streamstats.Series
	Paired           [][NumMetrics]*streamstats.Paired
}

// Sampled reports whether Values hold only a sample of the sessions.
func (o *Outcomes) Sampled() bool {
	return o.Summary != nil && int64(len(o.SessionIDs)) < o.Summary.Sessions
}

// MaxRequestIndex bounds the per-request-index aggregation.
const MaxRequestIndex = 64

// RequestIndexStat sums tokens over the sessions that had a k-th request,
// and (the Step fields) over the sessions that had a k-th model step: the
// k-th model request of the trace, replayed by one request plus the extra
// round trips deferral adds before it. Step k is the same point of a
// session under every strategy; request k is not.
type RequestIndexStat struct {
	Sessions  int64 `json:"sessions"`
	Input     int64 `json:"input"`
	CacheRead int64 `json:"cache_read"`
	Extra     int64 `json:"extra"`

	StepSessions  int64 `json:"step_sessions"`
	StepRequests  int64 `json:"step_requests"`
	StepInput     int64 `json:"step_input"`
	StepCacheRead int64 `json:"step_cache_read"`
}

// Series returns metric m of strategy s over sessions.
func (o *Outcomes) Series(s, m int) []float64 { return o.Values[s][m] }
