package report

import (
	"fmt"
	"math"

	"github.com/defersim/defersim/internal/stats"
	"github.com/defersim/defersim/internal/streamstats"
	"github.com/defersim/defersim/sim"
)

// fromSummary fills the statistics of sampled outcomes: distributions and
// paired comparisons from the streaming summary of every session, and the
// sample's own statistics, around which bootstrap intervals are built.
func (b *builder) fromSummary() error {
	sum := b.o.Summary
	S := len(b.o.Strategies)
	if sum.Baseline != b.base {
		return fmt.Errorf("build results: the run compared strategies with %q while streaming; the baseline cannot change to %q",
			b.o.Strategies[sum.Baseline].Name, b.o.Strategies[b.base].Name)
	}
	if sum.EqualTolerance != EqualTolerance {
		return fmt.Errorf("build results: the run used equal tolerance %g, the report %g", sum.EqualTolerance, EqualTolerance)
	}
	if len(sum.Series) != S || len(sum.Paired) != S {
		return fmt.Errorf("build results: summary of %d strategies for %d", len(sum.Series), S)
	}
	b.exact() // on the sample
	b.sampleSum, b.sampleDiff = b.sum, b.diff
	b.n = int(sum.Sessions)
	b.sum = make([][sim.NumMetrics]stats.Summary, S)
	b.diff = make([][sim.NumMetrics]diffSummary, S)
	for s := range S {
		for m := range sim.NumMetrics {
			ser := sum.Series[s][m]
			if ser == nil || ser.N != sum.Sessions {
				return fmt.Errorf("build results: summary of strategy %q metric %s is incomplete", b.o.Strategies[s].Name, sim.Metrics[m].Name)
			}
			if math.IsNaN(ser.Sum.Value()) || math.IsInf(ser.Sum.Value(), 0) {
				return fmt.Errorf("build results: strategy %q metric %s: a value is not finite", b.o.Strategies[s].Name, sim.Metrics[m].Name)
			}
			b.sum[s][m] = seriesSummary(ser)
			if s == b.base {
				continue
			}
			p := sum.Paired[s][m]
			if p == nil || p.Diff.N != sum.Sessions {
				return fmt.Errorf("build results: paired summary of strategy %q metric %s is incomplete", b.o.Strategies[s].Name, sim.Metrics[m].Name)
			}
			b.diff[s][m] = pairedSummary(p)
		}
	}
	b.scale = 1
	if b.n > 0 {
		b.scale = math.Sqrt(float64(b.rs.M) / float64(b.n))
	}
	return nil
}

// seriesSummary describes a streamed series as stats.Summarize describes a
// slice: exact count, sum, mean, standard deviation, min and max; sketched
// quantiles.
func seriesSummary(s *streamstats.Series) stats.Summary {
	if s.N == 0 {
		return stats.Summary{}
	}
	su := stats.Summary{
		Count: int(s.N), Mean: s.Mean(), StdDev: s.StdDev(), Sum: s.Sum.Value(),
		Min: s.Min, Max: s.Max,
		P50: s.Quantile(0.50), P90: s.Quantile(0.90), P95: s.Quantile(0.95), P99: s.Quantile(0.99),
		Grid:     make([]float64, QuantileGridPoints),
		Constant: s.Min == s.Max,
	}
	for i := range su.Grid {
		su.Grid[i] = s.Quantile(float64(i) / float64(QuantileGridPoints-1))
	}
	return su
}

// pairedSummary describes streamed differences as pairedDiff does.
func pairedSummary(p *streamstats.Paired) diffSummary {
	n := float64(p.Diff.N)
	if n == 0 {
		return diffSummary{constant: true}
	}
	return diffSummary{
		mean:     p.MeanDiff(),
		median:   p.Diff.Quantile(0.5),
		constant: p.Diff.Min == p.Diff.Max,
		better:   float64(p.Better) / n,
		worse:    float64(p.Worse) / n,
		equal:    float64(p.Equal) / n,
	}
}

// streamingInfo describes how sampled outcomes were summarised.
func streamingInfo(o *sim.Outcomes) *StreamingInfo {
	return &StreamingInfo{
		SampleSessions:   len(o.SessionIDs),
		QuantileSketch:   "DDSketch (github.com/DataDog/sketches-go; logarithmic mapping, unbounded dense stores)",
		RelativeAccuracy: o.Summary.RelativeAccuracy,
		Exact: []string{"count", "sum", "mean", "stddev", "min", "max", "mean_diff", "ratio",
			"better", "worse", "equal", "cache_hit_by_request"},
	}
}
