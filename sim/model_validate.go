package sim

import "math"

// Validate reports the first impossible value of a model as a *FieldError
// whose field is relative to the model ("cache.ttl_s").
func (m Model) Validate() error {
	if m.Name == "" {
		return fieldErr("name", "missing")
	}
	if m.ContextWindow <= 0 {
		return fieldErr("context_window", "%d: want a positive number of tokens", m.ContextWindow)
	}
	if err := nonNegative("pricing.input_per_mtok", m.Pricing.InputPerMTok); err != nil {
		return err
	}
	if err := nonNegative("pricing.output_per_mtok", m.Pricing.OutputPerMTok); err != nil {
		return err
	}
	if err := m.Cache.validate(); err != nil {
		return err
	}
	return m.Latency.validate()
}

func (c CacheConfig) validate() error {
	if err := oneOf("cache.kind", c.Kind, "anthropic", "openai", "none"); err != nil {
		return err
	}
	if c.MinTokens < 0 {
		return fieldErr("cache.min_tokens", "%d is negative", c.MinTokens)
	}
	if c.Breakpoints < 0 {
		return fieldErr("cache.breakpoints", "%d is negative", c.Breakpoints)
	}
	if c.Lookback < 0 {
		return fieldErr("cache.lookback", "%d is negative", c.Lookback)
	}
	if c.Step < 0 {
		return fieldErr("cache.step", "%d is negative", c.Step)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"cache.ttl_s", c.TTLSeconds}, {"cache.write_multiplier", c.WriteMultiplier}, {"cache.read_multiplier", c.ReadMultiplier}} {
		if err := nonNegative(f.name, f.v); err != nil {
			return err
		}
	}
	switch c.Kind {
	case "anthropic":
		if c.TTLSeconds == 0 {
			return fieldErr("cache.ttl_s", "0: an anthropic cache needs a positive TTL")
		}
		if c.Breakpoints == 0 {
			return fieldErr("cache.breakpoints", "0: an anthropic cache needs at least one breakpoint")
		}
		if c.Lookback == 0 {
			return fieldErr("cache.lookback", "0: an anthropic cache needs a positive lookback")
		}
	case "openai":
		if c.TTLSeconds == 0 {
			return fieldErr("cache.ttl_s", "0: an openai cache needs a positive TTL")
		}
		if c.Step == 0 {
			return fieldErr("cache.step", "0: an openai cache needs a positive step")
		}
	}
	return nil
}

func (l Latency) validate() error {
	if err := nonNegative("latency.overhead_ms", l.OverheadMs); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"latency.prefill_tps", l.PrefillTPS}, {"latency.cached_prefill_tps", l.CachedPrefillTPS}, {"latency.decode_tps", l.DecodeTPS}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return fieldErr(f.name, "%v: want a positive rate in tokens per second", f.v)
		}
	}
	return nonNegative("latency.jitter_cv", l.JitterCV)
}

// Validate reports the first impossible parameter as a *FieldError.
func (p Params) Validate() error {
	if err := ValidateCounter(p.Tokenizer); err != nil {
		return fieldErr("tokenizer", "%v", err)
	}
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"message_overhead_tokens", p.MessageOverheadTokens},
		{"tool_overhead_tokens", p.ToolOverheadTokens},
		{"request_overhead_tokens", p.RequestOverheadTokens},
		{"search_tool_tokens", p.SearchToolTokens},
		{"nudge_tokens", p.NudgeTokens},
	} {
		if f.v < 0 {
			return fieldErr(f.name, "%d is negative", f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"default_tool_ms", p.DefaultToolMs}, {"search_exec_ms", p.SearchExecMs}, {"user_think_ms", p.UserThinkMs},
		{"bytes_per_token", p.BytesPerToken},
		{"connect_ms", p.ConnectMs}, {"list_ms", p.ListMs},
	} {
		if err := nonNegative(f.name, f.v); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"nudge_prob", p.NudgeProb},
		{"cold_call_prob", p.ColdCallProb},
		{"cold_call_well_formed_prob", p.ColdCallWellFormedProb},
		{"select_prob", p.SelectProb},
		{"cache_warm_start", p.CacheWarmStart},
	} {
		if !(f.v >= 0 && f.v <= 1) {
			return fieldErr(f.name, "%v is outside [0,1]", f.v)
		}
	}
	switch p.QueryModel {
	case "", "auto", "user-text", "name-words":
	default:
		return fieldErr("query_model", "unknown query model %q (want auto|user-text|name-words)", p.QueryModel)
	}
	return nil
}

func nonNegative(field string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return fieldErr(field, "%v: want a finite number >= 0", v)
	}
	return nil
}
