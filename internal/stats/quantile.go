package stats

import "math"

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of sorted, which must be in
// ascending order, by linear interpolation between closest ranks (Hyndman &
// Fan type 7, the default of R, NumPy and montanaflynn/stats.Percentile):
// with h = q·(n−1), k = ⌊h⌋, the result is x[k] + (h−k)·(x[k+1]−x[k]).
// It returns NaN for empty input; q outside [0, 1] is clamped.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	q = clamp01(q)
	h := q * float64(n-1)
	k := int(h)
	if k >= n-1 {
		return sorted[n-1]
	}
	f := h - float64(k)
	return interpolate(sorted[k], sorted[k+1], f)
}

// interpolate returns lo + f·(hi−lo), exact at f = 0 and when lo == hi.
func interpolate(lo, hi, f float64) float64 {
	if f == 0 || lo == hi {
		return lo
	}
	return lo + f*(hi-lo)
}

func clamp01(q float64) float64 {
	switch {
	case q < 0 || math.IsNaN(q):
		return 0
	case q > 1:
		return 1
	}
	return q
}

// Grid returns the quantiles of sorted at q = 0, 1/(points−1), …, 1: points
// values, from the minimum to the maximum. It returns nil for empty input or
// points < 2.
func Grid(sorted []float64, points int) []float64 {
	if len(sorted) == 0 || points < 2 {
		return nil
	}
	g := make([]float64, points)
	for i := range g {
		g[i] = Quantile(sorted, float64(i)/float64(points-1))
	}
	return g
}
