package importers_test

import (
	"bytes"
	"strings"
	"testing"
)

// TestRepliesCutAtOutputLimitCounted pins that a reply the source marks as
// cut at the output limit (Anthropic stop_reason "max_tokens", OpenAI
// finish_reason "length", an OTel chat span's
// gen_ai.response.finish_reasons) is counted by name in the import report,
// once per request: it was only one more "not mapped" field (Claude Code's
// stop_reason not even that), so nothing told a user their recorded
// outputs were truncated.
func TestRepliesCutAtOutputLimitCounted(t *testing.T) {
	const otelExport = `{"resourceSpans":[{"scopeSpans":[{"spans":[
{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"d1","name":"chat m","startTimeUnixNano":"1759309200000000000","endTimeUnixNano":"1759309202000000000",
 "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"length"}]}}}]},
{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"d2","name":"chat m","startTimeUnixNano":"1759309203000000000","endTimeUnixNano":"1759309204000000000",
 "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"stop"}]}}}]}]}]}]}`
	cc := func(line, req, reason string) string {
		return `{"type":"assistant","sessionId":"s","timestamp":"2025-10-01T09:00:0` + line + `Z","requestId":"` + req + `","message":{"id":"m` + req + `","role":"assistant","model":"m","content":[{"type":"text","text":"a"}],"stop_reason":` + reason + `,"usage":{"input_tokens":12,"output_tokens":3}}}`
	}
	for _, tc := range []struct {
		name, format, input string
		want                int
	}{
		{"anthropic", "anthropic-messages",
			`{"id":"c","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"a","stop_reason":"max_tokens"},{"role":"user","content":"more"},{"role":"assistant","content":"b","stop_reason":"end_turn"}]}`, 1},
		{"openai", "openai-messages",
			`{"id":"c","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"a","finish_reason":"length"},{"role":"user","content":"more"},{"role":"assistant","content":"b","finish_reason":"length"}]}`, 2},
		{"otel", "otel", otelExport, 1},
		// The lines of request r1 repeat its stop reason: one reply.
		{"claude-code", "claude-code",
			`{"type":"user","sessionId":"s","timestamp":"2025-10-01T09:00:00Z","message":{"role":"user","content":"hi"}}` + "\n" +
				cc("1", "1", `"max_tokens"`) + "\n" + cc("2", "1", `"max_tokens"`) + "\n" + cc("3", "2", `null`), 1},
		{"none cut", "anthropic-messages",
			`{"id":"c","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"a","stop_reason":"end_turn"}]}`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, _ := importText(t, tc.format, tc.input)
			if rep.CutAtOutputLimit != tc.want {
				t.Errorf("replies cut at the output limit = %d, want %d", rep.CutAtOutputLimit, tc.want)
			}
			var text bytes.Buffer
			if err := rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if said := strings.Contains(text.String(), "replies cut at the output limit:"); said != (tc.want > 0) {
				t.Errorf("the report says it %v, want %v:\n%s", said, tc.want > 0, text.String())
			}
		})
	}
}
