package traces

import (
	"strings"
	"testing"
)

// TestImplausibleBounds pins each count's and duration's bound, and that
// the quick check in front of them (plausibleAtAGlance) never passes a
// value over its field's bound: every field at its bound, one over it,
// and result_bytes between the lowest bound and its own.
func TestImplausibleBounds(t *testing.T) {
	fields := []struct {
		name  string
		bound int64
		set   func(*Event, int64)
	}{
		{"system_prompt_tokens", MaxPlausibleTokens, func(e *Event, v int64) { e.EnsureStart().SystemPromptTokens = v }},
		{"text_tokens", MaxPlausibleTokens, func(e *Event, v int64) { e.TextTokens = v }},
		{"result_tokens", MaxPlausibleTokens, func(e *Event, v int64) { e.ResultTokens = v }},
		{"result_bytes", 4 * MaxPlausibleTokens, func(e *Event, v int64) { e.ResultBytes = v }},
		{"ttft_ms", MaxPlausibleMs, func(e *Event, v int64) { e.TTFTMs = v }},
		{"duration_ms", MaxPlausibleMs, func(e *Event, v int64) { e.DurationMs = v }},
		{"usage.input", MaxPlausibleTokens, func(e *Event, v int64) { e.Usage = &Usage{Input: v} }},
		{"usage.cache_read", MaxPlausibleTokens, func(e *Event, v int64) { e.Usage = &Usage{CacheRead: v} }},
		{"usage.cache_write", MaxPlausibleTokens, func(e *Event, v int64) { e.Usage = &Usage{CacheWrite: v} }},
		{"usage.output", MaxPlausibleTokens, func(e *Event, v int64) { e.Usage = &Usage{Output: v} }},
	}
	for _, f := range fields {
		for _, v := range []int64{-1, 0, MaxPlausibleMs / 2, MaxPlausibleMs + 1, f.bound, f.bound + 1, 1<<63 - 1} {
			var e Event
			f.set(&e, v)
			got := implausible(&e)
			if want := v > f.bound; want != (got != "") {
				t.Errorf("%s = %d: implausible says %q, want implausible %v", f.name, v, got, want)
			}
			if got != "" && !strings.Contains(got, `"`+f.name+`"`) {
				t.Errorf("%s = %d: %q does not name the field", f.name, v, got)
			}
			if glance := plausibleAtAGlance(&e); glance && got != "" {
				t.Errorf("%s = %d: the quick check passed a value over the bound", f.name, v)
			}
		}
	}
}
