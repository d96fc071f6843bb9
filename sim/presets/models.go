package presets

import (
	"errors"
	"fmt"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// Anthropic prompt-cache rules (REFERENCE §3).
const (
	anthropicTTL5m       = 300
	anthropicTTL1h       = 3600
	anthropicWrite5m     = 1.25
	anthropicWrite1h     = 2.0
	anthropicRead        = 0.1
	anthropicBreakpoints = 4
	anthropicLookback    = 20
	claudeContextWindow  = 200000
	openAIMinCacheable   = 1024
	openAICacheStep      = 128
	openAITTLAssumed     = 300
	gpt5ContextWindow    = 400000
	gpt4oContextWindow   = 128000
	gpt41ContextWindow   = 1047576
	anthropicMinSonnet45 = 1024
	anthropicMinOpus45   = 4096
	anthropicMinHaiku45  = 4096
	openAIReadGPT5       = 0.1
	openAIReadGPT4o      = 0.5
	openAIReadGPT41      = 0.25
	openAIWriteFree      = 1.0
)

// AnthropicLatency returns the default latency parameters for Anthropic
// models. They reproduce "11.5 s → 2.4 s time to first token at 100K
// tokens with caching" (REFERENCE §4) with a 1 s overhead:
// 1 + 100000/9500 = 11.53 s uncached, 1 + 100000/71000 = 2.41 s cached.
// The decode rate (60 tokens/s) is an assumption. docs/presets.md shows how
// this also yields the ~6 s extra first reply of a deferred opener.
func AnthropicLatency() sim.Latency {
	return sim.Latency{OverheadMs: 1000, PrefillTPS: 9500, CachedPrefillTPS: 71000, DecodeTPS: 60}
}

// OpenAILatency returns the default latency parameters for OpenAI models,
// fitted to the cookbook's "−7% at 1K tokens, −67% at 150K+" (REFERENCE §4)
// with the same uncached prefill rate as AnthropicLatency (an assumption):
// overhead 1 s, cached prefill 33,000 tokens/s.
func OpenAILatency() sim.Latency {
	return sim.Latency{OverheadMs: 1000, PrefillTPS: 9500, CachedPrefillTPS: 33000, DecodeTPS: 60}
}

type modelPreset struct {
	name  string
	build func() sim.Model
	// tokenizer is the model's own token counter, "" when the vendor does
	// not publish it (Claude: the scenario's tokenizer stands in).
	tokenizer string
}

func modelTable() []modelPreset {
	return []modelPreset{
		{"claude-sonnet-4.5", func() sim.Model { return claude(3, 15, anthropicMinSonnet45, false) }, ""},
		{"claude-sonnet-4.5-1h", func() sim.Model { return claude(3, 15, anthropicMinSonnet45, true) }, ""},
		{"claude-opus-4.5", func() sim.Model { return claude(5, 25, anthropicMinOpus45, false) }, ""},
		{"claude-opus-4.5-1h", func() sim.Model { return claude(5, 25, anthropicMinOpus45, true) }, ""},
		{"claude-haiku-4.5", func() sim.Model { return claude(1, 5, anthropicMinHaiku45, false) }, ""},
		{"claude-haiku-4.5-1h", func() sim.Model { return claude(1, 5, anthropicMinHaiku45, true) }, ""},
		// OpenAI prices are not in REFERENCE: they are the vendor's published
		// list prices (2025), an assumption to check before relying on dollars.
		{"gpt-5", func() sim.Model { return openAI(1.25, 10, gpt5ContextWindow, openAIReadGPT5) }, "o200k_base"},
		{"gpt-4.1", func() sim.Model { return openAI(2, 8, gpt41ContextWindow, openAIReadGPT41) }, "o200k_base"},
		{"gpt-4o", func() sim.Model { return openAI(2.50, 10, gpt4oContextWindow, openAIReadGPT4o) }, "o200k_base"},
	}
}

// OwnTokenizer returns the token counter the named model preset itself
// uses ("o200k_base" for the OpenAI presets; "" when its vendor does not
// publish one, as for Claude), and whether the name is a preset at all
// (vendor spellings resolve as in ResolveModel).
func OwnTokenizer(name string) (tokenizer string, ok bool) {
	canon, ok := ResolveModel(name)
	if !ok {
		return "", false
	}
	for _, p := range modelTable() {
		if p.name == canon {
			return p.tokenizer, true
		}
	}
	return "", false
}

// ModelNames lists the model presets in documentation order.
func ModelNames() []string {
	t := modelTable()
	out := make([]string, len(t))
	for i, p := range t {
		out[i] = p.name
	}
	return out
}

// Model returns a fresh copy of the named model preset. The name may be
// spelled as a vendor or a router spells it (see ResolveModel); the
// returned model carries the preset's own name.
func Model(name string) (sim.Model, error) {
	canon, ok := ResolveModel(name)
	if !ok {
		return sim.Model{}, errors.New(catalog.NearName(name, ModelNames()).WithHint(fmt.Sprintf("unknown model preset %q (known: %s)", name, strings.Join(ModelNames(), ", "))))
	}
	for _, p := range modelTable() {
		if p.name == canon {
			m := p.build()
			m.Name = p.name
			return m, nil
		}
	}
	panic("unreachable: ResolveModel returned a name not in the table")
}

// claude builds an Anthropic model: prices per million tokens, minimum
// cacheable prefix, and the 5-minute or 1-hour cache. Claude's tokenizer is
// not public: every Claude preset is counted with the scenario's tokenizer
// (o200k_base by default) as a stand-in (docs/presets.md).
func claude(in, out float64, minTokens int64, oneHour bool) sim.Model {
	c := sim.CacheConfig{
		Kind:            "anthropic",
		TTLSeconds:      anthropicTTL5m,
		MinTokens:       minTokens,
		Breakpoints:     anthropicBreakpoints,
		Lookback:        anthropicLookback,
		WriteMultiplier: anthropicWrite5m,
		ReadMultiplier:  anthropicRead,
	}
	if oneHour {
		c.TTLSeconds = anthropicTTL1h
		c.WriteMultiplier = anthropicWrite1h
	}
	return sim.Model{
		ContextWindow: claudeContextWindow,
		Pricing:       sim.Pricing{InputPerMTok: in, OutputPerMTok: out},
		Cache:         c,
		Latency:       AnthropicLatency(),
	}
}

// openAI builds an OpenAI model with automatic prefix caching: free writes
// (before GPT-5.6), 1,024-token minimum, 128-token steps.
func openAI(in, out float64, window int64, read float64) sim.Model {
	return sim.Model{
		ContextWindow: window,
		Pricing:       sim.Pricing{InputPerMTok: in, OutputPerMTok: out},
		Cache: sim.CacheConfig{
			Kind:            "openai",
			TTLSeconds:      openAITTLAssumed,
			MinTokens:       openAIMinCacheable,
			Step:            openAICacheStep,
			WriteMultiplier: openAIWriteFree,
			ReadMultiplier:  read,
		},
		Latency: OpenAILatency(),
	}
}
