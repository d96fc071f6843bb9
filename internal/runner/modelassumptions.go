package runner

import (
	"fmt"

	"github.com/defersim/defersim/sim"
)

// notRead is the value of an assumption whose key the run does not read;
// its source says why (which value would make it read).
const notRead = "not read"

// modelAssumptions states every key of the model: name, context window,
// prices, each key of its cache block (a key its cache kind, a cache
// model of reg, does not read as notRead, with the reason, rather than
// its zero value as if it were in force) and the latency parameters, with
// lat, where they come from, as their source (the cached prefill rate as
// notRead without a prompt cache) and the context window, which every
// strategy reads (contextWindow).
func modelAssumptions(m sim.Model, lat string, reg *sim.Registry) []sim.Assumption {
	f := func(v float64) string { return fmt.Sprintf("%g", v) }
	a := []sim.Assumption{
		{Name: "model", Value: m.Name, Source: "scenario model"},
		{Name: "price.input_per_mtok", Value: f(m.Pricing.InputPerMTok), Source: "model pricing"},
		{Name: "price.output_per_mtok", Value: f(m.Pricing.OutputPerMTok), Source: "model pricing"},
		{Name: "cache.kind", Value: m.Cache.Kind, Source: "model cache"},
	}
	a = append(a, cacheAssumptions(m, reg)...)
	a = append(a, sim.Assumption{Name: "cache.scope", Value: "per session (no reuse across sessions)", Source: "engine"})
	l := m.Latency
	a = append(a,
		sim.Assumption{Name: "latency.overhead_ms", Value: f(l.OverheadMs), Source: lat},
		sim.Assumption{Name: "latency.prefill_tps", Value: f(l.PrefillTPS), Source: lat},
		cachedPrefill(m, f(l.CachedPrefillTPS), lat),
		sim.Assumption{Name: "latency.decode_tps", Value: f(l.DecodeTPS), Source: lat},
		sim.Assumption{Name: "latency.jitter_cv", Value: f(l.JitterCV), Source: lat})
	for _, k := range sim.RequestKinds() {
		a = append(a, sim.Assumption{Name: "latency.kind_ms." + k.String(), Value: f(l.Kinds.Of(k)), Source: lat})
	}
	return append(a, contextWindow(m))
}

// contextWindowSource is the source of the context_window assumption:
// what reads it. Every strategy does (its requests over the window are
// counted, sim.ContextOverflow), and a percent trigger also compares
// tokens with it. The text does not depend on the run's strategies, so a
// policy change of a trigger mode does not reword it (check would list
// the new wording as a change of assumptions).
const contextWindowSource = "model; every strategy's requests over it are counted (strategies[].context_overflow); a percent trigger, where a strategy has one, also compares tokens with it"

// contextWindow states model.context_window, which every strategy reads
// (contextWindowSource).
func contextWindow(m sim.Model) sim.Assumption {
	return sim.Assumption{Name: "context_window", Value: fmt.Sprint(m.ContextWindow), Source: contextWindowSource}
}

// cachedPrefill states latency.cached_prefill_tps, or notRead with the
// reason under a model without a prompt cache (sim.LatencyKeyUnread).
func cachedPrefill(m sim.Model, value, source string) sim.Assumption {
	const key = "latency.cached_prefill_tps"
	if why := sim.LatencyKeyUnread(m, key); why != "" {
		return sim.Assumption{Name: key, Value: notRead, Source: "model latency: " + why}
	}
	return sim.Assumption{Name: key, Value: value, Source: source}
}

// cacheAssumptions states each key of the model's cache block
// (sim.CacheKeys, in order) that its cache kind reads, and each it does
// not read as notRead with the reason. cache.lookback keeps the name its
// entry always had, cache.lookback_blocks.
func cacheAssumptions(m sim.Model, reg *sim.Registry) []sim.Assumption {
	c := m.Cache
	f := func(v float64) string { return fmt.Sprintf("%g", v) }
	layout, layoutSource := c.Layout, "model cache (a strategy's cache_layout overrides it)"
	if layout == "" {
		layout, layoutSource = sim.LayoutLastMessage, "model cache (the default: not set; a strategy's cache_layout overrides it)"
	}
	values := map[string]sim.Assumption{
		"cache.ttl_s":            {Name: "cache.ttl_s", Value: f(c.TTLSeconds), Source: "model cache"},
		"cache.min_tokens":       {Name: "cache.min_tokens", Value: fmt.Sprint(c.MinTokens), Source: "model cache"},
		"cache.breakpoints":      {Name: "cache.breakpoints", Value: fmt.Sprint(c.Breakpoints), Source: "model cache"},
		"cache.lookback":         {Name: "cache.lookback_blocks", Value: fmt.Sprint(c.Lookback), Source: "model cache"},
		"cache.layout":           {Name: "cache.layout", Value: layout, Source: layoutSource},
		"cache.step":             {Name: "cache.step", Value: fmt.Sprint(c.Step), Source: "model cache"},
		"cache.write_multiplier": {Name: "cache.write_multiplier", Value: f(c.WriteMultiplier), Source: "model cache"},
		"cache.read_multiplier":  {Name: "cache.read_multiplier", Value: f(c.ReadMultiplier), Source: "model cache"},
	}
	var a []sim.Assumption
	for _, key := range sim.CacheKeys() {
		v, ok := values[key]
		if !ok {
			continue // a key added to sim.CacheKeys without a value here: TestAssumptionsStateEveryKey fails
		}
		if why := reg.CacheKeyUnread(m, key); why != "" {
			v.Value, v.Source = notRead, "model cache: "+why
		}
		a = append(a, v)
	}
	return a
}
