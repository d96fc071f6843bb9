package stats

import (
	"math"
	"math/bits"
	"slices"
)

// SelectQuantiles computes type-7 quantiles (see Quantile) of buf without
// sorting it fully: qs must be ascending; out receives one value per q. buf
// is reordered. It runs in expected linear time, with a sort as the fallback
// when partitioning degenerates, so its cost is bounded by O(n log n).
func SelectQuantiles(buf []float64, qs []float64, out []float64) {
	n := len(buf)
	if n == 0 {
		for i := range qs {
			out[i] = math.NaN()
		}
		return
	}
	lo := 0
	for i, q := range qs {
		k, f := rank7(q, n)
		if k < lo {
			// qs not ascending or equal ranks: the range already holds a[k].
			lo = 0
		}
		selectK(buf, lo, n, k)
		v := buf[k]
		if f > 0 && k+1 < n {
			out[i] = interpolate(v, minOf(buf[k+1:]), f)
		} else {
			out[i] = v
		}
		lo = k
	}
}

// rank7 returns where the type-7 q-quantile of n sorted values x lies:
// x[k] + f·(x[k+1] − x[k]), with 0 ≤ k ≤ n−1 and f = 0 when k = n−1.
// SelectQuantiles and Ranked.Quantiles share it so that they agree to the
// bit.
func rank7(q float64, n int) (k int, f float64) {
	h := clamp01(q) * float64(n-1)
	k = int(h)
	if k >= n-1 {
		k = n - 1
	}
	return k, h - float64(k)
}

func minOf(a []float64) float64 {
	m := a[0]
	for _, v := range a[1:] {
		if v < m {
			m = v
		}
	}
	return m
}

// selectK reorders a[lo:hi] so that a[k] holds the value it would hold if
// a[lo:hi] were sorted, with a[lo:k] ≤ a[k] ≤ a[k+1:hi]. It uses Hoare
// partitioning (balanced even when ties are common, as in count metrics)
// around a median-of-three pivot and falls back to sorting after 2·log2(n)
// rounds.
func selectK(a []float64, lo, hi, k int) {
	limit := 2 * bits.Len(uint(hi-lo))
	for hi-lo > 16 {
		if limit == 0 {
			slices.Sort(a[lo:hi])
			return
		}
		limit--
		p := medianOf3(a[lo], a[lo+(hi-lo)/2], a[hi-1])
		i, j := lo, hi-1
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		// a[lo:j+1] ≤ p, a[j+1:i] == p, a[i:hi] ≥ p.
		switch {
		case k <= j:
			hi = j + 1
		case k >= i:
			lo = i
		default:
			return
		}
	}
	insertionSort(a[lo:hi])
}

func medianOf3(x, y, z float64) float64 {
	if x > y {
		x, y = y, x
	}
	if y > z {
		y = z
	}
	if x > y {
		return x
	}
	return y
}

func insertionSort(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
