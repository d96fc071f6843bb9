package sim

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/validation"
)

// TestUnrecordedArgsNotValidated pins that a call whose arguments the
// trace did not record (args_unrecorded, an OpenTelemetry export without
// content capture) is not validated against a changed schema: it counts in
// calls_unchecked, never as valid or malformed. It was validated as {} and
// counted malformed_missing_required under a stale seen schema that
// requires a property (the walk's 3 sessions: 3 malformed with the
// arguments not recorded, 0 with them). A call recorded without arguments
// (a tool taking none) keeps its meaning, {}; and a call whose result
// the trace did not record (result_unrecorded) counts in
// calls_result_unrecorded, its result adding 0 tokens, while an empty
// result not so marked (tau-bench's think) counts in nothing: every
// call without a result was counted, so every tau-bench run warned.
func TestUnrecordedArgsNotValidated(t *testing.T) {
	const v1 = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`
	const v2 = `{"type":"object","description":"v2","properties":{"id":{"type":"string"}},"required":["id"]}`
	for _, tc := range []struct {
		name                      string
		args                      string
		unrecorded, resUnrecorded bool
		result                    int64
		want                      want
	}{
		{"arguments recorded", `{"id":"1"}`, false, false, 20,
			want{MStaleWarmCalls: 1, MStaleValidCalls: 1, MMalformedCalls: 0, MCallsUnchecked: 0, MCallsResultUnrecorded: 0}},
		{"recorded without arguments", ``, false, false, 20,
			want{MStaleWarmCalls: 1, MStaleValidCalls: 0, MMalformedCalls: 1, MMalformedMissingRequired: 1, MCallsUnchecked: 0}},
		{"arguments not recorded", ``, true, false, 20,
			want{MStaleWarmCalls: 1, MStaleValidCalls: 0, MMalformedCalls: 0, MMalformedMissingRequired: 0, MCallsUnchecked: 1}},
		{"arguments and result not recorded", ``, true, true, 0,
			want{MStaleWarmCalls: 1, MMalformedCalls: 0, MCallsUnchecked: 1, MCallsResultUnrecorded: 2}},
		{"result empty, not marked", `{"id":"1"}`, false, false, 0,
			want{MStaleWarmCalls: 1, MStaleValidCalls: 1, MCallsUnchecked: 0, MCallsResultUnrecorded: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t, []Strategy{{Name: "name-keyed", Trigger: Trigger{Mode: "always"}, Warm: WarmSet{Key: "name"}}},
				[]testTool{{"a", 100, 0}})
			e.validator = validation.New()
			old := e.tables.byKey["s@1"]
			old.tools[0].schema = json.RawMessage(v1)
			c := *old.tools[0]
			c.fp, c.h, c.schema = "fp-a-v2", hashString("fp-a-v2"), json.RawMessage(v2)
			c.id = int32(len(e.tables.all))
			e.tables.all = append(e.tables.all, &c)
			e.tables.byKey["s@2"] = &serverTable{name: "s", version: "2", tools: []*Tool{&c}}
			e.computeFlags()
			callOf := func() Step {
				st := call("a")
				st.Calls[0].Args = json.RawMessage(tc.args)
				st.Calls[0].ArgsUnrecorded = tc.unrecorded
				st.Calls[0].ResultTokens = tc.result
				st.Calls[0].ResultUnrecorded = tc.resUnrecorded
				return st
			}
			steps := []Step{user(10), callOf(), reply(),
				{Kind: StepCatalogChange, Server: "s", Version: "2"},
				user(10), callOf(), reply()}
			check(t, tc.name, e.ReplayNeed(&Need{SessionID: "s1", SystemTokens: 100, Steps: steps})[0], tc.want)
		})
	}
}

// TestExtractNeedKeepsArgsUnrecorded pins that a tool_call's
// args_unrecorded reaches the replay, and only where the call has no
// arguments: recorded arguments are validated whatever the flag says.
func TestExtractNeedKeepsArgsUnrecorded(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ev := func(e traces.Event) traces.Event { e.Session, e.T = "s", t0; return e }
	unrecorded := &traces.ChangeFields{ArgsUnrecorded: true}
	s := &traces.Session{ID: "s", Events: []traces.Event{
		ev(traces.Event{Type: traces.SessionStart, V: 1}),
		ev(traces.Event{Type: traces.UserMessage, Text: "hi"}),
		ev(traces.Event{Type: traces.ModelRequest, ID: "r1"}),
		ev(traces.Event{Type: traces.ToolCall, Request: "r1", CallID: "c1", Tool: "a", Server: "s", ChangeFields: unrecorded}),
		ev(traces.Event{Type: traces.ToolCall, Request: "r1", CallID: "c2", Tool: "a", Server: "s", ChangeFields: unrecorded, Args: json.RawMessage(`{"id":"1"}`)}),
		ev(traces.Event{Type: traces.ToolCall, Request: "r1", CallID: "c3", Tool: "a", Server: "s"}),
	}}
	var got []bool
	for _, st := range ExtractNeed(s).Steps {
		for _, c := range st.Calls {
			got = append(got, c.ArgsUnrecorded)
		}
	}
	if len(got) != 3 || !got[0] || got[1] || got[2] {
		t.Errorf("ArgsUnrecorded of the calls = %v, want [true false false]", got)
	}
}

// TestExtractNeedKeepsResultUnrecorded pins that a tool_call's
// result_unrecorded reaches the replay, and only where the call has no
// result, result_bytes or result_tokens: a recorded result is counted
// whatever the flag says, and an unmarked call without a result (an empty
// result, as tau-bench's think returns) is not unrecorded.
func TestExtractNeedKeepsResultUnrecorded(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ev := func(e traces.Event) traces.Event { e.Session, e.T = "s", t0; return e }
	unrecorded := &traces.ChangeFields{ResultUnrecorded: true}
	call := func(id string, e traces.Event) traces.Event {
		e.Type, e.Request, e.CallID, e.Tool, e.Server = traces.ToolCall, "r1", id, "a", "s"
		return ev(e)
	}
	s := &traces.Session{ID: "s", Events: []traces.Event{
		ev(traces.Event{Type: traces.SessionStart, V: 1}),
		ev(traces.Event{Type: traces.UserMessage, Text: "hi"}),
		ev(traces.Event{Type: traces.ModelRequest, ID: "r1"}),
		call("c1", traces.Event{ChangeFields: unrecorded}),
		call("c2", traces.Event{ChangeFields: unrecorded, Result: "x"}),
		call("c3", traces.Event{ChangeFields: unrecorded, ResultBytes: 8}),
		call("c4", traces.Event{ChangeFields: unrecorded, ResultTokens: 2}),
		call("c5", traces.Event{}),
	}}
	var got []bool
	for _, st := range ExtractNeed(s).Steps {
		for _, c := range st.Calls {
			got = append(got, c.ResultUnrecorded)
		}
	}
	if want := []bool{true, false, false, false, false}; !slices.Equal(got, want) {
		t.Errorf("ResultUnrecorded of the calls = %v, want %v", got, want)
	}
}
