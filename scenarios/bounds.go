package scenarios

import (
	"fmt"

	"github.com/defersim/defersim/sim"
)

// Bounds on scenario numbers, checked when a scenario is loaded (with its
// file and line) and when a sweep sets a value. A value within sim's own
// rules (positive, finite) can still overflow a replay: a decode rate of
// 1e-300 tokens/s makes every request last +Inf ms, a price of 1e308 turns a
// day's cost into +Inf. Within these bounds every per-request time, token
// count and cost of a session of up to 10^6 requests of 10^9 tokens each,
// and their sums over 10^9 sessions, stay finite float64s; the bounds are
// far outside any real model.
const (
	// MaxQuantity bounds times (ms, s), prices ($/MTok), multipliers and
	// token counts of the model and params.
	MaxQuantity = 1e12
	// MinRate and MaxRate bound rates (tokens per second) and
	// bytes_per_token (when set).
	MinRate, MaxRate = 1e-3, 1e12
	// MaxJitterCV bounds latency.jitter_cv.
	MaxJitterCV = 100.0
)

// CheckBounds returns the first model or params value outside the bounds,
// as a *sim.FieldError relative to "model" (m) or "params" (p); prefix
// says which ("model" or "params").
func CheckBounds(m sim.Model, p sim.Params) (prefix string, err error) {
	type f struct {
		name   string
		v      float64
		lo, hi float64
		zeroOK bool
	}
	for _, x := range []f{
		{"pricing.input_per_mtok", m.Pricing.InputPerMTok, 0, MaxQuantity, true},
		{"pricing.output_per_mtok", m.Pricing.OutputPerMTok, 0, MaxQuantity, true},
		{"cache.ttl_s", m.Cache.TTLSeconds, 0, MaxQuantity, true},
		{"cache.write_multiplier", m.Cache.WriteMultiplier, 0, MaxQuantity, true},
		{"cache.read_multiplier", m.Cache.ReadMultiplier, 0, MaxQuantity, true},
		{"context_window", float64(m.ContextWindow), 0, MaxQuantity, true},
		{"latency.overhead_ms", m.Latency.OverheadMs, 0, MaxQuantity, true},
		{"latency.prefill_tps", m.Latency.PrefillTPS, MinRate, MaxRate, false},
		{"latency.cached_prefill_tps", m.Latency.CachedPrefillTPS, MinRate, MaxRate, sim.LatencyKeyUnread(m, "latency.cached_prefill_tps") != ""},
		{"latency.decode_tps", m.Latency.DecodeTPS, MinRate, MaxRate, false},
		{"latency.jitter_cv", m.Latency.JitterCV, 0, MaxJitterCV, true},
	} {
		if e := outside(x.name, x.v, x.lo, x.hi, x.zeroOK); e != nil {
			return "model", e
		}
	}
	for _, k := range sim.RequestKinds() {
		if e := outside("latency.kind_ms."+k.String(), m.Latency.Kinds.Of(k), 0, MaxQuantity, true); e != nil {
			return "model", e
		}
	}
	for _, x := range []f{
		{"message_overhead_tokens", float64(p.MessageOverheadTokens), 0, MaxQuantity, true},
		{"tool_overhead_tokens", float64(p.ToolOverheadTokens), 0, MaxQuantity, true},
		{"request_overhead_tokens", float64(p.RequestOverheadTokens), 0, MaxQuantity, true},
		{"search_tool_tokens", float64(p.SearchToolTokens), 0, MaxQuantity, true},
		{"nudge_tokens", float64(p.NudgeTokens), 0, MaxQuantity, true},
		{"default_tool_ms", p.DefaultToolMs, 0, MaxQuantity, true},
		{"search_exec_ms", p.SearchExecMs, 0, MaxQuantity, true},
		{"user_think_ms", p.UserThinkMs, 0, MaxQuantity, true},
		{"connect_ms", p.ConnectMs, 0, MaxQuantity, true},
		{"list_ms", p.ListMs, 0, MaxQuantity, true},
		{"bytes_per_token", p.BytesPerToken, MinRate, MaxRate, true},
	} {
		if e := outside(x.name, x.v, x.lo, x.hi, x.zeroOK); e != nil {
			return "params", e
		}
	}
	return "", nil
}

func outside(name string, v, lo, hi float64, zeroOK bool) error {
	if (zeroOK && v == 0) || (v >= lo && v <= hi) {
		return nil
	}
	msg := "%v is outside [%g, %g]: it would overflow the replay's times, tokens or costs"
	if zeroOK && lo > 0 {
		msg = "%v is outside [%g, %g] (or 0): it would overflow the replay's times, tokens or costs"
	}
	return &sim.FieldError{Field: name, Msg: fmt.Sprintf(msg, v, lo, hi)}
}
