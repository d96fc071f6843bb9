package importers_test

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestUsageMissingAFigureIsNoUsage pins that a usage record lacking its
// input or its output figure gives a request without usage, counted as not
// mapped, in every format that reads one: it used to be written with 0 for
// the absent figure (an OTel chat span with only gen_ai.usage.output_tokens
// became usage {"input":0,"output":5}), which run.fidelity and calibrate
// read as a recorded prompt of 0 tokens.
func TestUsageMissingAFigureIsNoUsage(t *testing.T) {
	const otelExport = `{"resourceSpans":[{"scopeSpans":[{"spans":[
{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"d1","name":"chat m","startTimeUnixNano":"1759309200000000000","endTimeUnixNano":"1759309202000000000",
 "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"900"}},{"key":"gen_ai.usage.output_tokens","value":{"intValue":"30"}}]},
{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"d2","name":"chat m","startTimeUnixNano":"1759309203000000000","endTimeUnixNano":"1759309204000000000",
 "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.usage.output_tokens","value":{"intValue":"5"}}]}]}]}]}`
	for _, tc := range []struct {
		name, format, input, unmapped string
	}{
		{"otel, chat span without input_tokens", "otel", otelExport, "chat span without gen_ai.usage.input_tokens"},
		{"anthropic, usage without input_tokens", "anthropic-messages",
			`{"id":"c","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"a","usage":{"input_tokens":12,"output_tokens":3}},{"role":"user","content":"more"},{"role":"assistant","content":"b","usage":{"output_tokens":4}}]}`,
			"usage without input_tokens"},
		{"openai, usage without completion_tokens", "openai-messages",
			`{"id":"c","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"a","usage":{"prompt_tokens":12,"completion_tokens":3}},{"role":"user","content":"more"},{"role":"assistant","content":"b","usage":{"prompt_tokens":20}}]}`,
			"usage without completion_tokens"},
		{"claude-code, usage without output_tokens", "claude-code",
			`{"type":"user","sessionId":"s","timestamp":"2025-10-01T09:00:00Z","message":{"role":"user","content":"hi"}}` + "\n" +
				`{"type":"assistant","sessionId":"s","timestamp":"2025-10-01T09:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"m","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":12,"output_tokens":3}}}` + "\n" +
				`{"type":"user","sessionId":"s","timestamp":"2025-10-01T09:00:02Z","message":{"role":"user","content":"more"}}` + "\n" +
				`{"type":"assistant","sessionId":"s","timestamp":"2025-10-01T09:00:03Z","requestId":"r2","message":{"id":"m2","role":"assistant","model":"m","content":[{"type":"text","text":"b"}],"usage":{"input_tokens":20}}}`,
			"usage without output_tokens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, out := importText(t, tc.format, tc.input)
			sessions, _, err := traces.ReadAll(out)
			if err != nil {
				t.Fatal(err)
			}
			var usages []*traces.Usage
			for _, s := range sessions {
				for _, ev := range s.Events {
					if ev.Type == traces.ModelRequest {
						usages = append(usages, ev.Usage)
					}
				}
			}
			if len(usages) != 2 || usages[0] == nil || usages[1] != nil {
				t.Fatalf("usages = %+v, want the first request's and none for the second", usages)
			}
			if rep.RequestsWithoutUsage != 1 {
				t.Errorf("requests without usage = %d, want 1", rep.RequestsWithoutUsage)
			}
			var found bool
			for k, n := range rep.Unmapped {
				found = found || strings.Contains(k, tc.unmapped) && n == 1
			}
			if !found {
				t.Errorf("not mapped = %v, want one %q", rep.Unmapped, tc.unmapped)
			}
		})
	}
}
