package sim

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
}

// Outcomes holds every session's outcome under every strategy of a run,
// aligned by session: Values[s][m][i] is metric m of session i under
// strategy s.
type Outcomes struct {
	Strategies []Strategy
	SessionIDs []string
	Values     [][NumMetrics][]float64
	// ByRequestIndex[s][k] aggregates request k (0-based) of every session
	// under strategy s, up to MaxRequestIndex.
	ByRequestIndex [][]RequestIndexStat
}

// MaxRequestIndex bounds the per-request-index aggregation.
const MaxRequestIndex = 64

// RequestIndexStat sums tokens over the sessions that had a k-th request.
type RequestIndexStat struct {
	Sessions  int64 `json:"sessions"`
	Input     int64 `json:"input"`
	CacheRead int64 `json:"cache_read"`
	Extra     int64 `json:"extra"`
}

// Series returns metric m of strategy s over sessions.
func (o *Outcomes) Series(s, m int) []float64 { return o.Values[s][m] }
