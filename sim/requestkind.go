package sim

import "bytes"

// RequestKind says what a model request answers and what it returns, for
// the latency model's per-kind term (Latency.Kinds): models that reason
// before they answer spend hidden time that depends on the kind of
// request far more than on its visible tokens (docs/calibrate.md).
type RequestKind uint8

// Request kinds. A request opens a turn when no model request has been
// sent since the latest user message (or the session start); otherwise it
// follows tool results (or search results, a rejection, a nudge). It
// returns tool calls or only text. A repeat is a request of the second
// sort whose recorded tool calls are exactly those of the previous
// recorded request (same tools, byte-identical arguments, same order): an
// agent looping on one call.
const (
	KindTurnText RequestKind = iota
	KindTurnCall
	KindToolText
	KindToolCall
	KindRepeat
	NumRequestKinds
)

var requestKindNames = [NumRequestKinds]string{"turn_text", "turn_call", "tool_text", "tool_call", "repeat"}

// String is the kind's key in a latency block's kind_ms.
func (k RequestKind) String() string {
	if k < NumRequestKinds {
		return requestKindNames[k]
	}
	return "unknown"
}

// RequestKinds lists every kind in order.
func RequestKinds() []RequestKind {
	out := make([]RequestKind, NumRequestKinds)
	for i := range out {
		out[i] = RequestKind(i)
	}
	return out
}

// requestKind classifies a request: opensTurn, whether it returns tool
// calls, and whether it repeats the previous recorded request's calls.
func requestKind(opensTurn, calls, repeat bool) RequestKind {
	switch {
	case opensTurn && calls:
		return KindTurnCall
	case opensTurn:
		return KindTurnText
	case repeat:
		return KindRepeat
	case calls:
		return KindToolCall
	}
	return KindToolText
}

// KindMs is the time (ms) a latency model adds to the time to first token
// of each kind of request: hidden reasoning and whatever else the visible
// tokens do not account for. Zero everywhere (the default) leaves the
// formula as it was.
type KindMs struct {
	TurnText float64 `yaml:"turn_text,omitempty" json:"turn_text,omitempty"`
	TurnCall float64 `yaml:"turn_call,omitempty" json:"turn_call,omitempty"`
	ToolText float64 `yaml:"tool_text,omitempty" json:"tool_text,omitempty"`
	ToolCall float64 `yaml:"tool_call,omitempty" json:"tool_call,omitempty"`
	Repeat   float64 `yaml:"repeat,omitempty" json:"repeat,omitempty"`
}

// Of returns the term of kind k.
func (m *KindMs) Of(k RequestKind) float64 {
	switch k {
	case KindTurnText:
		return m.TurnText
	case KindTurnCall:
		return m.TurnCall
	case KindToolText:
		return m.ToolText
	case KindToolCall:
		return m.ToolCall
	case KindRepeat:
		return m.Repeat
	}
	return 0
}

// Set sets the term of kind k.
func (m *KindMs) Set(k RequestKind, v float64) {
	switch k {
	case KindTurnText:
		m.TurnText = v
	case KindTurnCall:
		m.TurnCall = v
	case KindToolText:
		m.ToolText = v
	case KindToolCall:
		m.ToolCall = v
	case KindRepeat:
		m.Repeat = v
	}
}

// TTFTMs is a request's time to first token without jitter: overhead,
// its kind's term, prefill of the uncached (and cache-written) tokens and
// cached prefill of the read ones (no term when none is read: a model
// without a prompt cache may leave the cached rate 0).
func (l *Latency) TTFTMs(k RequestKind, uncached, cacheRead int64) float64 {
	ms := l.OverheadMs + l.Kinds.Of(k) + float64(uncached)/l.PrefillTPS*1000
	if cacheRead == 0 {
		return ms
	}
	return ms + float64(cacheRead)/l.CachedPrefillTPS*1000
}

// DurationMs is a request's duration without jitter: its time to first
// token plus decoding of its output.
func (l *Latency) DurationMs(k RequestKind, uncached, cacheRead, output int64) float64 {
	return l.TTFTMs(k, uncached, cacheRead) + float64(output)/l.DecodeTPS*1000
}

// markRepeats sets Repeat on every model step whose tool calls are
// exactly those of the previous model step.
func markRepeats(n *Need) {
	var prev *Step
	for i := range n.Steps {
		st := &n.Steps[i]
		if st.Kind != StepModel {
			continue
		}
		st.Repeat = prev != nil && sameCalls(prev.Calls, st.Calls)
		prev = st
	}
}

// sameCalls reports whether two steps made the same tool calls: at least
// one, the same tools with byte-identical arguments, in the same order.
func sameCalls(a, b []Call) bool {
	if len(a) == 0 || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Tool != b[i].Tool || a[i].Server != b[i].Server || !bytes.Equal(a[i].Args, b[i].Args) {
			return false
		}
	}
	return true
}
