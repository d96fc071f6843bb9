package report

import "github.com/defersim/defersim/sim"

// SchemaVersion is the version of the results.json format written by this
// package. ReadResults rejects any other version.
const SchemaVersion = 1

// Results is the content of results.json, schema v1. Field order is the
// order of the file; maps are written with sorted keys.
type Results struct {
	SchemaVersion int    `json:"schema_version"`
	Generator     string `json:"generator"`
	// GeneratorVersion and GoVersion name the build that wrote the file
	// (internal/version): the same build and inputs give the same bytes.
	GeneratorVersion string `json:"generator_version,omitempty"`
	GoVersion        string `json:"go_version,omitempty"`
	// Run describes the scenario, inputs, models and counts of the run.
	Run sim.RunInfo `json:"run"`
	// Statistics records how the statistics below were computed.
	Statistics StatisticsInfo `json:"statistics"`
	// Sessions is the number of sessions every strategy was replayed on.
	Sessions int `json:"sessions"`
	// SessionsWithoutModel counts the replayed sessions that record no
	// model (Run.RecordedModels' "" entry): the run priced and timed them
	// as Run.Model, which they do not name. Absent when 0, and in files
	// of earlier builds. Not in sim.RunInfo: state files (shard.bin,
	// checkpoints) hold RunInfo, and Build derives this from what they
	// hold.
	SessionsWithoutModel int64 `json:"sessions_without_model,omitempty"`
	// SmallSample is true when Sessions < Statistics.SmallSampleBelow.
	SmallSample bool `json:"small_sample"`
	// Prices used to split dollars by token kind, when known.
	Prices *Prices `json:"prices,omitempty"`
	// Metrics is the metric table, in index order.
	Metrics []sim.Metric `json:"metrics"`
	// Strategies in scenario order.
	Strategies []StrategyResult `json:"strategies"`
	// Coincident lists the groups of strategies whose outcomes were
	// identical on every session (absent when none; and in files of
	// earlier builds).
	Coincident []Coincidence `json:"coincident,omitempty"`
}

// StatisticsInfo says how the statistics were computed.
type StatisticsInfo struct {
	ConfidenceLevel float64 `json:"confidence_level"`
	// Bootstrap: resamples, seed, sessions drawn per resample, and method.
	BootstrapResamples int    `json:"bootstrap_resamples"`
	BootstrapSeed      int64  `json:"bootstrap_seed"`
	BootstrapSessions  int    `json:"bootstrap_sessions"`
	BootstrapMethod    string `json:"bootstrap_method"`
	// BootstrapMetrics lists the metrics that have confidence intervals.
	BootstrapMetrics []string `json:"bootstrap_metrics"`
	Percentile       string   `json:"percentile_definition"`
	StdDev           string   `json:"stddev_definition"`
	QuantileGrid     int      `json:"quantile_grid_points"`
	SmallSampleBelow int      `json:"small_sample_below"`
	EqualTolerance   float64  `json:"equal_relative_tolerance"`
	// Streaming, when present, says that the run had more sessions than it
	// kept per-session values for, and how its statistics were computed.
	Streaming *StreamingInfo `json:"streaming,omitempty"`
}

// StreamingInfo describes the statistics of a run summarised by streaming
// (docs/performance.md): exact counts, sums, means, standard deviations,
// min, max, better/worse/equal shares and mean differences; sketched
// quantiles; bootstrap intervals from a uniform sample.
type StreamingInfo struct {
	// SampleSessions is the size of the seeded uniform sample of sessions
	// the bootstrap draws from.
	SampleSessions int `json:"sample_sessions"`
	// QuantileSketch names the sketch; RelativeAccuracy is its α: every
	// quantile (p50…p99, the grid, the median difference) is within
	// relative error α of a value of the series at the quantile's rank.
	QuantileSketch   string  `json:"quantile_sketch"`
	RelativeAccuracy float64 `json:"relative_accuracy"`
	// Exact lists what is exact over every session.
	Exact []string `json:"exact"`
}

// Prices are list prices in USD per million tokens.
type Prices struct {
	Model      string  `json:"model,omitempty"`
	Input      float64 `json:"input_per_mtok"`
	CacheWrite float64 `json:"cache_write_per_mtok"`
	CacheRead  float64 `json:"cache_read_per_mtok"`
	Output     float64 `json:"output_per_mtok"`
}

// WriteSurchargeNote is what a price list adds after the cache-write
// price when it equals a non-zero input price, "" otherwise (a free model
// has nothing to say): a cache whose writes carry no surcharge (OpenAI's
// before GPT-5.6) bills written tokens as uncached input, and its bill
// shows no writes.
func (p Prices) WriteSurchargeNote() string {
	if p.Input > 0 && p.CacheWrite == p.Input {
		return " (the input price: no write surcharge)"
	}
	return ""
}

// StrategyResult holds one strategy's distributions and its paired
// comparison with the baseline.
type StrategyResult struct {
	Name     string `json:"name"`
	Baseline bool   `json:"baseline"`
	// Parameters is the strategy as replayed.
	Parameters sim.Strategy `json:"parameters"`
	// OutcomeDigest identifies the strategy's outcomes on every session
	// (sim.RunState.Digests, hex): two strategies, or two runs over the same
	// sessions, with the same digest had identical outcomes.
	OutcomeDigest string `json:"outcome_digest,omitempty"`
	// Metrics maps a metric name to its distribution over sessions.
	Metrics map[string]Distribution `json:"metrics"`
	// VsBaseline maps a metric name to the paired comparison with the
	// baseline; absent for the baseline itself.
	VsBaseline map[string]Comparison `json:"vs_baseline,omitempty"`
	// CacheHitByRequest is the cache hit ratio of the k-th model request of
	// a session, over the sessions that had one.
	CacheHitByRequest []RequestPoint `json:"cache_hit_by_request"`
	// CacheHitByStep is the cache hit ratio of the k-th model step of the
	// trace (its k-th recorded model request) over the requests that replay
	// it, the extra round trips deferral adds before it included: step k
	// is the same point of a session under every strategy. Absent in files
	// of earlier versions.
	CacheHitByStep []StepPoint `json:"cache_hit_by_step,omitempty"`
	// ContextOverflow counts the strategy's model requests whose input
	// exceeds the model's context window (sim.ContextOverflow): a provider
	// refuses them, so the figures above describe sessions that could not
	// have run as recorded. Absent when there is none, and in files of
	// earlier builds.
	ContextOverflow *sim.ContextOverflow `json:"context_overflow,omitempty"`
}

// Distribution describes one metric of one strategy over sessions.
type Distribution struct {
	Count  int     `json:"count"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	Sum    float64 `json:"sum"`
	Min    float64 `json:"min"`
	P50    float64 `json:"p50"`
	P90    float64 `json:"p90"`
	P95    float64 `json:"p95"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
	// Confidence intervals, when the metric was bootstrapped.
	MeanCI *Interval `json:"mean_ci,omitempty"`
	P50CI  *Interval `json:"p50_ci,omitempty"`
	P95CI  *Interval `json:"p95_ci,omitempty"`
	// Quantiles[i] is the i/100 quantile (101 values; empty when Count is 0).
	Quantiles []float64 `json:"quantiles"`
}

// Interval is a confidence interval.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Contains reports whether v lies in the interval.
func (iv *Interval) Contains(v float64) bool {
	return iv != nil && iv.Low <= v && v <= iv.High
}

// Comparison is a paired comparison of a strategy with the baseline over
// the same sessions; differences are strategy − baseline.
type Comparison struct {
	Sessions int `json:"sessions"`
	// Mean of the per-session differences (= difference of means).
	MeanDiff   float64   `json:"mean_diff"`
	MeanDiffCI *Interval `json:"mean_diff_ci,omitempty"`
	// Median of the per-session differences.
	MedianDiff   float64   `json:"median_diff"`
	MedianDiffCI *Interval `json:"median_diff_ci,omitempty"`
	// Differences of the p50 and p95 of the two distributions.
	P50Diff   float64   `json:"p50_diff"`
	P50DiffCI *Interval `json:"p50_diff_ci,omitempty"`
	P95Diff   float64   `json:"p95_diff"`
	P95DiffCI *Interval `json:"p95_diff_ci,omitempty"`
	// Ratio of means (strategy / baseline); absent when the baseline mean is 0.
	Ratio   *float64  `json:"ratio,omitempty"`
	RatioCI *Interval `json:"ratio_ci,omitempty"`
	// Shares of sessions where the strategy did better, worse or the same
	// (the metric's lower_is_better decides the direction).
	Better float64 `json:"better"`
	Worse  float64 `json:"worse"`
	Equal  float64 `json:"equal"`
	// Significant is true when MeanDiffCI exists and excludes 0.
	Significant bool `json:"significant"`
}

// RequestPoint aggregates the k-th model request of every session.
type RequestPoint struct {
	// Request is the 1-based position of the request within its session.
	Request         int     `json:"request"`
	Sessions        int64   `json:"sessions"`
	InputTokens     int64   `json:"input_tokens"`
	CacheReadTokens int64   `json:"cache_read_tokens"`
	HitRatio        float64 `json:"hit_ratio"`
	// ExtraShare is the share of those requests caused by deferral.
	ExtraShare float64 `json:"extra_share"`
}

// StepPoint aggregates the k-th model step of every session that has one.
type StepPoint struct {
	// Step is the 1-based position of the model step in the trace.
	Step     int   `json:"step"`
	Sessions int64 `json:"sessions"`
	// Requests replayed for the step (1 per session plus extra round trips).
	Requests        int64   `json:"requests"`
	InputTokens     int64   `json:"input_tokens"`
	CacheReadTokens int64   `json:"cache_read_tokens"`
	HitRatio        float64 `json:"hit_ratio"`
}

// Strategy returns the result of the strategy called name, or nil.
func (r *Results) Strategy(name string) *StrategyResult {
	for i := range r.Strategies {
		if r.Strategies[i].Name == name {
			return &r.Strategies[i]
		}
	}
	return nil
}

// Metric returns the metric called name from the results' metric table.
func (r *Results) Metric(name string) (sim.Metric, bool) {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return sim.Metric{}, false
}

// BaselineName returns the name of the baseline strategy.
func (r *Results) BaselineName() string {
	for _, s := range r.Strategies {
		if s.Baseline {
			return s.Name
		}
	}
	return r.Run.Baseline
}
