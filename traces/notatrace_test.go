package traces

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// arrayAdvice is what the reason of a line holding a JSON array goes on
// with (documentShape).
const arrayAdvice = ", as in a file that is one JSON array (of sessions, messages or tools), not one event per line; " + notATraceAdvice

// TestNotATraceSaysWhatTheFileIs pins that a file that is not a trace —
// a pretty-printed JSON document (tau-bench's tools_airline.json, a
// historical_trajectories file, a ToolBench answer) or a JSON array on one
// line — stops the reader at file:line with a reason saying what the line
// looks like and what to do (trace import --from), where it said
// "invalid JSON at column 1: unexpected end of JSON input". A line cut
// inside a string (a truncated trace) keeps its JSON reason.
func TestNotATraceSaysWhatTheFileIs(t *testing.T) {
	const advice = "a trace holds one JSON event object per line (docs/trace-format.md). To replay sessions recorded in another format, convert them: defersim trace import --from FORMAT IN -o trace.jsonl.gz"
	tests := []struct {
		name    string
		content string
		line    int
		want    string // the reason's start
		advice  bool
	}{
		{"pretty-printed object", "{\n  \"tools\": [\n    {\"name\": \"book\"}\n  ]\n}\n", 1,
			"not one event per line: the line opens a JSON object and ends before closing it, as a line of a JSON document written over several lines (pretty-printed) does", true},
		{"pretty-printed array", "[\n  {\n    \"task_id\": 0\n  }\n]\n", 1,
			"not one event per line: the line opens a JSON array and ends before closing it", true},
		{"first line breaks after a key", "{\"tools\": [\r\n  {\"name\": \"book\"}\r\n]}\r\n", 1,
			"not one event per line: the line opens a JSON object", true},
		{"array on one line", `[{"v":1,"type":"user","session":"s","t":"2025-01-01T00:00:00Z","text":"hi"}]` + "\n", 1,
			"invalid JSON: line is a JSON array, not an object, as in a file that is one JSON array", true},
		{"after a valid event", `{"v":1,"type":"session_start","session":"s","t":"2025-01-01T00:00:00Z"}` + "\n[\n", 2,
			"not one event per line: the line opens a JSON array", true},
		{"line cut inside a string", `{"v":1,"type":"user","session":"s`, 1,
			"invalid JSON at column 33: unexpected end of JSON input", false},
		{"a number on its own", "42\n", 1, "invalid JSON: line is a JSON number, not an object", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.json")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := Open(path, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var lerr *LineError
			for _, err := range r.Sessions() {
				if err != nil {
					if !errors.As(err, &lerr) {
						t.Fatalf("error %v is not a *LineError", err)
					}
					break
				}
			}
			if lerr == nil {
				t.Fatal("read without an error")
			}
			if lerr.File != path || lerr.Line != tc.line || lerr.Kind != KindBadJSON {
				t.Errorf("error at %s:%d (%s), want %s:%d (%s)", lerr.File, lerr.Line, lerr.Kind, path, tc.line, KindBadJSON)
			}
			if !strings.HasPrefix(lerr.Reason, tc.want) {
				t.Errorf("reason %q\nwant it to start %q", lerr.Reason, tc.want)
			}
			if got := strings.Contains(lerr.Reason, advice); got != tc.advice {
				t.Errorf("reason advises trace import: %v, want %v: %q", got, tc.advice, lerr.Reason)
			}
			if !strings.HasPrefix(lerr.Error(), path+":"+strconv.Itoa(tc.line)+": ") {
				t.Errorf("error %q does not start file:line:", lerr.Error())
			}
		})
	}
}
