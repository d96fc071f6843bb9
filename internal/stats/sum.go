package stats

import "math"

// maxExactInt is 2^53: every integer of at most this magnitude is a float64.
const maxExactInt = 1 << 53

// SumsExact reports whether every sum of at most m values drawn from v
// (with repeats) is exact in float64 in any order of addition: the values
// are whole numbers and m·max|v| < 2^53, so every partial sum is an
// integer that float64 represents. Counts and token metrics qualify; for
// them SumAt gives the same bits as a sum in index order.
func SumsExact(v []float64, m int) bool {
	top := 0.0
	for _, x := range v {
		if x != math.Trunc(x) {
			return false
		}
		top = max(top, math.Abs(x))
	}
	return top*float64(m) < maxExactInt
}

// SumAt returns the sum of v[i] for i in idx with four independent
// accumulators, which is faster than one chain of dependent additions but
// rounds differently in general: use it only where SumsExact holds.
func SumAt(v []float64, idx []int32) float64 {
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(idx); j += 4 {
		s0 += v[idx[j]]
		s1 += v[idx[j+1]]
		s2 += v[idx[j+2]]
		s3 += v[idx[j+3]]
	}
	for ; j < len(idx); j++ {
		s0 += v[idx[j]]
	}
	return (s0 + s1) + (s2 + s3)
}

// SumsInOrder sets out[j] to the sum of vs[j][i] for i in idx, each series
// added in idx order starting from 0 exactly as one loop over idx would,
// so to the same bits. It runs four series per pass over idx: their chains
// of dependent additions are independent of each other, so the processor
// overlaps them, where one loop per series waits on every addition.
func SumsInOrder(vs [][]float64, idx []int32, out []float64) {
	for j := 0; j < len(vs); j += 4 {
		// A short last group repeats its first series; the extra sums
		// are dropped.
		a, b, c, d := vs[j], vs[j], vs[j], vs[j]
		if j+1 < len(vs) {
			b = vs[j+1]
		}
		if j+2 < len(vs) {
			c = vs[j+2]
		}
		if j+3 < len(vs) {
			d = vs[j+3]
		}
		var ta, tb, tc, td float64
		for _, i := range idx {
			ta += a[i]
			tb += b[i]
			tc += c[i]
			td += d[i]
		}
		for k, t := range [4]float64{ta, tb, tc, td} {
			if j+k < len(vs) {
				out[j+k] = t
			}
		}
	}
}
