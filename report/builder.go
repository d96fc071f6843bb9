package report

import (
	"math"
	"slices"
	"strconv"

	mstats "github.com/montanaflynn/stats"

	"github.com/defersim/defersim/internal/stats"
	"github.com/defersim/defersim/sim"
)

// builder holds the intermediate state of Build.
type builder struct {
	o       *sim.Outcomes
	base, n int
	boot    []int // bootstrapped metric indices
	rs      stats.Resampling
	workers int

	sum  [][sim.NumMetrics]stats.Summary // [strategy][metric]
	diff [][sim.NumMetrics]diffSummary   // [strategy][metric], strategy != base
	reps [][]seriesReps                  // [strategy][bootstrapped metric]
	med  [][][]float64                   // [strategy][bootstrapped metric] median-difference replicates
	// rank and diffRank are the bootstrapped series and their differences
	// against the baseline ranked for the bootstrap ([strategy][bootstrapped
	// metric]); nil where the series is gathered and selected instead.
	rank, diffRank [][]*stats.Ranked
	// exactSum marks the bootstrapped series whose resample sums are exact
	// in any order ([strategy][bootstrapped metric]).
	exactSum [][]bool
	// seqSums are the ranked series whose resample sums must be added in
	// idx order, seqVals their values: resample sums them together.
	seqSums []seriesRef
	seqVals [][]float64

	// sampleSum and sampleDiff are the statistics of the sessions in
	// o.Values, which the bootstrap resamples: the same as sum and diff
	// unless the outcomes are sampled (build_sampled.go).
	sampleSum  [][sim.NumMetrics]stats.Summary
	sampleDiff [][sim.NumMetrics]diffSummary
	// scale turns the spread of resample statistics into intervals.
	scale float64
}

// diffSummary describes the per-session differences strategy − baseline.
type diffSummary struct {
	mean, median         float64
	constant             bool
	better, worse, equal float64
}

// seriesRef names a bootstrapped series: strategy s, bootstrapped metric kb.
type seriesRef struct{ s, kb int }

// seriesReps are the bootstrap replicates of one series' statistics.
type seriesReps struct{ mean, p50, p95 []float64 }

var bootQuantiles = []float64{0.50, 0.95}

// exact computes the full-sample statistics.
func (b *builder) exact() {
	S := len(b.o.Strategies)
	b.sum = make([][sim.NumMetrics]stats.Summary, S)
	parallel(S*sim.NumMetrics, b.workers, func(j int) {
		s, m := j/sim.NumMetrics, j%sim.NumMetrics
		b.sum[s][m] = stats.Summarize(b.o.Values[s][m], QuantileGridPoints)
	})
	b.sampleSum = b.sum
	b.diff = make([][sim.NumMetrics]diffSummary, S)
	parallel(S*sim.NumMetrics, b.workers, func(j int) {
		s, m := j/sim.NumMetrics, j%sim.NumMetrics
		if s != b.base {
			b.diff[s][m] = pairedDiff(b.o.Values[s][m], b.o.Values[b.base][m], sim.Metrics[m].LowerIsBetter)
		}
	})
	b.sampleDiff = b.diff
}

// pairedDiff summarises the differences a[i] − base[i].
func pairedDiff(a, base []float64, lowerIsBetter bool) diffSummary {
	n := len(a)
	if n == 0 {
		return diffSummary{constant: true}
	}
	d := make([]float64, n)
	var better, worse, equal int
	for i := range a {
		d[i] = a[i] - base[i]
		switch {
		case math.Abs(d[i]) <= EqualTolerance*math.Max(math.Abs(a[i]), math.Abs(base[i])):
			equal++
		case (d[i] < 0) == lowerIsBetter:
			better++
		default:
			worse++
		}
	}
	ds := diffSummary{
		better: float64(better) / float64(n),
		worse:  float64(worse) / float64(n),
		equal:  float64(equal) / float64(n),
	}
	ds.mean, _ = mstats.Mean(d)
	ds.constant = slices.Min(d) == slices.Max(d)
	var med [1]float64
	stats.SelectQuantiles(d, []float64{0.5}, med[:])
	ds.median = med[0]
	return ds
}

// bootstrap fills the replicates of every bootstrapped series. It stops
// early, leaving them incomplete, once b.rs.Context is cancelled: between
// allocations (each may take a while when Resamples is large), after
// ranking and between resamples.
func (b *builder) bootstrap() {
	R := b.rs.Resamples
	if R == 0 || len(b.boot) == 0 {
		return
	}
	S := len(b.o.Strategies)
	b.reps = make([][]seriesReps, S)
	b.med = make([][][]float64, S)
	for s := range S {
		b.reps[s] = make([]seriesReps, len(b.boot))
		b.med[s] = make([][]float64, len(b.boot))
		for kb := range b.boot {
			rep := &b.reps[s][kb]
			for _, a := range []*[]float64{&rep.mean, &rep.p50, &rep.p95} {
				if b.cancelled() {
					return
				}
				*a = make([]float64, R)
			}
			if s != b.base {
				b.med[s][kb] = make([]float64, R)
			}
		}
	}
	b.prepare(b.rs.N <= rankedMaxRatio*b.rs.M)
	if b.cancelled() {
		return
	}
	if b.rank != nil {
		b.rs.RunCounts(b.resample)
	} else {
		b.rs.Run(func(r int, idx []int32, scratch []float64) { b.resample(r, idx, nil, scratch) })
	}
}

// cancelled reports whether the bootstrap's context is cancelled.
func (b *builder) cancelled() bool {
	return b.rs.Context != nil && b.rs.Context.Err() != nil
}

// rankedMaxRatio is the largest N/M for which the bootstrap walks ranked
// units. The walk costs about half of N steps per series and resample,
// gathering and selecting a few times M with cache misses on large series:
// BenchmarkBootstrap with M = 5,000 measured the walk 1.8× cheaper at
// N/M = 8 and 1.5× at 16. Beyond, the ranked orders (4 bytes per session
// and series) would cost more memory than the walk saves time.
const rankedMaxRatio = 16

// prepare marks the bootstrapped series whose sums are exact and, with
// rank, ranks the units of every one that is not constant, and of its
// differences against the baseline.
func (b *builder) prepare(rank bool) {
	S, K := len(b.o.Strategies), len(b.boot)
	b.exactSum = make([][]bool, S)
	for s := range S {
		b.exactSum[s] = make([]bool, K)
	}
	if rank {
		b.rank = make([][]*stats.Ranked, S)
		b.diffRank = make([][]*stats.Ranked, S)
		for s := range S {
			b.rank[s] = make([]*stats.Ranked, K)
			b.diffRank[s] = make([]*stats.Ranked, K)
		}
	}
	base := b.o.Values[b.base]
	parallel(S*K, b.workers, func(j int) {
		s, kb := j/K, j%K
		m := b.boot[kb]
		v := b.o.Values[s][m]
		b.exactSum[s][kb] = stats.SumsExact(v, b.rs.M)
		if !rank {
			return
		}
		if !b.sampleSum[s][m].Constant {
			if r, ok := stats.NewRanked(v); ok {
				b.rank[s][kb] = &r
			}
		}
		if s != b.base && !b.sampleDiff[s][m].constant {
			if r, ok := stats.NewRankedDiff(v, base[m], make([]float64, len(v))); ok {
				b.diffRank[s][kb] = &r
			}
		}
	})
	if rank {
		b.listSeqSums()
	}
}

// listSeqSums lists the ranked series whose sums are not exact.
func (b *builder) listSeqSums() {
	b.seqSums, b.seqVals = nil, nil
	for s := range b.o.Strategies {
		for kb, m := range b.boot {
			if b.rank[s][kb] != nil && !b.exactSum[s][kb] {
				b.seqSums = append(b.seqSums, seriesRef{s, kb})
				b.seqVals = append(b.seqVals, b.o.Values[s][m])
			}
		}
	}
}

// resample computes every bootstrapped statistic on resample r: idx are
// the drawn units in ascending order, counts their multiplicities. Ranked
// series find their quantiles from counts; the others are gathered into
// scratch and selected. Both give the same bits (TestBootstrapMatchesGather).
func (b *builder) resample(r int, idx, counts []int32, scratch []float64) {
	m := len(idx)
	inv := 1 / float64(m)
	var q [2]float64
	base := b.o.Values[b.base]
	for s := range b.o.Strategies {
		for kb, mi := range b.boot {
			rep := &b.reps[s][kb]
			if su := &b.sampleSum[s][mi]; su.Constant {
				rep.mean[r], rep.p50[r], rep.p95[r] = su.Min, su.Min, su.Min
			} else {
				v := b.o.Values[s][mi]
				// The mean is summed in idx order (a different order
				// would change its last bits) unless every order gives
				// the same exact sum; the sums of ranked series in idx
				// order are done together at the end, four at a time.
				if rk := b.ranked(b.rank, s, kb); rk != nil {
					if b.exactSum[s][kb] {
						rep.mean[r] = stats.SumAt(v, idx) * inv
					} // else in seqSums below
					rk.Quantiles(counts, m, bootQuantiles, q[:])
				} else {
					total := 0.0
					for j, i := range idx {
						x := v[i]
						scratch[j] = x
						total += x
					}
					rep.mean[r] = total * inv
					stats.SelectQuantiles(scratch, bootQuantiles, q[:])
				}
				rep.p50[r], rep.p95[r] = q[0], q[1]
			}
			if s == b.base {
				continue
			}
			if ds := &b.sampleDiff[s][mi]; ds.constant {
				b.med[s][kb][r] = ds.median
			} else if rk := b.ranked(b.diffRank, s, kb); rk != nil {
				rk.Quantiles(counts, m, bootQuantiles[:1], q[:1])
				b.med[s][kb][r] = q[0]
			} else {
				v, bv := b.o.Values[s][mi], base[mi]
				for j, i := range idx {
					scratch[j] = v[i] - bv[i]
				}
				stats.SelectQuantiles(scratch, bootQuantiles[:1], q[:1])
				b.med[s][kb][r] = q[0]
			}
		}
	}
	if len(b.seqSums) > 0 {
		totals := make([]float64, len(b.seqSums))
		stats.SumsInOrder(b.seqVals, idx, totals)
		for j, ref := range b.seqSums {
			b.reps[ref.s][ref.kb].mean[r] = totals[j] * inv
		}
	}
}

// ranked returns rs[s][kb], or nil when the series was not ranked.
func (b *builder) ranked(rs [][]*stats.Ranked, s, kb int) *stats.Ranked {
	if rs == nil {
		return nil
	}
	return rs[s][kb]
}

// strategyResult assembles the results of strategy s.
func (b *builder) strategyResult(s int) StrategyResult {
	st := b.o.Strategies[s]
	sr := StrategyResult{
		Name:              st.Name,
		Baseline:          s == b.base,
		Parameters:        st,
		Metrics:           make(map[string]Distribution, sim.NumMetrics),
		CacheHitByRequest: requestPoints(b.o, s),
		CacheHitByStep:    stepPoints(b.o, s),
	}
	if s != b.base {
		sr.VsBaseline = make(map[string]Comparison, sim.NumMetrics)
	}
	kbOf := make(map[int]int, len(b.boot))
	if b.reps != nil {
		for kb, m := range b.boot {
			kbOf[m] = kb
		}
	}
	scale := b.scale
	for m := range sim.NumMetrics {
		name := sim.Metrics[m].Name
		su := b.sum[s][m]
		d := Distribution{
			Count: su.Count, Mean: su.Mean, StdDev: su.StdDev, Sum: su.Sum,
			Min: su.Min, P50: su.P50, P90: su.P90, P95: su.P95, P99: su.P99, Max: su.Max,
			Quantiles: roundGrid(su.Grid),
		}
		kb, boot := kbOf[m]
		ss := b.sampleSum[s][m]
		if boot {
			rep := b.reps[s][kb]
			d.MeanCI = intervalAt(slices.Clone(rep.mean), su.Mean, ss.Mean, scale)
			d.P50CI = intervalAt(slices.Clone(rep.p50), su.P50, ss.P50, scale)
			d.P95CI = intervalAt(slices.Clone(rep.p95), su.P95, ss.P95, scale)
		}
		sr.Metrics[name] = d
		if s == b.base {
			continue
		}
		ds, bs := b.diff[s][m], b.sum[b.base][m]
		c := Comparison{
			Sessions:   b.n,
			MeanDiff:   ds.mean,
			MedianDiff: ds.median,
			P50Diff:    su.P50 - bs.P50,
			P95Diff:    su.P95 - bs.P95,
			Better:     ds.better,
			Worse:      ds.worse,
			Equal:      ds.equal,
		}
		if bs.Mean != 0 {
			ratio := su.Mean / bs.Mean
			c.Ratio = &ratio
		}
		if boot {
			rep, brep := b.reps[s][kb], b.reps[b.base][kb]
			sd, bss := b.sampleDiff[s][m], b.sampleSum[b.base][m]
			// Centred on the sample's mean of the paired differences, the
			// statistic MeanDiff is (sd is diff when the sample holds every
			// session): the difference of the two means is the same number
			// but rounds differently, and shifting the interval by that
			// rounding put a bound of 0 at ±1e-18, deciding Significant.
			c.MeanDiffCI = intervalAt(subtract(rep.mean, brep.mean), c.MeanDiff, sd.mean, scale)
			c.MedianDiffCI = intervalAt(slices.Clone(b.med[s][kb]), c.MedianDiff, sd.median, scale)
			c.P50DiffCI = intervalAt(subtract(rep.p50, brep.p50), c.P50Diff, ss.P50-bss.P50, scale)
			c.P95DiffCI = intervalAt(subtract(rep.p95, brep.p95), c.P95Diff, ss.P95-bss.P95, scale)
			if c.Ratio != nil && !slices.Contains(brep.mean, 0) {
				c.RatioCI = intervalAt(divide(rep.mean, brep.mean), *c.Ratio, ss.Mean/bss.Mean, scale)
			}
			c.Significant = c.MeanDiffCI != nil && !c.MeanDiffCI.Contains(0)
		}
		sr.VsBaseline[name] = c
	}
	return sr
}

// gridDigits is the precision of the stored quantile grid: enough to
// redraw a CDF, a third of the size of full precision.
const gridDigits = 6

// roundGrid rounds quantiles to gridDigits significant digits.
func roundGrid(g []float64) []float64 {
	out := make([]float64, len(g))
	for i, v := range g {
		out[i], _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', gridDigits, 64), 64)
	}
	return out
}

func interval(reps []float64, estimate, scale float64) *Interval {
	lo, hi, ok := stats.Interval(reps, estimate, scale, ConfidenceLevel)
	if !ok {
		return nil
	}
	return &Interval{Low: lo, High: hi}
}

// intervalAt is interval for replicates resampled from a sample whose own
// estimate is centre: the interval is built around centre, then moved to
// estimate (the statistic of every session). With centre == estimate (no
// sampling) it is interval.
func intervalAt(reps []float64, estimate, centre, scale float64) *Interval {
	if centre == estimate || math.IsNaN(centre) || math.IsInf(centre, 0) {
		return interval(reps, estimate, scale)
	}
	iv := interval(reps, centre, scale)
	if iv != nil {
		iv.Low += estimate - centre
		iv.High += estimate - centre
	}
	return iv
}

func subtract(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}

func divide(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] / b[i]
	}
	return d
}

// requestPoints turns the per-request-index aggregates of strategy s into
// hit ratios, skipping indices no session reached.
func requestPoints(o *sim.Outcomes, s int) []RequestPoint {
	pts := []RequestPoint{}
	if s >= len(o.ByRequestIndex) {
		return pts
	}
	for k, st := range o.ByRequestIndex[s] {
		if st.Sessions <= 0 {
			continue
		}
		p := RequestPoint{
			Request:         k + 1,
			Sessions:        st.Sessions,
			InputTokens:     st.Input,
			CacheReadTokens: st.CacheRead,
			ExtraShare:      float64(st.Extra) / float64(st.Sessions),
		}
		if st.Input > 0 {
			p.HitRatio = float64(st.CacheRead) / float64(st.Input)
		}
		pts = append(pts, p)
	}
	return pts
}

// stepPoints turns the per-model-step aggregates of strategy s into hit
// ratios, skipping steps no session reached.
func stepPoints(o *sim.Outcomes, s int) []StepPoint {
	var pts []StepPoint
	if s >= len(o.ByRequestIndex) {
		return pts
	}
	for k, st := range o.ByRequestIndex[s] {
		if st.StepSessions <= 0 {
			continue
		}
		p := StepPoint{Step: k + 1, Sessions: st.StepSessions, Requests: st.StepRequests,
			InputTokens: st.StepInput, CacheReadTokens: st.StepCacheRead}
		if st.StepInput > 0 {
			p.HitRatio = float64(st.StepCacheRead) / float64(st.StepInput)
		}
		pts = append(pts, p)
	}
	return pts
}
