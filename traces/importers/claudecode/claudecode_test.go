package claudecode

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdata/session.jsonl is hand-built from the published Claude Code
// session-file fields (REFERENCE §7; no recorded session): one request
// spread over three lines that repeat its usage, deferred_tools_delta
// attachments, a ToolSearch call answered with tool references, an MCP tool
// and a built-in tool called in one request, a runtime-written error
// message, and a second, interleaved-free session.
func TestImportGolden(t *testing.T) {
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().ImportFile(filepath.Join("testdata", "session.jsonl"), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	trace := importtest.Encode(t, sink.Sessions)
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "session.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "session.report.golden.json"), importtest.ReportJSON(t, rep))

	if len(sink.Sessions) != 2 {
		t.Fatalf("sessions = %d, want 2", len(sink.Sessions))
	}
	byType := map[traces.EventType][]traces.Event{}
	for _, ev := range sink.Sessions[0].Events {
		byType[ev.Type] = append(byType[ev.Type], ev)
	}
	reqs := byType[traces.ModelRequest]
	if len(reqs) != 3 {
		t.Fatalf("model requests = %d, want 3 (three lines of req_1 are one request; the synthetic line is none)", len(reqs))
	}
	// Usage counted once per request: the largest value each field reached.
	if *reqs[0].Usage != (traces.Usage{Input: 10, CacheWrite: 3000, Output: 35}) || reqs[0].ID != "req_1" || reqs[0].DurationMs != 2990 {
		t.Errorf("req_1 = %+v usage %+v", reqs[0], *reqs[0].Usage)
	}
	if d := byType[traces.DeferralChange]; len(d) != 2 || strings.Join(d[0].Added(), ",") != "mcp__ci__get_logs,mcp__ci__list_runs" ||
		strings.Join(d[1].Removed(), ",") != "mcp__ci__get_logs" {
		t.Errorf("deferral changes = %+v", d)
	}
	if q := byType[traces.ToolSearch]; len(q) != 1 || q[0].Query() != "ci logs" || strings.Join(q[0].Returned(), ",") != "get_logs" {
		t.Errorf("tool searches = %+v", q)
	}
	calls := byType[traces.ToolCall]
	if len(calls) != 2 || calls[0].Server != "ci" || calls[0].Tool != "get_logs" || calls[0].DurationMs != 1000 ||
		calls[1].Server != DefaultServer || calls[1].Tool != "Bash" || calls[1].Status != traces.StatusError {
		t.Errorf("calls = %+v", calls)
	}
	st := sink.Sessions[0].Start()
	if st.RecordedStrategy() != "deferred" || st.Model() != "test-claude" || st.Meta()["git_branch"] != "main" {
		t.Errorf("session_start = %+v", st)
	}
	for _, ev := range sink.Sessions[0].Events {
		if strings.Contains(ev.Text, "/path/to/project") || strings.Contains(strings.Join(mapValues(ev.Meta()), " "), "/path/to/project") {
			t.Errorf("the working directory leaked into %+v", ev)
		}
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func TestBadLines(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"not json", "{\"type\":\"user\"}\nnot json\n", "log.jsonl: line 2 col 3: want a JSON object"},
		// A line cut short says where in the line (it said only "line 2:
		// want a JSON object: unexpected end of JSON input").
		{"truncated line", "{\"type\":\"user\"}\n  {\"type\":\"user\",\"sessionId\":\"a\n", "log.jsonl: line 2 col 32: want a JSON object: unexpected end of JSON input"},
		{"message not object", `{"type":"user","sessionId":"a","message":"x"}`, "line 1.message: want a JSON object"},
		{"bad time", `{"type":"user","sessionId":"a","timestamp":"soon"}`, "line 1: timestamp"},
		{"bad delta", `{"type":"attachment","sessionId":"a","attachment":{"type":"deferred_tools_delta","addedNames":"x"}}`, "addedNames"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := New().Import("log.jsonl", strings.NewReader(tt.data), &ingest.Options{}, &importtest.Sink{}, ingest.NewReport(Format))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func FuzzImportClaudeCode(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"type":"assistant","requestId":"r","timestamp":"2025-01-01T00:00:05Z","message":{"content":[{"type":"tool_use","id":"a","name":"x"}]}}` + "\n" +
		`{"type":"assistant","requestId":"r","timestamp":"2025-01-01T00:00:01Z","message":{"content":"y"}}`))
	f.Add([]byte(`{"type":"attachment","attachments":[{"type":"deferred_tools_delta","addedNames":[""]}]}`))
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"q"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		importtest.Fuzz(t, data, func(sink ingest.Sink, rep *ingest.Report) error {
			return New().Import("fuzz.jsonl", bytes.NewReader(data), &ingest.Options{}, sink, rep)
		})
	})
}

// TestSessionEndsAtLastLine pins that a session's session_end takes the
// time of its last line: a session whose last line is a tool result ended
// at the call's start (the last event's time), 3 s early here, and the
// call's duration ran past its session's end.
func TestSessionEndsAtLastLine(t *testing.T) {
	lines := []string{
		`{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2025-06-01T10:00:00.000Z","message":{"role":"user","content":"list the open issues"}}`,
		`{"type":"assistant","sessionId":"s1","uuid":"u2","parentUuid":"u1","timestamp":"2025-06-01T10:00:02.000Z","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"tool_use","id":"toolu_1","name":"mcp__github__list_issues","input":{}}],"usage":{"input_tokens":1200,"output_tokens":40}}}`,
		`{"type":"user","sessionId":"s1","uuid":"u3","parentUuid":"u2","timestamp":"2025-06-01T10:00:05.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"[]"}]}}`,
	}
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"ends on a tool result", lines, "2025-06-01T10:00:05Z"},
		{"ends on the call", lines[:2], "2025-06-01T10:00:02Z"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var sink importtest.Sink
			if err := New().ImportFile(path, &ingest.Options{}, &sink, ingest.NewReport(Format)); err != nil {
				t.Fatal(err)
			}
			evs := sink.Sessions[0].Events
			end := evs[len(evs)-1]
			if end.Type != traces.SessionEnd || end.T.Format(time.RFC3339) != tc.want {
				t.Errorf("last event %s at %s, want session_end at %s", end.Type, end.T.Format(time.RFC3339), tc.want)
			}
		})
	}
}
