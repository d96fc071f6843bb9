package sim

import (
	"math"
	"strings"

	"github.com/defersim/defersim/component"
)

// Validate reports the first impossible value of a model as a *FieldError
// whose field is relative to the model ("cache.ttl_s"), with the cache
// model resolved against the built-in components.
func (m Model) Validate() error { return builtins.ValidateModel(m) }

// ValidateModel is Model.Validate with the cache model resolved in r.
func (r *Registry) ValidateModel(m Model) error {
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
	if err := r.validateCache(m.Cache); err != nil {
		return err
	}
	return m.Latency.validate(LatencyKeyUnread(m, "latency.cached_prefill_tps") != "")
}

func (r *Registry) validateCache(c CacheConfig) error {
	m, err := resolveAs[CacheModel](r, component.Cache, "cache.kind", c.Kind)
	if err != nil {
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
	return m.Check(c)
}

// validate checks the latency block; cachedUnread says the model never
// applies the cached prefill rate (LatencyKeyUnread), which may then be 0
// (left out) but not negative.
func (l Latency) validate(cachedUnread bool) error {
	if err := nonNegative("latency.overhead_ms", l.OverheadMs); err != nil {
		return err
	}
	for _, f := range []struct {
		name   string
		v      float64
		zeroOK bool
	}{{"latency.prefill_tps", l.PrefillTPS, false}, {"latency.cached_prefill_tps", l.CachedPrefillTPS, cachedUnread}, {"latency.decode_tps", l.DecodeTPS, false}} {
		if f.zeroOK && f.v == 0 {
			continue
		}
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return fieldErr(f.name, "%v: want a positive rate in tokens per second", f.v)
		}
	}
	if err := nonNegative("latency.jitter_cv", l.JitterCV); err != nil {
		return err
	}
	for _, k := range RequestKinds() {
		if err := nonNegative("latency.kind_ms."+k.String(), l.Kinds.Of(k)); err != nil {
			return err
		}
	}
	return nil
}

// Validate reports the first impossible parameter as a *FieldError, with
// the tokenizer and query model resolved against the built-in components.
func (p Params) Validate() error { return builtins.ValidateParams(p) }

// ValidateParams is Params.Validate with names resolved in r.
func (r *Registry) ValidateParams(p Params) error {
	if err := r.checkCounter(p.Tokenizer); err != nil {
		return fieldErr("tokenizer", "%v", err)
	}
	if !(p.TokenScale > 0) || math.IsInf(p.TokenScale, 0) {
		return fieldErr("token_scale", "%v: want a positive factor (1: counts as the tokenizer gives them)", p.TokenScale)
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
		{"relist_prob", p.RelistProb},
	} {
		if !(f.v >= 0 && f.v <= 1) {
			return fieldErr(f.name, "%v is outside [0,1]", f.v)
		}
	}
	if p.QueryModel == "" || p.QueryModel == queryAuto {
		return nil
	}
	if _, ok := r.lookup(component.QueryModel, p.QueryModel); !ok {
		return fieldErr("query_model", "unknown query model %q (want %s|%s)", p.QueryModel, queryAuto, strings.Join(r.Names(component.QueryModel), "|"))
	}
	return nil
}

func nonNegative(field string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return fieldErr(field, "%v: want a finite number >= 0", v)
	}
	return nil
}
