package runner

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// assumptions lists every parameter and modelling choice in force, so each
// reported number can say what produced it.
func assumptions(cfg Config, eng *sim.Engine) []sim.Assumption {
	m, p := cfg.Model, cfg.Params
	f := func(v float64) string { return fmt.Sprintf("%g", v) }
	a := []sim.Assumption{
		{Name: "tokenizer", Value: p.Tokenizer, Source: "scenario params.tokenizer"},
		{Name: "model", Value: m.Name, Source: "scenario model"},
		{Name: "price.input_per_mtok", Value: f(m.Pricing.InputPerMTok), Source: "model pricing"},
		{Name: "price.output_per_mtok", Value: f(m.Pricing.OutputPerMTok), Source: "model pricing"},
		{Name: "cache.kind", Value: m.Cache.Kind, Source: "model cache"},
		{Name: "cache.ttl_s", Value: f(m.Cache.TTLSeconds), Source: "model cache"},
		{Name: "cache.min_tokens", Value: fmt.Sprint(m.Cache.MinTokens), Source: "model cache"},
		{Name: "cache.breakpoints", Value: fmt.Sprint(m.Cache.Breakpoints), Source: "model cache"},
		{Name: "cache.lookback_blocks", Value: fmt.Sprint(m.Cache.Lookback), Source: "model cache"},
		{Name: "cache.write_multiplier", Value: f(m.Cache.WriteMultiplier), Source: "model cache"},
		{Name: "cache.read_multiplier", Value: f(m.Cache.ReadMultiplier), Source: "model cache"},
		{Name: "cache.scope", Value: "per session (no reuse across sessions)", Source: "engine"},
		{Name: "latency.overhead_ms", Value: f(m.Latency.OverheadMs), Source: "model latency"},
		{Name: "latency.prefill_tps", Value: f(m.Latency.PrefillTPS), Source: "model latency"},
		{Name: "latency.cached_prefill_tps", Value: f(m.Latency.CachedPrefillTPS), Source: "model latency"},
		{Name: "latency.decode_tps", Value: f(m.Latency.DecodeTPS), Source: "model latency"},
		{Name: "latency.jitter_cv", Value: f(m.Latency.JitterCV), Source: "model latency"},
		{Name: "context_window", Value: fmt.Sprint(m.ContextWindow), Source: "model"},
		{Name: "message_overhead_tokens", Value: fmt.Sprint(p.MessageOverheadTokens), Source: "params"},
		{Name: "tool_overhead_tokens", Value: fmt.Sprint(p.ToolOverheadTokens), Source: "params"},
		{Name: "request_overhead_tokens", Value: fmt.Sprint(p.RequestOverheadTokens), Source: "params"},
		{Name: "search_tool_tokens", Value: fmt.Sprint(p.SearchToolTokens), Source: "params"},
		{Name: "default_tool_ms", Value: f(p.DefaultToolMs), Source: "params (used when a call has no recorded duration)"},
		{Name: "search_exec_ms", Value: f(p.SearchExecMs), Source: "params"},
		{Name: "user_think_ms", Value: f(p.UserThinkMs), Source: "params (used when a trace has no timestamps)"},
		{Name: "nudge_prob", Value: f(p.NudgeProb), Source: "params"},
		{Name: "nudge_tokens", Value: fmt.Sprint(p.NudgeTokens), Source: "params"},
		{Name: "cold_call_prob", Value: f(p.ColdCallProb), Source: "params"},
		{Name: "cold_call_well_formed_prob", Value: f(p.ColdCallWellFormedProb), Source: "params"},
		{Name: "select_prob", Value: f(p.SelectProb), Source: "params"},
		{Name: "bytes_per_token", Value: f(p.BytesPerToken), Source: "params (sizes-only results)"},
		{Name: "tool_calls_in_a_step", Value: "executed one after another", Source: "engine"},
		{Name: "distinct_schemas_counted", Value: fmt.Sprint(eng.Tools()), Source: "engine"},
	}
	return append(a, cfg.Notes...)
}

// catalogAssumptions states what tool fingerprints cover and, when any tool
// had a null or missing input schema, how many were read as
// {"type":"object"} and which.
func catalogAssumptions(c *catalog.Catalog, scope catalog.FingerprintScope) []sim.Assumption {
	a := []sim.Assumption{{Name: "catalog.fingerprint", Value: string(scope),
		Source: "scenario catalog_fingerprint (model: name, description, input schema; served: the whole tool)"}}
	if ws := catalog.Warnings(c.All()); len(ws) > 0 {
		a = append(a, sim.Assumption{Name: "catalog.schema_read_as_object",
			Value:  fmt.Sprintf("%d tool(s): %s", len(ws), strings.Join(ws, "; ")),
			Source: `catalog (a null or missing inputSchema is read as {"type":"object"})`})
	}
	return a
}
