package importers_test

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestCallsWithoutContentCounted pins that the import counts the tool
// calls whose arguments and whose result the source did not record (an
// OpenTelemetry export without content capture, the conventions'
// default: execute_tool spans without gen_ai.tool.call.arguments or
// gen_ai.tool.call.result), and says what a replay does with them: it
// validates no call whose arguments were not recorded (written
// args_unrecorded; it checked such a call as {}, and a stale warm entry
// counted it malformed on a required property) and adds no tokens for the
// result. They imported without a word. A call whose source records them
// is not counted. The calls without a recorded result are written
// result_unrecorded, which the replay counts; a recorded empty result is
// not (tau-bench's think: every run warned of those).
func TestCallsWithoutContentCounted(t *testing.T) {
	span := func(id, attrs string, start int) string {
		return `{"traceId":"t1","spanId":"` + id + `","name":"x","startTimeUnixNano":"175930920` + string(rune('0'+start)) +
			`000000000","endTimeUnixNano":"175930920` + string(rune('0'+start+1)) + `000000000","attributes":[` + attrs + `]}`
	}
	op := func(o string) string { return `{"key":"gen_ai.operation.name","value":{"stringValue":"` + o + `"}}` }
	kv := func(k, v string) string { return `,{"key":"` + k + `","value":{"stringValue":` + v + `}}` }
	tool := op("execute_tool") + kv("gen_ai.tool.name", `"mcp__fs__read"`)
	export := `{"resourceSpans":[{"scopeSpans":[{"spans":[` +
		span("a", op("chat"), 0) + "," +
		span("b", tool+kv("gen_ai.tool.call.id", `"c1"`), 2) + "," + // neither recorded
		span("c", tool+kv("gen_ai.tool.call.id", `"c2"`)+kv("gen_ai.tool.call.arguments", `"{\"path\":\"a\"}"`), 4) + "," + // arguments only
		span("d", tool+kv("gen_ai.tool.call.id", `"c3"`)+kv("gen_ai.tool.call.arguments", `"{}"`)+kv("gen_ai.tool.call.result", `"x"`), 6) + "," +
		span("e", tool+kv("gen_ai.tool.call.id", `"c4"`)+kv("gen_ai.tool.call.arguments", `"{}"`)+kv("gen_ai.tool.call.result", `""`), 8) + // an empty result, recorded
		`]}]}]}`
	rep, out := importText(t, "otel", export)
	if rep.ToolCalls != 4 || rep.CallsWithoutArgs != 1 || rep.CallsArgsUnrecorded != 1 || rep.CallsWithoutResult != 2 {
		t.Errorf("calls %d, without arguments %d (not recorded %d), without a result %d; want 4, 1 (1), 2",
			rep.ToolCalls, rep.CallsWithoutArgs, rep.CallsArgsUnrecorded, rep.CallsWithoutResult)
	}
	// The call whose span holds no arguments is written args_unrecorded,
	// so the replay validates it against no schema; the others are not.
	// The calls whose span holds no result are written result_unrecorded,
	// so the replay counts them (an unmarked empty result it does not).
	unrecorded, resUnrecorded := map[string]bool{}, map[string]bool{}
	r, err := traces.Open(out, traces.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range s.Events {
			if ev.Type == traces.ToolCall {
				unrecorded[ev.CallID] = ev.ArgsUnrecorded()
				resUnrecorded[ev.CallID] = ev.ResultUnrecorded()
			}
		}
	}
	if want := map[string]bool{"c1": true, "c2": false, "c3": false, "c4": false}; !maps.Equal(unrecorded, want) {
		t.Errorf("args_unrecorded by call = %v, want %v", unrecorded, want)
	}
	if want := map[string]bool{"c1": true, "c2": true, "c3": false, "c4": false}; !maps.Equal(resUnrecorded, want) {
		t.Errorf("result_unrecorded by call = %v, want %v", resUnrecorded, want)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tool calls whose arguments were not recorded:", "1 of 4", "calls_unchecked", "tool calls without a recorded result:", "2 of 4", "calls_result_unrecorded"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}

	rep, _ = importText(t, "openai-messages", `{"id":"s","messages":[{"role":"user","content":"hi"},`+
		`{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"read","arguments":"{}"}}]},`+
		`{"role":"tool","tool_call_id":"a","content":""},{"role":"assistant","content":"done"}]}`)
	if rep.CallsWithoutArgs != 0 || rep.CallsWithoutResult != 0 {
		t.Errorf("openai-messages with arguments {}: without arguments %d, without a result %d; want 0, 0", rep.CallsWithoutArgs, rep.CallsWithoutResult)
	}
}
