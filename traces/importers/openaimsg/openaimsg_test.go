package openaimsg

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdata/conversations.jsonl is hand-built from the published
// chat-completions message format (no recorded session): a conversation
// object with tools, usage with cached tokens, parallel calls answered out of
// order; a bare message array with a legacy function call; and a
// conversation calling an MCP-qualified tool, with an orphan tool result.
func TestImportGolden(t *testing.T) {
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().ImportFile(filepath.Join("testdata", "conversations.jsonl"), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	trace := importtest.Encode(t, sink.Sessions)
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "conversations.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "conversations.report.golden.json"), importtest.ReportJSON(t, rep))
	if len(sink.Sessions) != 3 {
		t.Fatalf("sessions = %d", len(sink.Sessions))
	}
	if ids := []string{sink.Sessions[0].ID, sink.Sessions[1].ID}; ids[0] != "conv-a" || ids[1] != "conversations:2" {
		t.Errorf("ids = %v", ids)
	}
	if s := sink.Sessions[0]; len(s.Schemas) != 1 || s.Schemas[0].Tools[0].Name != "get_weather" {
		t.Errorf("schemas = %v", s.Schemas)
	}
	var req *traces.Event
	for i := range sink.Sessions[0].Events {
		if ev := &sink.Sessions[0].Events[i]; ev.Type == traces.ModelRequest {
			req = ev
			break
		}
	}
	if req == nil || *req.Usage != (traces.Usage{Input: 388, CacheRead: 512, Output: 30}) || req.DurationMs != 2000 {
		t.Errorf("first request = %+v, want usage 388 uncached + 512 cached in, 30 out, 2000 ms", req)
	}
	for _, ev := range sink.Sessions[2].Events {
		if ev.Type == traces.ToolCall && (ev.Tool != "list_repos" || ev.Server != "github") {
			t.Errorf("MCP-qualified call = %s on %s", ev.Tool, ev.Server)
		}
	}
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		sessions int
		wantErr  string
	}{
		{"object", `{"messages":[{"role":"user","content":"hi"}]}`, 1, ""},
		{"bare array", `[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]`, 1, ""},
		{"array of conversations", `[{"messages":[{"role":"user","content":"a"}]},[{"role":"user","content":"b"}]]`, 2, ""},
		{"jsonl", "{\"messages\":[]}\n\n[{\"role\":\"user\",\"content\":\"b\"}]\n", 2, ""},
		{"empty array", `[]`, 0, ""},
		{"no messages", `{"id":"x"}`, 0, `conversation without "messages"`},
		{"bad line", "{\"messages\":[]}\n{oops\n", 1, "line 2"},
		{"bad content", `{"messages":[{"role":"user","content":5}]}`, 0, "messages[0]: content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sink importtest.Sink
			err := New().Import("in.jsonl", strings.NewReader(tt.data), &ingest.Options{}, &sink, ingest.NewReport(Format))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "in.jsonl: ") {
					t.Fatalf("error = %v, want one naming the file and containing %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if len(sink.Sessions) != tt.sessions {
				t.Errorf("sessions = %d, want %d", len(sink.Sessions), tt.sessions)
			}
		})
	}
}

func FuzzImportOpenAIMessages(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "conversations.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"created": 1700000000, "messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":"[]"}}]},{"role":"tool","content":"r"}]}`))
	f.Add([]byte(`[{"role":"assistant","content":"x","timestamp":5},{"role":"user","content":"y","timestamp":"2025-01-01T00:00:00Z"}]`))
	f.Add([]byte("[]\n{}\n"))
	// A malformed line between good ones, with leading blanks and CRLF
	// ends: its error names the line and the column in it.
	f.Add([]byte("{\"messages\":[]}\r\n  {\"messages\":[{\"role\"\r\n{\"messages\":[]}\r\n"))
	// Gateway meta-tools, per-call servers and error markers.
	f.Add([]byte(`[{"role":"assistant","tool_calls":[{"id":"s","function":{"name":"route","arguments":"{\"query\":\"q\"}"}},{"id":"x","function":{"name":"execute-tool","arguments":"{\"server_name\":\"a\",\"tool_name\":\"mcp__b__c\",\"params\":\"[1]\"}"}}]},{"role":"tool","tool_call_id":"s","content":"a/c, d"},{"role":"tool","tool_call_id":"x","content":"{\"isError\":true}","status":"error"}]`))
	f.Add([]byte(`[{"role":"assistant","tool_calls":[{"id":"y","server":"s","function":{"name":"execute-tool","arguments":"{}","server_label":"t"}},{"id":"z","function":{"name":"route"}}]},{"role":"tool","tool_call_id":"z","error":"boom","is_error":false}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Half the inputs (by length) are read with --skip-bad.
		importtest.Fuzz(t, data, func(sink ingest.Sink, rep *ingest.Report) error {
			return New().Import("fuzz.jsonl", bytes.NewReader(data), &ingest.Options{Gateway: ingest.Gateway{SearchTools: []string{"route"}, ExecuteTools: []string{"execute-tool"}},
				SkipBad: len(data)%2 == 0}, sink, rep)
		})
	})
}

// TestErrorResultsAndServers pins that tool results marked as failed keep
// status error (issue 15: they were imported as ok), by a member of the
// result message or by its content, and that a call's server field or
// mcp__ prefix names its server.
func TestErrorResultsAndServers(t *testing.T) {
	call := func(id, extra string) string {
		return `{"id":"` + id + `",` + extra + `"type":"function","function":{"name":"f","arguments":"{}"}}`
	}
	data := `[{"role":"assistant","tool_calls":[` + strings.Join([]string{
		call("a", ""), call("b", `"server_name":"s1",`), call("c", `"server":"s2",`), call("d", ""),
		call("e", ""), call("f", ""), call("g", ""), call("h", ""),
	}, ",") + `]},
{"role":"tool","tool_call_id":"a","content":"fine"},
{"role":"tool","tool_call_id":"b","content":"x","error":"timed out"},
{"role":"tool","tool_call_id":"c","content":"x","is_error":true},
{"role":"tool","tool_call_id":"d","content":"x","status":"error"},
{"role":"tool","tool_call_id":"e","content":"{\"error\": \"quota\", \"response\": \"\"}"},
{"role":"tool","tool_call_id":"f","content":"{\"error\": \"\", \"response\": \"ok\"}","status":"success"},
{"role":"tool","tool_call_id":"g","content":"{\"isError\": true, \"content\": []}"},
{"role":"tool","tool_call_id":"h","content":"x","error":false,"status":"pending"}]`
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().Import("e.json", strings.NewReader(strings.ReplaceAll(data, "\n", "")), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`call openai-messages/f {} ok`, `call s1/f {} error`, `call s2/f {} error`, `call openai-messages/f {} error`,
		`call openai-messages/f {} error`, `call openai-messages/f {} ok`, `call openai-messages/f {} error`, `call openai-messages/f {} ok`,
	}
	if d := cmp.Diff(want, importtest.Calls(sink.Sessions[0])); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	wantFailed := map[string]int{"error message": 1, "is_error: true": 1, "status: error": 1,
		"result content (isError, is_error or a non-empty error member)": 2}
	if d := cmp.Diff(wantFailed, rep.ErrorResults); d != "" {
		t.Errorf("error results (-want +got):\n%s", d)
	}
	if rep.Unmapped["[].status (value other than ok/success/error/failed)"] != 1 {
		t.Errorf("unmapped = %v, want the unknown status reported", rep.Unmapped)
	}
	if s := sink.Sessions[0]; len(s.Unattributed) != 6 {
		t.Errorf("unattributed calls = %v, want the 6 without a server", s.Unattributed)
	}
}
