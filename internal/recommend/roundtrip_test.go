package recommend

import (
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestRoundTripReadsWhatTheCacheReads pins that the round trip's real
// request reads from the cache only what the model's cache model reads in
// a replay: nothing under cache.kind none or below cache.min_tokens, the
// prompt counted in steps under openai (main read it all whatever the
// cache).
func TestRoundTripReadsWhatTheCacheReads(t *testing.T) {
	// The search request's prompt: 10500 − 1000 deferred + 500 tool_search
	// = 10000 tokens. Uncached round trip: 1000 ms overhead + 10000/10000 s
	// prefill + 15/50 s decode + 100 ms search = 1000 + 1000 + 300 + 100 =
	// 2400 ms. A read of r tokens saves r/10000 s − r/100000 s.
	lat := sim.Latency{OverheadMs: 1000, PrefillTPS: 10000, CachedPrefillTPS: 100000, DecodeTPS: 50}
	anthropic := sim.CacheConfig{Kind: "anthropic", TTLSeconds: 300, MinTokens: 1024, Breakpoints: 4, Lookback: 20,
		WriteMultiplier: 1.25, ReadMultiplier: 0.1}
	tests := []struct {
		name      string
		cache     sim.CacheConfig
		injection string
		read      int64
		ms        float64
		says      string
	}{
		// Nothing is ever cached: the real request prefills the 10000
		// tokens again, 2400 ms (main: 2400 − (1000 − 100) = 1500).
		{"none", sim.CacheConfig{Kind: sim.CacheNone}, sim.InjectInline, 0, 2400, "cache.kind none"},
		// The whole prompt is read: 2400 − (1000 − 100) = 1500 ms.
		{"anthropic", anthropic, sim.InjectInline, 10000, 1500, "reads 10000 tokens of the search request's 10000-token prompt"},
		// A prompt below min_tokens is never written: 2400 ms.
		{"anthropic below min_tokens", withMin(anthropic, 20000), sim.InjectInline, 0, 2400, "below cache.min_tokens 20000"},
		// A breakpoint's lookback of 1 block reaches neither the user
		// message nor the static part from the tool result: 2400 ms.
		{"anthropic one breakpoint, lookback 1", withBP(anthropic, 1, 1), sim.InjectInline, 0, 2400, "keeps no prefix"},
		// 1024 + ⌊(10000 − 1024)/128⌋·128 = 9984 tokens read:
		// 2400 − (998.4 − 99.84) = 1501.44 ms.
		{"openai steps", sim.CacheConfig{Kind: "openai", TTLSeconds: 300, MinTokens: 1024, Step: 128, WriteMultiplier: 1, ReadMultiplier: 0.5},
			sim.InjectInline, 9984, 1501.44, "reads 9984 tokens of the search request's 10000-token prompt"},
		// The load changes tools[]: nothing read, 2400 ms. The line names
		// the prompt it prefills again and what it is made of: it once said
		// "the 10000-token prompt" beside a header's first prompt of every
		// schema (10500 here), as if they were one prompt.
		{"tools-array", anthropic, sim.InjectToolsArray, 0, 2400, "tools-array injection: the load changes tools[], so the real request prefills " +
			"the search request's 10000-token prompt (the first prompt less the 1000 deferred schema tokens, plus the 500-token tool_search definition) again"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Economy{Model: sim.Model{Name: "m", Cache: tc.cache, Latency: lat},
				Params: sim.Params{SearchToolTokens: 500, TokenScale: 1, SearchExecMs: 100}, Injection: tc.injection,
				FirstPrompt: 10500, DeferredSchema: 1000, SearchOutput: searchOutputTokens}
			if got := e.RoundTripRead(); got != tc.read {
				t.Errorf("read %d tokens, want %d", got, tc.read)
			}
			if got := e.RoundTripMs(); math.Abs(got-tc.ms) > 1e-9 {
				t.Errorf("round trip %.6f ms, want %.6f", got, tc.ms)
			}
			if got := e.RoundTripCache(); !strings.Contains(got, tc.says) {
				t.Errorf("cache assumption %q, want it to say %q", got, tc.says)
			}
		})
	}
}

func withMin(c sim.CacheConfig, min int64) sim.CacheConfig {
	c.MinTokens = min
	return c
}

func withBP(c sim.CacheConfig, bp, lookback int) sim.CacheConfig {
	c.Breakpoints, c.Lookback = bp, lookback
	return c
}
