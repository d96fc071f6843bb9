package recommend

import (
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestDollarsFollowWhatTheEngineBills pins that the per-token and load
// dollars use the cache multipliers only where the model's cache writes or
// reads the prompt: the input price under cache.kind none (multipliers set
// or not) and below cache.min_tokens, the write multiplier on every request
// whose cache keeps nothing to read (main priced write + reads whatever the
// cache, $0 under an inline model without multipliers).
func TestDollarsFollowWhatTheEngineBills(t *testing.T) {
	// $3 in, $15 out per million tokens; 5 requests per session. Schema of
	// 1000 tokens. Deferred-mode prompt p = 12000 − 1000 + 500 = 11500.
	// With first/later the multiples on the first and other requests:
	//   direct $ = 1000 × (first + 4 × later) × 3e-6
	//   load $   = p × later × 3e-6 + 15 × 15e-6 (= 0.000225)
	//              [+ p × (first − later) × 3e-6 under tools-array]
	//              + 1000 × (first + 1.5 × later) × 3e-6
	anthropic := sim.CacheConfig{Kind: "anthropic", TTLSeconds: 300, MinTokens: 1024, Breakpoints: 4, Lookback: 20,
		WriteMultiplier: 1.25, ReadMultiplier: 0.1}
	openai := sim.CacheConfig{Kind: "openai", TTLSeconds: 300, MinTokens: 1024, Step: 128, WriteMultiplier: 1, ReadMultiplier: 0.5}
	tests := []struct {
		name      string
		cache     sim.CacheConfig
		injection string
		direct    float64
		load      float64
		says      string
	}{
		// first = later = 1: direct 1000 × 5 × 3e-6 = 0.015; load
		// 0.0345 + 0.000225 + 1000 × 2.5 × 3e-6 (0.0075) = 0.042225
		// (main: 1000 × 1.65 × 3e-6 = 0.00495 and 0.007875).
		{"none with unread multipliers", withKind(anthropic, sim.CacheNone), sim.InjectInline, 0.015, 0.042225, "1× the input price on the first request, 1× on the others (cache.kind none"},
		// The same (main: $0 and 0.000225).
		{"none without multipliers", sim.CacheConfig{Kind: sim.CacheNone}, sim.InjectInline, 0.015, 0.042225, "(cache.kind none"},
		// The same: the prompt is re-sent, not re-written (main added
		// 11500 × 1.15 × 3e-6).
		{"none tools-array", withKind(anthropic, sim.CacheNone), sim.InjectToolsArray, 0.015, 0.042225, "(cache.kind none"},
		// Never written, never read: as none (main: 0.00495, 0.007875).
		{"anthropic below min_tokens", withMin(anthropic, 20000), sim.InjectInline, 0.015, 0.042225, "below cache.min_tokens 20000"},
		// first 1.25, later 0.1: direct 1000 × 1.65 × 3e-6 = 0.00495; load
		// 11500 × 0.1 × 3e-6 (0.00345) + 0.000225 + 1000 × 1.4 × 3e-6
		// (0.0042) = 0.007875 (as main).
		{"anthropic", anthropic, sim.InjectInline, 0.00495, 0.007875, "1.25× the input price on the first request, 0.1× on the others"},
		// Plus 11500 × 1.15 × 3e-6 = 0.039675: 0.04755 (as main).
		{"anthropic tools-array", anthropic, sim.InjectToolsArray, 0.00495, 0.04755, "1.25×"},
		// A lookback of 1 from the one breakpoint finds nothing: every
		// request writes the prompt again, first = later = 1.25: direct
		// 1000 × 6.25 × 3e-6 = 0.01875; load 11500 × 1.25 × 3e-6
		// (0.043125) + 0.000225 + 1000 × 3.125 × 3e-6 (0.009375) =
		// 0.052725 (main: 0.00495, 0.007875).
		{"anthropic one breakpoint, lookback 1", withBP(anthropic, 1, 1), sim.InjectInline, 0.01875, 0.052725, "1.25× on the others"},
		// first 1 (free writes), later 0.5: direct 1000 × 3 × 3e-6 =
		// 0.009; load 11500 × 0.5 × 3e-6 (0.01725) + 0.000225 + 11500 ×
		// 0.5 × 3e-6 (0.01725) + 1000 × 1.75 × 3e-6 (0.00525) = 0.039975
		// (as main).
		{"openai tools-array", openai, sim.InjectToolsArray, 0.009, 0.039975, "1× the input price on the first request, 0.5× on the others (the openai cache)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Economy{Model: sim.Model{Name: "m", Pricing: sim.Pricing{InputPerMTok: 3, OutputPerMTok: 15}, Cache: tc.cache},
				Params: sim.Params{SearchToolTokens: 500, TokenScale: 1}, Injection: tc.injection, Requests: 5,
				FirstPrompt: 10500, MeanPrompt: 12000, DeferredSchema: 1000, SearchOutput: searchOutputTokens}
			if got := e.DirectUSD(1000); math.Abs(got-tc.direct) > 1e-12 {
				t.Errorf("direct $%.9f, want $%.9f", got, tc.direct)
			}
			if got := e.LoadUSD(1000); math.Abs(got-tc.load) > 1e-12 {
				t.Errorf("load $%.9f, want $%.9f", got, tc.load)
			}
			if got := e.CacheAssumption(); !strings.Contains(got, "; dollars: ") || !strings.Contains(got, tc.says) {
				t.Errorf("cache assumption %q, want it to say %q", got, tc.says)
			}
		})
	}
}

func withKind(c sim.CacheConfig, kind string) sim.CacheConfig {
	c.Kind = kind
	return c
}
