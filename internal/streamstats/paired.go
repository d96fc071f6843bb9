package streamstats

import (
	"fmt"
	"math"
)

// Paired describes the per-unit differences a − b of two aligned series
// (a strategy against a baseline, session by session).
type Paired struct {
	// Better, Worse and Equal count units by the sign of a − b: Equal when
	// |a − b| ≤ tolerance·max(|a|, |b|); Better when a − b points the good
	// way (below zero when lower is better).
	Better, Worse, Equal int64
	// Diff describes the rounded differences a − b (its min, max and
	// quantiles); DiffSum is the exact Σa − Σb.
	Diff    *Series
	DiffSum Sum
}

// NewPaired returns an empty paired description (sketch accuracy alpha).
func NewPaired(alpha float64) (*Paired, error) {
	d, err := NewSeries(alpha)
	if err != nil {
		return nil, err
	}
	return &Paired{Diff: d}, nil
}

// Add adds one unit's pair of values.
func (p *Paired) Add(a, b, tolerance float64, lowerIsBetter bool) {
	d := a - b
	p.count(a, b, d, tolerance, lowerIsBetter)
	p.Diff.Add(d)
	p.DiffSum.Add(a)
	p.DiffSum.Add(-b)
}

// Merge adds every pair of o.
func (p *Paired) Merge(o *Paired) error {
	p.Better += o.Better
	p.Worse += o.Worse
	p.Equal += o.Equal
	p.DiffSum.Merge(&o.DiffSum)
	if err := p.Diff.Merge(o.Diff); err != nil {
		return fmt.Errorf("paired: %w", err)
	}
	return nil
}

// MeanDiff returns (Σa − Σb)/n, exactly rounded (0 when empty).
func (p *Paired) MeanDiff() float64 {
	if p.Diff.N == 0 {
		return 0
	}
	return p.DiffSum.Value() / float64(p.Diff.N)
}

// count files the pair (a, b), whose difference is d, as equal (within
// tolerance of the larger magnitude), better or worse.
func (p *Paired) count(a, b, d, tolerance float64, lowerIsBetter bool) {
	switch {
	case math.Abs(d) <= tolerance*math.Max(math.Abs(a), math.Abs(b)):
		p.Equal++
	case (d < 0) == lowerIsBetter:
		p.Better++
	default:
		p.Worse++
	}
}
