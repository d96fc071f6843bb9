package presets

import (
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/tokens"
)

func TestModelPresets(t *testing.T) {
	tests := []struct {
		name                string
		in, out             float64
		kind                string
		ttl                 float64
		write, read         float64
		minTokens, window   int64
		breakpoints, lookbk int
		step                int64
	}{
		{"claude-sonnet-4.5", 3, 15, "anthropic", 300, 1.25, 0.1, 1024, 200000, 4, 20, 0},
		{"claude-sonnet-4.5-1h", 3, 15, "anthropic", 3600, 2, 0.1, 1024, 200000, 4, 20, 0},
		{"claude-opus-4.5", 5, 25, "anthropic", 300, 1.25, 0.1, 4096, 200000, 4, 20, 0},
		{"claude-opus-4.5-1h", 5, 25, "anthropic", 3600, 2, 0.1, 4096, 200000, 4, 20, 0},
		{"claude-haiku-4.5", 1, 5, "anthropic", 300, 1.25, 0.1, 4096, 200000, 4, 20, 0},
		{"claude-haiku-4.5-1h", 1, 5, "anthropic", 3600, 2, 0.1, 4096, 200000, 4, 20, 0},
		{"gpt-5", 1.25, 10, "openai", 300, 1, 0.1, 1024, 400000, 0, 0, 128},
		{"gpt-4.1", 2, 8, "openai", 300, 1, 0.25, 1024, 1047576, 0, 0, 128},
		{"gpt-4o", 2.5, 10, "openai", 300, 1, 0.5, 1024, 128000, 0, 0, 128},
	}
	if len(tests) != len(ModelNames()) {
		t.Errorf("%d model presets, %d pinned", len(ModelNames()), len(tests))
	}
	for _, tt := range tests {
		m, err := Model(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		c := m.Cache
		if m.Name != tt.name || m.Pricing.InputPerMTok != tt.in || m.Pricing.OutputPerMTok != tt.out ||
			c.Kind != tt.kind || c.TTLSeconds != tt.ttl || c.WriteMultiplier != tt.write || c.ReadMultiplier != tt.read ||
			c.MinTokens != tt.minTokens || m.ContextWindow != tt.window || c.Breakpoints != tt.breakpoints ||
			c.Lookback != tt.lookbk || c.Step != tt.step {
			t.Errorf("%s: got %+v", tt.name, m)
		}
	}
	// REFERENCE §3 lists Anthropic write and read prices; the multipliers
	// must reproduce them.
	for _, p := range []struct {
		name                   string
		write5m, write1h, read float64
	}{{"claude-opus-4.5", 6.25, 10, 0.5}, {"claude-sonnet-4.5", 3.75, 6, 0.3}, {"claude-haiku-4.5", 1.25, 2, 0.1}} {
		m5, _ := Model(p.name)
		m1, _ := Model(p.name + "-1h")
		if !near(m5.Pricing.InputPerMTok*m5.Cache.WriteMultiplier, p.write5m, 1e-9) ||
			!near(m1.Pricing.InputPerMTok*m1.Cache.WriteMultiplier, p.write1h, 1e-9) ||
			!near(m5.Pricing.InputPerMTok*m5.Cache.ReadMultiplier, p.read, 1e-9) {
			t.Errorf("%s: prices do not match REFERENCE §3", p.name)
		}
	}
	if _, err := Model("gpt-9"); err == nil || !strings.Contains(err.Error(), `unknown model preset "gpt-9"`) {
		t.Errorf("err = %v", err)
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// ttftSeconds is the latency model's time to first token, in seconds.
func ttftSeconds(l sim.Latency, uncached, cached float64) float64 {
	return (l.OverheadMs + 1000*uncached/l.PrefillTPS + 1000*cached/l.CachedPrefillTPS) / 1000
}

func TestAnthropicLatencyReproducesCachingFigure(t *testing.T) {
	l := AnthropicLatency()
	// REFERENCE §4: 11.5 s → 2.4 s at 100K tokens with caching.
	if got := ttftSeconds(l, 100000, 0); !near(got, 11.5, 0.05) {
		t.Errorf("uncached 100K: %.3f s, want 11.5", got)
	}
	if got := ttftSeconds(l, 0, 100000); !near(got, 2.4, 0.05) {
		t.Errorf("cached 100K: %.3f s, want 2.4", got)
	}
	// The deferred-opener check of docs/presets.md: one extra round trip on
	// an 18.5K-token prompt with a 200-token search turn, warm prefix, after
	// which the rebuilt tools[] must be prefilled uncached.
	const prompt, searchOut = 18500.0, 200.0
	extra := ttftSeconds(l, 0, prompt) + searchOut/l.DecodeTPS + // the tool_search request
		(prompt/l.PrefillTPS - prompt/l.CachedPrefillTPS) // rewritten prefix on the next request
	if extra < 5 || extra > 7 {
		t.Errorf("deferred opener adds %.2f s, want about 6", extra)
	}
}

func TestOpenAILatencyReproducesCookbookFigures(t *testing.T) {
	l := OpenAILatency()
	for _, p := range []struct{ tokens, cut float64 }{{1000, 0.07}, {150000, 0.67}} {
		cut := 1 - ttftSeconds(l, 0, p.tokens)/ttftSeconds(l, p.tokens, 0)
		if !near(cut, p.cut, 0.01) {
			t.Errorf("%v tokens: caching cuts %.3f, want %.2f", p.tokens, cut, p.cut)
		}
	}
}

func TestDefaultParams(t *testing.T) {
	p := DefaultParams()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Tokenizer != "o200k_base" || p.SearchExecMs != 1 || p.NudgeProb != 0 || p.ColdCallProb != 0 {
		t.Errorf("defaults changed: %+v", p)
	}
	// Every tiktoken encoding counts the definition as o200k_base does:
	// a scenario naming one keeps the default without loading its ranks
	// (scenarios' searchToolTokens recounts under bytes/N only).
	for _, enc := range tokens.Encodings {
		c, err := tokens.ByName(enc)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Count(SearchToolDefinition()); got != p.SearchToolTokens {
			t.Errorf("tool_search definition is %d %s tokens, SearchToolTokens = %d", got, enc, p.SearchToolTokens)
		}
	}
}
