// Package streamstats holds mergeable streaming statistics: an exact
// floating-point sum, a series description (count, exact sum and sum of
// squares, min, max, DDSketch quantiles), a paired-difference description
// and a bottom-k sample. Merging two of them gives exactly what one would
// hold after seeing both streams, in any order, so shards of a run merge
// into the statistics of the whole run.
package streamstats

import (
	"math"
	"math/big"
)

// Sum is an exact sum of float64 values: it keeps non-overlapping partials
// (Shewchuk's algorithm, as Python's math.fsum), so Value is the correctly
// rounded sum whatever the order of the values, and two Sums merge exactly.
// The zero Sum is empty.
type Sum struct {
	// Partials are non-overlapping, in increasing magnitude; their exact sum
	// is the sum of every value added.
	Partials []float64
	// Special accumulates non-finite values (their sum is not exact; it is
	// NaN or ±Inf and then decides Value).
	Special float64
}

// Add adds x exactly.
func (s *Sum) Add(x float64) {
	// Fast path: one partial y and x + y exact, the usual case when whole
	// numbers (token and request counts, milliseconds) are summed. It is
	// the loop below specialised to one partial, with the same result (a
	// single partial x + y; its sign of zero is the one the loop gives,
	// as addition is commutative), so the partials, and with them the
	// encoding, do not depend on which path ran. A NaN or infinite x, or
	// an overflow, makes the rounding error below NaN or infinite, so such
	// values take the general path.
	if p := s.Partials; len(p) == 1 {
		a, b := x, p[0]
		if math.Abs(a) < math.Abs(b) {
			a, b = b, a
		}
		hi := a + b
		if b-(hi-a) == 0 {
			p[0] = hi
			return
		}
	}
	if x-x != 0 { // infinite or NaN
		s.Special += x
		return
	}
	i, x := addPartials(s.Partials, x)
	s.Partials = append(s.Partials[:i], x)
}

// addPartials is the general step of Shewchuk's algorithm: it adds a
// finite x to the partials p, leaving the non-zero rounding errors in
// p[:i], and returns i and the new last partial (the sum's leading part),
// which the caller appends.
func addPartials(p []float64, x float64) (int, float64) {
	i := 0
	for _, y := range p {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		lo := y - (hi - x)
		if lo != 0 {
			p[i] = lo
			i++
		}
		x = hi
	}
	return i, x
}

// AddSquare adds x² exactly (x·x and its rounding error, by FMA).
func (s *Sum) AddSquare(x float64) {
	p := x * x
	s.Add(p)
	if e := math.FMA(x, x, -p); e != 0 && !math.IsInf(p, 0) {
		s.Add(e)
	}
}

// Merge adds every value of o.
func (s *Sum) Merge(o *Sum) {
	for _, p := range o.Partials {
		s.Add(p)
	}
	s.Special += o.Special
}

// Value returns the sum, correctly rounded to float64.
func (s *Sum) Value() float64 {
	if s.Special != 0 || math.IsNaN(s.Special) {
		return s.Special
	}
	p := s.Partials
	n := len(p)
	if n == 0 {
		return 0
	}
	n--
	hi := p[n]
	lo := 0.0
	for n > 0 {
		x := hi
		n--
		y := p[n]
		hi = x + y
		lo = y - (hi - x)
		if lo != 0 {
			break
		}
	}
	// Round half-way cases correctly: the partials below may tip the result.
	if n > 0 && ((lo < 0 && p[n-1] < 0) || (lo > 0 && p[n-1] > 0)) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}

// bigPrec holds any exact sum of float64 values and its square.
const bigPrec = 8192

// Big returns the exact sum as a big.Float.
func (s *Sum) Big() *big.Float {
	z := new(big.Float).SetPrec(bigPrec)
	for _, p := range s.Partials {
		z.Add(z, new(big.Float).SetFloat64(p))
	}
	return z
}
