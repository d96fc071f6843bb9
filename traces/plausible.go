package traces

import "fmt"

// Bounds beyond which a recorded count or duration is implausible: no
// model request reads or writes a billion tokens, and no request or tool
// call lasts 11.6 days. Such a value (2^63−1 from a counter that wrapped,
// a unit mistake) is kept, since it is valid JSON and not negative, but it
// would dominate every cost and latency figure: the reader counts it
// (Counts.Implausible) and the commands warn, naming the file and line.
const (
	MaxPlausibleTokens = 1e9
	MaxPlausibleMs     = 1e9
)

// implausible describes the first implausible value of ev ("" if none).
func implausible(ev *Event) string {
	if plausibleAtAGlance(ev) {
		return ""
	}
	check := func(field string, v int64, max float64, unit string) string {
		if float64(v) > max {
			return fmt.Sprintf("field %q: %d %s is implausible (over %g)", field, v, unit, max)
		}
		return ""
	}
	for _, c := range []struct {
		field string
		v     int64
		max   float64
		unit  string
	}{
		{"system_prompt_tokens", ev.SystemPromptTokens(), MaxPlausibleTokens, "tokens"},
		{"text_tokens", ev.TextTokens, MaxPlausibleTokens, "tokens"},
		{"result_tokens", ev.ResultTokens, MaxPlausibleTokens, "tokens"},
		{"result_bytes", ev.ResultBytes, 4 * MaxPlausibleTokens, "bytes"},
		{"ttft_ms", ev.TTFTMs, MaxPlausibleMs, "ms"},
		{"duration_ms", ev.DurationMs, MaxPlausibleMs, "ms"},
	} {
		if r := check(c.field, c.v, c.max, c.unit); r != "" {
			return r
		}
	}
	if u := ev.Usage; u != nil {
		for _, c := range []struct {
			field string
			v     int64
		}{{"usage.input", u.Input}, {"usage.cache_read", u.CacheRead}, {"usage.cache_write", u.CacheWrite}, {"usage.output", u.Output}} {
			if r := check(c.field, c.v, MaxPlausibleTokens, "tokens"); r != "" {
				return r
			}
		}
	}
	return ""
}

// plausibleAtAGlance reports whether no count or duration of ev is over
// the lowest bound above, so that none can be implausible: true for
// almost every line, and cheaper than naming the field that is not.
func plausibleAtAGlance(ev *Event) bool {
	const lowest = min(MaxPlausibleTokens, MaxPlausibleMs)
	m := max(ev.SystemPromptTokens(), ev.TextTokens, ev.ResultTokens, ev.ResultBytes, ev.TTFTMs, ev.DurationMs)
	if u := ev.Usage; u != nil {
		m = max(m, u.Input, u.CacheRead, u.CacheWrite, u.Output)
	}
	return m <= lowest
}
