package scenarios

import (
	"testing"
)

// TestCacheKeysTheKindDoesNotRead pins that a cache key the file writes,
// non-zero, that the model's cache kind does not read (breakpoints or
// lookback under openai, step under anthropic, any key under none) stops
// the load at its line, and so does latency.cached_prefill_tps under none
// (it loaded, and only results.json said it was not read); zeros, keys a
// preset brings and keys the kind reads load.
func TestCacheKeysTheKindDoesNotRead(t *testing.T) {
	const openaiReads = `cache "openai" reads cache.ttl_s, cache.min_tokens, cache.step, cache.write_multiplier, cache.read_multiplier`
	const noneReads = `cache "none" reads no cache key (no prompt cache: every input token is uncached)`
	const fix = " (remove it, or choose a cache.kind that reads it)"
	tests := []struct {
		name, model string
		want        string // "" loads
	}{
		{"openai breakpoints", "model:\n  preset: gpt-4o\n  cache: {breakpoints: 2}\n",
			`scen.yaml:3: model.cache.breakpoints: 2 changes nothing: ` + openaiReads + `; cache.breakpoints is read by cache "anthropic"` + fix},
		{"openai lookback", "model:\n  preset: gpt-5\n  cache:\n    lookback: 5\n",
			`scen.yaml:4: model.cache.lookback: 5 changes nothing: ` + openaiReads + `; cache.lookback is read by cache "anthropic"` + fix},
		{"anthropic step", "model: {preset: claude-sonnet-4.5, cache: {step: 64}}\n",
			`scen.yaml:1: model.cache.step: 64 changes nothing: cache "anthropic" reads cache.ttl_s, cache.min_tokens, cache.breakpoints, cache.layout, cache.lookback, cache.write_multiplier, cache.read_multiplier; cache.step is read by cache "openai"` + fix},
		{"none ttl", "model:\n  preset: claude-sonnet-4.5\n  cache:\n    kind: none\n    ttl_s: 3600\n",
			`scen.yaml:5: model.cache.ttl_s: 3600 changes nothing: ` + noneReads + `; cache.ttl_s is read by cache "anthropic", cache "openai"` + fix},
		{"none write multiplier", "model: {preset: gpt-4o, cache: {kind: none, write_multiplier: 2}}\n",
			`scen.yaml:1: model.cache.write_multiplier: 2 changes nothing: ` + noneReads + `; cache.write_multiplier is read by cache "anthropic", cache "openai"` + fix},
		{"none min tokens", "model: {preset: gpt-4o, cache: {kind: none, min_tokens: 10}}\n",
			`scen.yaml:1: model.cache.min_tokens: 10 changes nothing: ` + noneReads + `; cache.min_tokens is read by cache "anthropic", cache "openai"` + fix},
		// The openai cache reports the tokens it writes: write_multiplier prices them.
		{"openai write multiplier", "model: {preset: gpt-4o, cache: {write_multiplier: 1.25, ttl_s: 3600, min_tokens: 2048}}\n", ""},
		{"anthropic min tokens", "model: {preset: claude-sonnet-4.5, cache: {min_tokens: 2048, layout: current-user}}\n", ""},
		{"zero is not a setting", "model: {preset: gpt-4o, cache: {kind: none, ttl_s: 0, breakpoints: 0}}\n", ""},
		{"a preset's own keys", "model: {preset: claude-sonnet-4.5, cache: {kind: none}}\n", ""},
		{"a preset's keys under another kind", "model: {preset: claude-sonnet-4.5, cache: {kind: openai, step: 128}}\n", ""},
		// The cached prefill rate is a latency key only a prompt cache reads.
		{"none cached prefill rate", "model: {preset: claude-sonnet-4.5, cache: {kind: none}, latency: {cached_prefill_tps: 50000}}\n",
			`scen.yaml:1: model.latency.cached_prefill_tps: 50000 changes nothing: the model's cache.kind is none: no token is ever read from a prompt cache, so the cached prefill rate is never applied` + fix},
		{"none cached prefill rate 0", "model: {preset: gpt-4o, cache: {kind: none}, latency: {cached_prefill_tps: 0}}\n", ""},
		{"none, other latency keys", "model: {preset: gpt-4o, cache: {kind: none}, latency: {prefill_tps: 5000, overhead_ms: 200}}\n", ""},
		{"openai cached prefill rate", "model: {preset: gpt-4o, latency: {cached_prefill_tps: 50000}}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(t, tt.model+"strategies: [eager]\n")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestInlineModelGivesEveryPriceAndCacheSetting pins that a model written
// without a preset must write both prices, latency.overhead_ms and every
// setting without a default its cache kind reads: left out, each was a
// silent 0 (free tokens, free cache writes).
func TestInlineModelGivesEveryPriceAndCacheSetting(t *testing.T) {
	const lat = "  latency: {overhead_ms: 50, prefill_tps: 2000, cached_prefill_tps: 2000, decode_tps: 30}\n"
	const latNone = "  latency: {overhead_ms: 50, prefill_tps: 2000, decode_tps: 30}\n"
	const rate = ": 0: want a positive rate in tokens per second"
	const price = "  pricing: {input_per_mtok: 0, output_per_mtok: 0}\n"
	const msg = ": missing: a model without a preset gives both prices, latency.overhead_ms and every setting its cache.kind reads (0 is a value: write it)"
	tests := []struct {
		name, model string
		want        string
	}{
		{"no pricing", "  cache: {kind: none}\n" + latNone, "scen.yaml:2: model.pricing.input_per_mtok" + msg},
		{"no output price", "  pricing: {input_per_mtok: 1}\n  cache: {kind: none}\n" + latNone, "scen.yaml:4: model.pricing.output_per_mtok" + msg},
		{"no overhead", price + "  cache: {kind: none}\n  latency: {prefill_tps: 2000, decode_tps: 30}\n",
			"scen.yaml:6: model.latency.overhead_ms" + msg},
		{"anthropic cache without multipliers", price + "  cache: {kind: anthropic, ttl_s: 300, min_tokens: 1024, breakpoints: 4, lookback: 20}\n" + lat,
			"scen.yaml:5: model.cache.write_multiplier" + msg},
		{"openai cache without min_tokens", price + "  cache: {kind: openai, ttl_s: 300, step: 128, write_multiplier: 1, read_multiplier: 0.5}\n" + lat,
			"scen.yaml:5: model.cache.min_tokens" + msg},
		// Under none the cached prefill rate is never applied: it is not
		// demanded, and writing it is refused (TestCacheKeysTheKindDoesNotRead).
		{"complete, no cache", price + "  cache: {kind: none}\n" + latNone, ""},
		{"no cache, the cached rate written", price + "  cache: {kind: none}\n" + lat,
			"scen.yaml:6: model.latency.cached_prefill_tps: 2000 changes nothing: the model's cache.kind is none: no token is ever read from a prompt cache, so the cached prefill rate is never applied (remove it, or choose a cache.kind that reads it)"},
		{"openai cache without the cached rate", price + "  cache: {kind: openai, ttl_s: 300, min_tokens: 0, step: 128, write_multiplier: 1, read_multiplier: 0.5}\n" + latNone,
			"scen.yaml:6: model.latency.cached_prefill_tps" + rate},
		{"complete, openai cache", price + "  cache: {kind: openai, ttl_s: 300, min_tokens: 0, step: 128, write_multiplier: 1, read_multiplier: 0.5}\n" + lat, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(t, "model:\n  name: local\n  context_window: 32000\n"+tt.model+"strategies: [eager]\n")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestCheckParamsRefusesAParamItsOtherValuesLeaveUnread pins that a param
// the file writes (neither 0 nor its default) that the other values leave
// unread — nudge_tokens while nudge_prob is 0, cold_call_well_formed_prob
// while cold_call_prob is 0, cache_warm_start without a prompt cache — is
// refused with its line, unless the sweep varies the value that makes it
// read.
func TestCheckParamsRefusesAParamItsOtherValuesLeaveUnread(t *testing.T) {
	tests := []struct {
		name, text, swept string
		want              string
	}{
		{"nudge tokens without nudges", "params:\n  nudge_tokens: 100\n", "",
			"scen.yaml:2: params.nudge_tokens: 100 changes nothing: params.nudge_prob is 0: no nudge is drawn, so its tokens are never counted (remove it, or set or sweep params.nudge_prob)"},
		{"nudge tokens, nudge_prob swept", "params:\n  nudge_tokens: 100\n", "params.nudge_prob", ""},
		{"nudge tokens, another key swept", "params:\n  nudge_tokens: 100\n", "params.cold_call_prob",
			"scen.yaml:2: params.nudge_tokens: 100 changes nothing: params.nudge_prob is 0: no nudge is drawn, so its tokens are never counted (remove it, or set or sweep params.nudge_prob)"},
		{"nudge tokens with nudges", "params: {nudge_tokens: 100, nudge_prob: 0.1}\n", "", ""},
		{"nudge tokens at the default", "params: {nudge_tokens: 40}\n", "", ""},
		{"well-formed share without cold calls", "params: {cold_call_well_formed_prob: 0.9}\n", "",
			"scen.yaml:1: params.cold_call_well_formed_prob: 0.9 changes nothing: params.cold_call_prob is 0: the model never calls a cold tool, so whether such a call is well formed is never drawn (remove it, or set or sweep params.cold_call_prob)"},
		{"well-formed share with cold calls", "params: {cold_call_well_formed_prob: 0.9, cold_call_prob: 0.1}\n", "", ""},
		{"warm start without a cache", "model: {preset: gpt-4o, cache: {kind: none}}\nparams: {cache_warm_start: 0.5}\n", "params.cache_warm_start",
			"scen.yaml:2: params.cache_warm_start: 0.5 changes nothing: the model's cache.kind is none: there is no prompt cache to find warm (remove it, or change model.cache.kind)"},
		{"warm start with a cache", "params: {cache_warm_start: 0.5}\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.text+"strategies: [eager]\n")
			got := ""
			if err := s.CheckParams(tt.swept); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
