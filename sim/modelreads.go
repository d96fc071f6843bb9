package sim

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/component"
)

// Which model and params keys a replay reads. A cache model declares the
// keys of the model's cache block it reads as its parameters (`defersim
// components`): anthropic reads cache.breakpoints, openai cache.step,
// none no key at all. A scenario that writes a cache key its cache kind
// does not read, and a sweep over one, are refused (scenarios,
// internal/plan): the value would change nothing. Some params are read
// only when another value allows it (ParamUnread), and latency.cached_prefill_tps
// only under a model with a prompt cache (LatencyKeyUnread).

// CacheKeys lists the keys of a model's cache block that a cache model may
// read, in the order of CacheConfig (cache.kind, which picks the model, is
// not one of them).
func CacheKeys() []string {
	return []string{"cache.ttl_s", "cache.min_tokens", "cache.breakpoints", "cache.lookback", "cache.layout",
		"cache.step", "cache.write_multiplier", "cache.read_multiplier"}
}

// CacheKeyUnread is Registry.CacheKeyUnread over the built-in components.
func (m Model) CacheKeyUnread(key string) string { return builtins.CacheKeyUnread(m, key) }

// CacheKeyUnread says why model m's cache does not read key, a key of its
// cache block ("cache.step"): its kind, a cache model of r, does not
// declare it while another cache model does — `cache "openai" reads
// cache.ttl_s, …; cache.breakpoints is read by cache "anthropic"`. It is
// "" when the kind reads the key, when no cache model declares the key
// (taken to be read), and when the kind is not registered (validation
// names it).
func (r *Registry) CacheKeyUnread(m Model, key string) string {
	kind, ok := r.lookup(component.Cache, m.Cache.Kind)
	if !ok {
		return ""
	}
	var readers []string
	for _, e := range r.kinds[component.Cache] {
		for _, p := range e.info.Params {
			if p.Name != key {
				continue
			}
			if e.info.Name == kind.info.Name {
				return ""
			}
			readers = append(readers, fmt.Sprintf("cache %q", e.info.Name))
		}
	}
	if len(readers) == 0 {
		return ""
	}
	reads := "reads no cache key (" + kind.info.Description + ")"
	if len(kind.info.Params) > 0 {
		names := make([]string, len(kind.info.Params))
		for i, p := range kind.info.Params {
			names[i] = p.Name
		}
		reads = "reads " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("cache %q %s; %s is read by %s", kind.info.Name, reads, key, strings.Join(readers, ", "))
}

// CacheNone is the cache kind of a model without a prompt cache.
const CacheNone = "none"

// LatencyKeys lists the rate and overhead keys of a model's latency block
// (the kind_ms terms, read by each request of their kind, are not among
// them).
func LatencyKeys() []string {
	return []string{"latency.overhead_ms", "latency.prefill_tps", "latency.cached_prefill_tps", "latency.decode_tps", "latency.jitter_cv"}
}

// LatencyKeyUnread says why model m does not read key, a key of its
// latency block ("latency.cached_prefill_tps"): under cache.kind none no
// token is ever read from a prompt cache (not even at a warm start, which
// finds no cache either), so the cached prefill rate times nothing; it may
// then be left out (0). "" when it is read.
func LatencyKeyUnread(m Model, key string) string {
	if key == "latency.cached_prefill_tps" && m.Cache.Kind == CacheNone {
		return fmt.Sprintf("the model's cache.kind is %s: no token is ever read from a prompt cache, so the cached prefill rate is never applied", CacheNone)
	}
	return ""
}

// ParamUnread says why the params key ("nudge_tokens") changes nothing
// with the other params p and the model m, and which value would make it
// read (on, as a sweep path: "params.nudge_prob"): nudge_tokens while
// nudge_prob is 0 (no nudge is drawn), cold_call_well_formed_prob while
// cold_call_prob is 0 (no cold call is made), cache_warm_start under a
// model without a prompt cache. why is "" when the key is read.
func ParamUnread(m Model, p Params, key string) (why, on string) {
	switch {
	case key == "nudge_tokens" && p.NudgeProb == 0:
		return "params.nudge_prob is 0: no nudge is drawn, so its tokens are never counted", "params.nudge_prob"
	case key == "cold_call_well_formed_prob" && p.ColdCallProb == 0:
		return "params.cold_call_prob is 0: the model never calls a cold tool, so whether such a call is well formed is never drawn", "params.cold_call_prob"
	case key == "cache_warm_start" && m.Cache.Kind == CacheNone:
		return fmt.Sprintf("the model's cache.kind is %s: there is no prompt cache to find warm", CacheNone), "model.cache.kind"
	}
	return "", ""
}

// InlineModelKeys is Registry.InlineModelKeys over the built-in components.
func (m Model) InlineModelKeys() []string { return builtins.InlineModelKeys(m) }

// InlineModelKeys lists the keys a model written without a preset must
// give, beyond those validation requires to be non-zero (name,
// context_window, cache.kind, the latency rates): both prices, the latency
// overhead, and every key of its cache block that its cache kind (in r)
// reads and declares no default for — for anthropic and openai caches
// cache.ttl_s, cache.min_tokens and both multipliers. Left out, each would
// be 0 (free tokens, no overhead, every prefix cacheable) without the
// scenario saying so.
func (r *Registry) InlineModelKeys(m Model) []string {
	out := []string{"pricing.input_per_mtok", "pricing.output_per_mtok", "latency.overhead_ms"}
	if kind, ok := r.lookup(component.Cache, m.Cache.Kind); ok {
		for _, p := range kind.info.Params {
			if p.Default == "" {
				out = append(out, p.Name)
			}
		}
	}
	return out
}
