package stats

import (
	"cmp"
	"math"
	"slices"
)

// Ranked is a series prepared for the quantiles of many resamples of its
// units: the unit indices in ascending order of value. A resample given as
// multiplicities (how many times each unit was drawn, see RunCounts) then
// has its order statistics found by walking the units in that order and
// adding up counts, instead of gathering the drawn values and selecting
// among them. The walk yields exactly the order statistics selection
// yields, and they are combined by the same type-7 arithmetic, so
// Quantiles returns the same bits as SelectQuantiles on the gathered
// values.
type Ranked struct {
	// The value of unit u is v[u], or v[u] − base[u] when base is set
	// (paired differences, computed as the gathering code computes them).
	v, base []float64
	order   []int32
}

// NewRanked ranks the units of v. ok is false when v holds a negative zero:
// −0 and +0 tie, so which of them a selection returns depends on how the
// values happen to be arranged, and only SelectQuantiles itself reproduces
// that.
func NewRanked(v []float64) (r Ranked, ok bool) {
	return newRanked(v, nil, v)
}

// NewRankedDiff ranks the units of the differences v[u] − base[u]; scratch
// (length len(v), overwritten) holds the differences while sorting. ok is
// as for NewRanked.
func NewRankedDiff(v, base, scratch []float64) (r Ranked, ok bool) {
	d := scratch[:len(v)]
	for i := range v {
		d[i] = v[i] - base[i]
	}
	return newRanked(v, base, d)
}

func newRanked(v, base, values []float64) (Ranked, bool) {
	for _, x := range values {
		if x == 0 && math.Signbit(x) {
			return Ranked{}, false
		}
	}
	order := make([]int32, len(values))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(values[a], values[b]) })
	return Ranked{v: v, base: base, order: order}, true
}

func (r *Ranked) value(u int32) float64 {
	if r.base != nil {
		return r.v[u] - r.base[u]
	}
	return r.v[u]
}

// Quantiles computes type-7 quantiles of the resample in which unit u
// appears counts[u] times, m times in all: qs ascending, one value per q in
// out, as SelectQuantiles would give on the m drawn values.
func (r *Ranked) Quantiles(counts []int32, m int, qs, out []float64) {
	if m == 0 || len(r.order) == 0 {
		for i := range qs {
			out[i] = math.NaN()
		}
		return
	}
	// Low quantiles walk up from the smallest unit, high ones down from
	// the largest, so p50 and p95 together cost about 0.55 n steps.
	n := len(r.order)
	low := cursor{j: 0, below: 0}
	high := cursor{j: n - 1, below: m - int(counts[r.order[n-1]])}
	for i, q := range qs {
		c := &low
		if q > 0.5 {
			c = &high
		}
		k, f := rank7(q, m)
		v := r.value(r.order[c.seek(k, counts, r.order)])
		if f > 0 && k+1 < m {
			out[i] = interpolate(v, r.value(r.order[c.seek(k+1, counts, r.order)]), f)
		} else {
			out[i] = v
		}
	}
}

// cursor is a position j in a ranked order with below, the number of
// drawn values at earlier positions.
type cursor struct{ j, below int }

// seek moves c to the position holding the value of rank k (0-based) and
// returns it; it moves either way, four units at a time while it can (the
// four loads do not wait on each other), then one at a time.
func (c *cursor) seek(k int, counts []int32, order []int32) int {
	j, below := c.j, c.below
	for below > k {
		if j >= 4 {
			if n := below - int(counts[order[j-1]]+counts[order[j-2]]+counts[order[j-3]]+counts[order[j-4]]); n > k {
				j -= 4
				below = n
				continue
			}
		}
		j--
		below -= int(counts[order[j]])
	}
	for {
		if j+4 <= len(order) {
			if n := below + int(counts[order[j]]+counts[order[j+1]]+counts[order[j+2]]+counts[order[j+3]]); n <= k {
				j += 4
				below = n
				continue
			}
		}
		n := below + int(counts[order[j]])
		if n > k {
			break
		}
		below = n
		j++
	}
	c.j, c.below = j, below
	return j
}
