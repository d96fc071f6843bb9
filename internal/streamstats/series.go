package streamstats

import (
	"fmt"
	"math"
	"math/big"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/DataDog/sketches-go/ddsketch/mapping"
	"github.com/DataDog/sketches-go/ddsketch/store"
)

// DefaultRelativeAccuracy is the DDSketch relative accuracy α used when
// none is given: a quantile from the sketch is within ±0.5% of a value of
// the series at the quantile's rank (see Series.Quantile).
const DefaultRelativeAccuracy = 0.005

// Series describes a stream of values: count, exact sum and sum of
// squares, min and max are exact; quantiles come from a DDSketch (relative
// accuracy α, unbounded dense stores, so no bin is ever collapsed and the
// sketch of a merge equals the sketch of the whole stream).
type Series struct {
	N        int64
	Sum      Sum
	SumSq    Sum
	Min, Max float64
	// Integral is true while every value is a whole number.
	Integral bool
	alpha    float64
	sketch   *ddsketch.DDSketch
	// pend holds the last finite values added, not yet in the sketch: a
	// run adds one value to each of hundreds of series per session, and
	// adding them to a sketch in batches keeps its bins in the CPU cache.
	// Every method that reads the sketch flushes first; the sketch's
	// contents do not depend on the batching (bin counts are sums of 1s).
	pend  [pendMax]float64
	npend int
}

// pendMax is the number of values a Series batches before sketching them.
const pendMax = 32

// flush adds the pending values to the sketch.
func (s *Series) flush() {
	for _, x := range s.pend[:s.npend] {
		s.sketch.Add(x) // cannot fail on a finite value
	}
	s.npend = 0
}

// NewSeries returns an empty series whose sketch has relative accuracy
// alpha (MinRelativeAccuracy ≤ alpha < 1; 0 means DefaultRelativeAccuracy).
func NewSeries(alpha float64) (*Series, error) {
	if alpha == 0 {
		alpha = DefaultRelativeAccuracy
	}
	if err := checkAccuracy(alpha); err != nil {
		return nil, err
	}
	m, err := mapping.NewLogarithmicMapping(alpha)
	if err != nil {
		return nil, fmt.Errorf("quantile sketch: %w", err)
	}
	return &Series{alpha: alpha, Min: math.Inf(1), Max: math.Inf(-1), Integral: true,
		sketch: ddsketch.NewDDSketch(m, store.NewDenseStore(), store.NewDenseStore())}, nil
}

// RelativeAccuracy returns the sketch's α.
func (s *Series) RelativeAccuracy() float64 { return s.alpha }

// Add adds x. Non-finite values are counted in the sums but not sketched.
func (s *Series) Add(x float64) {
	s.N++
	s.Sum.Add(x)
	s.SumSq.AddSquare(x)
	// The builtins have math.Min's and math.Max's rules for NaN and ±0
	// (Go spec) and compile inline; the math functions are calls here.
	s.Min = min(s.Min, x)
	s.Max = max(s.Max, x)
	s.Integral = s.Integral && x == math.Trunc(x)
	if x-x == 0 { // finite
		if s.npend == pendMax {
			s.flush()
		}
		s.pend[s.npend] = x
		s.npend++
	}
}

// Merge adds every value of o (same α).
func (s *Series) Merge(o *Series) error {
	if s.alpha != o.alpha {
		return fmt.Errorf("merge series: relative accuracy %g and %g differ", s.alpha, o.alpha)
	}
	s.N += o.N
	s.Sum.Merge(&o.Sum)
	s.SumSq.Merge(&o.SumSq)
	s.Min = math.Min(s.Min, o.Min)
	s.Max = math.Max(s.Max, o.Max)
	s.Integral = s.Integral && o.Integral
	s.flush()
	o.flush()
	if err := s.sketch.MergeWith(o.sketch); err != nil {
		return fmt.Errorf("merge series: %w", err)
	}
	return nil
}

// Mean returns the exact sum divided by the count (0 when empty).
func (s *Series) Mean() float64 {
	if s.N == 0 {
		return 0
	}
	return s.Sum.Value() / float64(s.N)
}

// StdDev returns the sample standard deviation (n−1 divisor), computed
// from the exact sums: 0 for fewer than two values or a constant series.
func (s *Series) StdDev() float64 {
	if s.N < 2 || s.Min == s.Max {
		return 0
	}
	n := new(big.Float).SetPrec(bigPrec).SetInt64(s.N)
	sum := s.Sum.Big()
	// num = n·Σx² − (Σx)², exact; var = num / (n(n−1)).
	num := new(big.Float).SetPrec(bigPrec).Mul(n, s.SumSq.Big())
	num.Sub(num, new(big.Float).SetPrec(bigPrec).Mul(sum, sum))
	den := new(big.Float).SetPrec(bigPrec).Mul(n, new(big.Float).SetInt64(s.N-1))
	v, _ := num.Quo(num, den).Float64()
	if v <= 0 {
		return 0
	}
	return math.Sqrt(v)
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1) from the sketch, clamped to
// [Min, Max] (so q = 0 and q = 1 are exact). The DDSketch guarantee: the
// result is within relative error α of x₍ₖ₎, the value of rank
// k = ⌊q·(n−1)⌋ (0-based) of the sorted series; the exact type-7 quantile
// lies between x₍ₖ₎ and x₍ₖ₊₁₎. When every value is a whole number the
// result is rounded to the nearest one: exact while x₍ₖ₎ < 1/(2α), within
// 2α beyond. NaN when empty.
func (s *Series) Quantile(q float64) float64 {
	s.flush()
	if s.N == 0 || s.sketch.IsEmpty() {
		return math.NaN()
	}
	switch {
	case q <= 0:
		return s.Min
	case q >= 1:
		return s.Max
	}
	v, err := s.sketch.GetValueAtQuantile(q)
	if err != nil {
		return math.NaN()
	}
	if s.Integral {
		v = math.Round(v)
	}
	return math.Min(math.Max(v, s.Min), s.Max)
}

// Bins returns the number of non-empty sketch bins (a memory measure).
func (s *Series) Bins() int {
	s.flush()
	n := 0
	s.sketch.ForEach(func(float64, float64) bool { n++; return false })
	return n
}
