package importers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
)

// otelSpan is one OTLP span line of the split-trace tests: a chat span
// (op "chat") whose output names call id cid, or the execute_tool span of
// that call, in trace "t1" of conversation conv-1 when conv is set.
func otelSpan(id, op, cid string, start int, conv bool) string {
	attrs := `{"key":"gen_ai.operation.name","value":{"stringValue":"` + op + `"}}`
	switch op {
	case "chat":
		attrs += `,{"key":"gen_ai.usage.input_tokens","value":{"stringValue":"900"}},{"key":"gen_ai.usage.output_tokens","value":{"intValue":"30"}}` +
			`,{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"` + cid + `\",\"name\":\"mcp__fs__read\",\"arguments\":{}}]}]"}}`
	case "execute_tool":
		attrs += `,{"key":"gen_ai.tool.name","value":{"stringValue":"mcp__fs__read"}},{"key":"gen_ai.tool.call.id","value":{"stringValue":"` + cid + `"}}` +
			`,{"key":"gen_ai.tool.call.result","value":{"stringValue":"ok"}}`
	}
	if conv {
		attrs += `,{"key":"gen_ai.conversation.id","value":{"stringValue":"conv-1"}}`
	}
	ns := func(s int) string { return `"17593092` + string(rune('0'+s)) + `0000000000"` }
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"t1","spanId":"` + id + `","name":"` + op +
		`","startTimeUnixNano":` + ns(start) + `,"endTimeUnixNano":` + ns(start+1) + `,"attributes":[` + attrs + `]}]}]}]}`
}

// TestTraceSplitOverFiles pins that the spans of one trace split over two
// input files (a collector's file exporter rotating its file) import as
// one session, the same as the files joined into one: each file was
// grouped alone, so the trace became two sessions, one under its
// gen_ai.conversation.id and one under its trace id, with the chat span's
// call in one and its execute_tool result in the other (two calls, one
// without a result), exit 0. A span given twice (the same file twice,
// overlapping exports) stops the import, naming both places.
func TestTraceSplitOverFiles(t *testing.T) {
	dir := t.TempDir()
	// File a holds the second chat span and the first call's result; file
	// b the first chat span (with the conversation id) and the second
	// call's result: out of order, and each half of the trace in each.
	a := otelSpan("s3", "chat", "c2", 4, false) + "\n" + otelSpan("s2", "execute_tool", "c1", 2, false) + "\n"
	b := otelSpan("s1", "chat", "c1", 0, true) + "\n" + otelSpan("s4", "execute_tool", "c2", 6, false) + "\n"
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pa, pb, pj := write("a.jsonl", a), write("b.jsonl", b), write("joined.jsonl", a+b)
	read := func(inputs ...string) ([]*traces.Session, string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "t.jsonl")
		rep, err := importers.Run(importers.Request{Format: "otel", Inputs: inputs, Out: out})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Sessions != 1 || rep.ToolCalls != 2 {
			t.Errorf("%d sessions, %d tool calls; want 1 and 2", rep.Sessions, rep.ToolCalls)
		}
		sessions, _, err := traces.ReadAll(out)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return sessions, string(data)
	}
	sessions, split := read(pa, pb)
	if len(sessions) != 1 || sessions[0].ID != "conv-1" {
		t.Fatalf("sessions = %d (first %q), want one, conv-1", len(sessions), sessions[0].ID)
	}
	var results int
	for _, ev := range sessions[0].Events {
		if ev.Type == traces.ToolCall && ev.Status == "ok" {
			results++
		}
	}
	if results != 2 {
		t.Errorf("%d calls with a result, want 2", results)
	}
	if _, joined := read(pj); !cmp.Equal(split, joined) {
		t.Errorf("split over two files differs from the files joined:\n%s", cmp.Diff(joined, split))
	}

	_, err := importers.Run(importers.Request{Format: "otel", Inputs: []string{pa, pb, pa}, Out: filepath.Join(dir, "twice.jsonl")})
	for _, want := range []string{`a.jsonl: line 1: resourceSpans[0].scopeSpans[0].spans[0]: span "s3" of trace "t1" is also at a.jsonl: line 1:`,
		"Import each span once; nothing was written"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a file given twice: err = %v, want it to hold %q", err, want)
		}
	}
	if _, serr := os.Stat(filepath.Join(dir, "twice.jsonl")); serr == nil {
		t.Error("a failed import wrote its trace")
	}
}

// TestSpanWithoutIDReadTwice pins that a span without a trace or span id
// read from two inputs (a file given twice) stops the import, as one with
// ids does: the check keyed spans by their ids and skipped these, so the
// file given twice was imported with every such span counted twice, exit
// 0. Such spans are compared by content (every member, resource and
// scope) across files; one file alone imports as before.
func TestSpanWithoutIDReadTwice(t *testing.T) {
	dir := t.TempDir()
	noIDs := func(s string) string {
		return strings.NewReplacer(`"traceId":"t1",`, ``, `"spanId":"s1",`, `"spanId":"",`, `"spanId":"s2",`, ``).Replace(s)
	}
	data := noIDs(otelSpan("s1", "chat", "c1", 0, true) + "\n" + otelSpan("s2", "execute_tool", "c1", 2, true) + "\n")
	if strings.Contains(data, `"t1"`) || strings.Contains(data, `"s1"`) {
		t.Fatalf("the spans still have ids: %s", data)
	}
	// other differs from data in one span's times only: no repeat.
	other := noIDs(otelSpan("s1", "chat", "c1", 4, true) + "\n")
	p := filepath.Join(dir, "a.jsonl")
	po := filepath.Join(dir, "o.jsonl")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(po, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := importers.Run(importers.Request{Format: "otel", Inputs: []string{p, po}, Out: filepath.Join(dir, "once.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sessions != 1 || rep.ToolCalls != 2 {
		t.Errorf("once: %d sessions, %d tool calls; want 1 and 2", rep.Sessions, rep.ToolCalls)
	}
	out := filepath.Join(dir, "twice.jsonl")
	_, err = importers.Run(importers.Request{Format: "otel", Inputs: []string{p, po, p}, Out: out})
	want := `a.jsonl: line 1: resourceSpans[0].scopeSpans[0].spans[0]: span "chat" (no trace or span id), the same in every member, is also at a.jsonl: line 1: `
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("a file given twice: err = %v, want it to hold %q", err, want)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Error("a failed import wrote its trace")
	}
}
