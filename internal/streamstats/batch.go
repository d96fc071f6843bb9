package streamstats

import (
	"math"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/DataDog/sketches-go/ddsketch/mapping"
	"github.com/DataDog/sketches-go/ddsketch/store"
)

// A run files one value into each of hundreds of series per session, so
// a value-at-a-time Add loads each series' state (sums, sketch bins) from
// memory every time. The batch methods below take many values of one
// series at once and leave exactly what the same values added one by one,
// in order, leave: the same partials bit for bit (the sums are added in
// the same order, through the same one-partial fast path and the same
// general loop), the same min, max and Integral (the same folds), the same
// sketch bins (a bin count is a sum of whole numbers far below 2⁵³, so
// adding k at once equals adding 1 k times), hence the same encoding.

// sumRun adds values to a Sum in order, holding up to maxRunPartials
// partials in locals (the sums of the benchmark run end with one to seven;
// a sum of squares of fractions keeps the most), so that an
// add reads and writes no slice; done must be called before the Sum is
// read. It runs Sum.Add's algorithm step for step (the fast path, then
// Shewchuk's loop), so the partials are those Sum.Add leaves.
type sumRun struct {
	s *Sum
	p [maxRunPartials]float64
	n int // partials held in p; -1: they are in s.Partials (too many)
}

const maxRunPartials = 8

func newSumRun(s *Sum) sumRun {
	r := sumRun{s: s, n: -1}
	if len(s.Partials) <= maxRunPartials {
		r.n = copy(r.p[:], s.Partials)
	}
	return r
}

// add is Sum.Add(x). The loops call fast then slow themselves, so that
// the fast path is inlined into them.
func (r *sumRun) add(x float64) {
	if !r.fast(x) {
		r.slow(x)
	}
}

// fast is Sum.Add's fast path (x plus the single partial p is exact: the
// new partial is x + p), tested in a form small enough to be inlined:
// sumIsExact(x, p, x+p) holds exactly when Sum.Add's rounding error is zero
// (TestSumIsExactMatchesFastTwoSum). It reports whether it added x.
func (r *sumRun) fast(x float64) bool {
	if hi := x + r.p[0]; r.n == 1 && sumIsExact(x, r.p[0], hi) {
		r.p[0] = hi
		return true
	}
	return false
}

// sumIsExact reports whether hi = x + p rounded is the exact sum: then
// hi − x and hi − p are the exact p and x. Conversely, of the two
// differences the one taking the larger-magnitude operand is exact
// (Sterbenz, as in Fast2Sum), so its equality means hi − x = p exactly.
// A NaN, an infinity or an overflow fails it, as it fails Sum.Add's test.
func sumIsExact(x, p, hi float64) bool {
	return hi-x == p && hi-p == x
}

// slow is Sum.Add(x) once the fast path does not apply: Sum.Add's general
// part on the local partials.
func (r *sumRun) slow(x float64) {
	if r.n < 0 {
		r.s.Add(x)
		return
	}
	if x-x != 0 { // infinite or NaN
		r.s.Special += x
		return
	}
	i, x := addPartials(r.p[:r.n], x)
	if i < maxRunPartials {
		r.p[i] = x
		r.n = i + 1
		return
	}
	// One partial more than the locals hold: from now on in s.Partials.
	r.s.Partials = append(append(r.s.Partials[:0], r.p[:i]...), x)
	r.n = -1
}

func (r *sumRun) done() {
	if r.n >= 0 {
		r.s.Partials = append(r.s.Partials[:0], r.p[:r.n]...)
	}
}

// AddBatch adds the values of xs in order: the series is left exactly as
// calling Add for each would leave it.
func (s *Series) AddBatch(xs []float64) {
	if len(xs) == 0 {
		return
	}
	s.N += int64(len(xs))
	sum, sq := newSumRun(&s.Sum), newSumRun(&s.SumSq)
	lo, hi, integral := s.Min, s.Max, s.Integral
	for _, x := range xs {
		if !sum.fast(x) {
			sum.slow(x)
		}
		// sq.AddSquare(x): x·x, then its rounding error when not zero.
		p := x * x
		if !sq.fast(p) {
			sq.slow(p)
		}
		if e := math.FMA(x, x, -p); e != 0 && !math.IsInf(p, 0) {
			sq.add(e)
		}
		lo = min(lo, x)
		hi = max(hi, x)
		integral = integral && x == math.Trunc(x)
	}
	sum.done()
	sq.done()
	s.Min, s.Max, s.Integral = lo, hi, integral
	s.sketchAll(xs)
}

// sketchAll adds the finite values of xs to the sketch, each run of equal
// values as one weighted add.
func (s *Series) sketchAll(xs []float64) {
	if !s.direct.checked {
		s.direct = newDirectSketch(s.sketch)
	}
	d := &s.direct
	for i := 0; i < len(xs); {
		x := xs[i]
		j := i + 1
		for j < len(xs) && xs[j] == x { // ±0 both go to the zero count
			j++
		}
		if x-x == 0 { // finite
			d.add(s.sketch, x, float64(j-i))
		}
		i = j
	}
}

// directSketch holds a sketch's mapping and stores by their concrete types,
// so that a value goes to its bin without the sketch's interface calls;
// nil fields (other types) send values through the sketch's own method.
type directSketch struct {
	m          *mapping.LogarithmicMapping
	pos, neg   *store.DenseStore
	minV, maxV float64 // the mapping's indexable range
	checked    bool
}

func newDirectSketch(sk *ddsketch.DDSketch) directSketch {
	d := directSketch{checked: true}
	m, ok1 := sk.IndexMapping.(*mapping.LogarithmicMapping)
	pos, ok2 := sk.GetPositiveValueStore().(*store.DenseStore)
	neg, ok3 := sk.GetNegativeValueStore().(*store.DenseStore)
	if ok1 && ok2 && ok3 {
		d.m, d.pos, d.neg = m, pos, neg
		d.minV, d.maxV = m.MinIndexableValue(), m.MaxIndexableValue()
	}
	return d
}

// add is sk.AddWithCount(x, count) for a finite x and a count > 0: the
// same tests in the same order (DDSketch.AddWithCount), the same bin.
func (d *directSketch) add(sk *ddsketch.DDSketch, x, count float64) {
	switch {
	case d.m == nil:
		_ = sk.AddWithCount(x, count) // cannot fail on a finite value
	case x > d.minV:
		if x <= d.maxV {
			d.pos.AddWithCount(d.m.Index(x), count)
		}
	case x < -d.minV:
		if x >= -d.maxV {
			d.neg.AddWithCount(d.m.Index(-x), count)
		}
	default: // zero or too small to index: the zero count
		_ = sk.AddWithCount(x, count)
	}
}

// AddBatch adds the pairs (as[i], bs[i]) in order (len(bs) ≥ len(as)):
// the description is left exactly as calling Add for each would leave it.
// diffs is scratch space of at least len(as) values.
func (p *Paired) AddBatch(as, bs, diffs []float64, tolerance float64, lowerIsBetter bool) {
	if len(as) == 0 {
		return
	}
	bs, diffs = bs[:len(as)], diffs[:len(as)]
	sum := newSumRun(&p.DiffSum)
	for i, a := range as {
		b := bs[i]
		d := a - b
		p.count(a, b, d, tolerance, lowerIsBetter)
		diffs[i] = d
		if !sum.fast(a) {
			sum.slow(a)
		}
		if !sum.fast(-b) {
			sum.slow(-b)
		}
	}
	sum.done()
	p.Diff.AddBatch(diffs)
}
