package tokens

import (
	"math"
	"strconv"
)

// Scaled multiplies another counter's counts by a factor, rounding each
// count to the nearest whole token (halves away from zero). It stands for
// a model whose own tokenizer is not available: counting with a published
// one and scaling says how far the unknown one may lie from it
// (params.token_scale, docs/engine.md). Each Count scales one item (a
// schema, a message), so a memo over it scales every distinct content
// once. A Scaled is safe for concurrent use when its inner counter is.
type Scaled struct {
	inner  Counter
	factor float64
	name   string
}

// NewScaled returns c scaled by factor. A factor of 1 returns c itself:
// its counts are unchanged. The factor must be positive and finite (the
// caller validates it; params.token_scale is refused otherwise).
func NewScaled(c Counter, factor float64) Counter {
	if factor == 1 {
		return c
	}
	return &Scaled{inner: c, factor: factor, name: c.Name() + "×" + strconv.FormatFloat(factor, 'g', -1, 64)}
}

// Name returns the inner counter's name with the factor ("o200k_base×1.3").
func (s *Scaled) Name() string { return s.name }

// Factor returns the scale factor.
func (s *Scaled) Factor() float64 { return s.factor }

// Count returns the inner count of b times the factor, rounded to the
// nearest whole token.
func (s *Scaled) Count(b []byte) int64 { return Scale(s.inner.Count(b), s.factor) }

// Scale is n tokens times factor, rounded to the nearest whole token
// (halves away from zero): how Scaled scales each count, and how the
// replay scales a count given as a number of the same tokenizer's tokens
// (params.search_tool_tokens).
func Scale(n int64, factor float64) int64 {
	if factor == 1 {
		return n
	}
	return int64(math.Round(float64(n) * factor))
}
