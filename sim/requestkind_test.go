package sim

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestRequestKinds pins how the replay classifies requests for the latency
// model's per-kind term and what each kind adds: the first request of a
// turn, requests after tool results, a repeat of the previous request's
// exact calls (not one with other arguments), and, under deferral, the
// search round trip opening the turn so that the recorded request follows
// a tool result.
func TestRequestKinds(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}}, {Name: "defer", Trigger: always}},
		[]testTool{{"x", 100, 0}, {"y", 200, 0}})
	callArgs := func(tool, args string) Step {
		s := call(tool)
		s.Calls[0].Args = json.RawMessage(args)
		return s
	}
	n := &Need{SessionID: "k", SystemTokens: 1000, Steps: []Step{
		user(10), reply(), // turn_text
		user(10), callArgs("x", `{"a":1}`), // turn_call
		callArgs("x", `{"a":1}`),           // repeat
		callArgs("x", `{"a":2}`),           // tool_call: other arguments
		reply(),                            // tool_text
		user(10), callArgs("x", `{"a":2}`), // turn_call, though it repeats: the turn comes first
	}}
	kinds := func(o Outcome) []RequestKind {
		var out []RequestKind
		for _, r := range o.PerRequest {
			out = append(out, r.Kind)
		}
		return out
	}
	base := e.ReplayNeed(n)
	wantEager := []RequestKind{KindTurnText, KindTurnCall, KindRepeat, KindToolCall, KindToolText, KindTurnCall}
	if got := kinds(base[0]); !slices.Equal(got, wantEager) {
		t.Errorf("eager kinds %v, want %v", got, wantEager)
	}
	// Deferred: x is searched for before the second request (a turn_call
	// round trip), so the recorded request follows its result; the last
	// turn finds x warm.
	wantDefer := []RequestKind{KindTurnText, KindTurnCall, KindToolCall, KindRepeat, KindToolCall, KindToolText, KindTurnCall}
	if got := kinds(base[1]); !slices.Equal(got, wantDefer) {
		t.Errorf("deferred kinds %v, want %v", got, wantDefer)
	}

	// Each kind's term adds to exactly the requests of that kind.
	ms := KindMs{TurnText: 1, TurnCall: 20, ToolText: 300, ToolCall: 4000, Repeat: 50000}
	e.model.Latency.Kinds = ms
	with := e.ReplayNeed(n)
	for si, want := range [][]RequestKind{wantEager, wantDefer} {
		var add float64
		for _, k := range want {
			add += ms.Of(k)
		}
		if got := with[si].Values[MSessionMs] - base[si].Values[MSessionMs]; !approx(got, add) {
			t.Errorf("strategy %d: kind terms add %v ms to the session, want %v", si, got, add)
		}
	}
	// The first reply is the first request: only its turn_text term.
	if got := with[0].Values[MFirstReplyMs] - base[0].Values[MFirstReplyMs]; !approx(got, ms.TurnText) {
		t.Errorf("first reply grows by %v, want %v", got, ms.TurnText)
	}
}

// TestKindMsValidate pins that a negative kind term is refused with its key.
func TestKindMsValidate(t *testing.T) {
	m := testModel()
	m.Latency.Kinds.Repeat = -1
	err := m.Validate()
	fe, ok := err.(*FieldError)
	if !ok || fe.Field != "latency.kind_ms.repeat" {
		t.Fatalf("got %v, want a field error on latency.kind_ms.repeat", err)
	}
}

// TestFidelityPairWithoutUsage pins that a recorded request with a duration
// but no usage (a trace with timestamps only) still gets a fidelity pair,
// for its time: its prompt side is marked not recorded (-1), and it counts
// for latency but not for prompt tokens.
func TestFidelityPairWithoutUsage(t *testing.T) {
	e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}}}, []testTool{{"x", 100, 0}})
	e.fidelity = 0
	timed := reply()
	timed.Usage, timed.DurationMs = nil, 1500
	neither := reply()
	neither.Usage = nil
	used := reply()
	used.Usage = &traces.Usage{Input: 150, Output: 5}
	n := &Need{SessionID: "f", SystemTokens: 100, Steps: []Step{user(10), timed, user(10), neither, user(10), used}}
	r := newReplayer(e)
	var out Outcome
	r.run(compactNeed(n), 0, &out, true)
	if len(r.fid) != 2 {
		t.Fatalf("%d pairs, want 2 (the timed request and the one with usage): %+v", len(r.fid), r.fid)
	}
	if p := r.fid[0]; p.Request != 0 || p.RecordedInput != -1 || p.RecordedMs != 1500 || !(p.SimMs > 0) {
		t.Errorf("timed request's pair %+v", p)
	}
	if p := r.fid[1]; p.Request != 2 || p.RecordedInput <= 0 || p.RecordedMs != -1 {
		t.Errorf("pair with usage %+v", p)
	}
	f := SummarizeFidelity("eager", r.fid)
	if f.Requests != 1 || f.LatencyRequests != 1 {
		t.Errorf("summary %+v: want one prompt-token and one latency request", f)
	}
}
