package traces

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
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

// TestNotATraceAdviceOncePerFile pins that the advice on a file that is
// not a trace is given once per file, at its first line: validating
// tau-bench's pretty-printed tools_airline.json repeated it on each of
// the 15 lines that open an object. The later lines keep their problem
// (file:line, kind, count) with a short reason pointing at the first. It
// holds for validate, and for the lines --skip-bad records.
func TestNotATraceAdviceOncePerFile(t *testing.T) {
	content := "[\n  {\n    \"name\": \"book\",\n    \"parameters\": {\n      \"type\": \"object\"\n    }\n  },\n  {\n    \"name\": \"cancel\"\n  }\n]\n" +
		"{\"tools\": []}\n{\"messages\": []}\n"
	tests := []struct {
		line  int
		short string // the reason of a line after the first; "" = the line has no advice
	}{
		{1, ""},
		{2, "not one event per line: the line opens a JSON object and ends before closing it (see line 1)"},
		{8, "not one event per line: the line opens a JSON object and ends before closing it (see line 1)"},
		{12, `missing required field "type": the line has none of the fields of a trace event (see line 1)`},
		{13, `missing required field "type": the line has none of the fields of a trace event (see line 1)`},
	}
	probs, counts, err := ValidateReader(strings.NewReader(content), "tools.json", ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	advised := 0
	for _, p := range probs {
		if strings.Contains(p.Reason, notATraceAdvice) {
			advised++
			if p.Line != 1 {
				t.Errorf("advice given again at line %d: %s", p.Line, p)
			}
		}
	}
	if advised != 1 {
		t.Errorf("advice given %d times, want once", advised)
	}
	if got := AdvisedAt(probs); got != 1 {
		t.Errorf("AdvisedAt = %d, want 1", got)
	}
	for _, tc := range tests {
		if tc.short == "" {
			continue
		}
		if !slices.ContainsFunc(probs, func(p Problem) bool { return p.Line == tc.line && p.Reason == tc.short }) {
			t.Errorf("no problem %q at line %d", tc.short, tc.line)
		}
	}
	// Every non-blank line is still a problem, counted: 13 lines, of which
	// 12 and 13 have four problems each (type, session, t, unknown field).
	if counts.Lines != 13 || counts.Skipped != 13 || len(probs) != 11+2*4 {
		t.Errorf("lines %d, skipped %d, problems %d; want 13, 13, %d", counts.Lines, counts.Skipped, len(probs), 11+2*4)
	}

	// --skip-bad records the same reasons.
	r, err := NewReader(strings.NewReader(content), "tools.json", ReadOptions{SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
	}
	skips := r.Counts().FirstSkips
	if len(skips) != 13 {
		t.Fatalf("%d skips recorded, want 13", len(skips))
	}
	for i, s := range skips {
		if got := strings.Contains(s.Reason, notATraceAdvice); got != (i == 0) {
			t.Errorf("skip %d (%s) advises: %v, want %v", i, s, got, i == 0)
		}
	}
	if skips[1].Reason != tests[1].short || skips[12].Reason != tests[4].short {
		t.Errorf("skips 2 and 13: %q, %q", skips[1].Reason, skips[12].Reason)
	}
}

// TestForeignObjectPointsAtImport pins that a line that is a JSON object
// with no field of the event format (a whole document of another format
// on one line, or a line of another JSONL format) says so and points at
// trace import, where it said only `missing required field "type"`; an
// event that lacks "type" beside fields of the format keeps that reason.
func TestForeignObjectPointsAtImport(t *testing.T) {
	tests := []struct {
		name, line string
		want       string // the reason of the missing "type"
	}{
		{"tools document", `{"tools":[{"name":"book"}]}`,
			`missing required field "type": the line has none of the fields of a trace event (its fields: "tools"), as a line of a file of another format has; ` + notATraceAdvice},
		{"a key of the format (model) in a chat log", `{"messages":[{"role":"user"}],"model":"m"}`,
			`missing required field "type": the line is a chat-completions conversation ("messages"), not a trace event; ` +
				chatAdvice(chatShape{from: ChatLogImporters()})},
		{"a key of the format (model) otherwise", `{"prompt":"x","model":"m"}`, `missing required field "type"`},
		{"many keys", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}`,
			`missing required field "type": the line has none of the fields of a trace event (its fields: "a", "b", "c", "d", "e", … (6 in all)), as a line of a file of another format has; ` + notATraceAdvice},
		{"event without type", `{"v":1,"session":"s","t":"2025-01-01T00:00:00Z"}`, `missing required field "type"`},
		{"empty object", `{}`, `missing required field "type"`},
		{"extension keys only", `{"x_source":"a"}`,
			`missing required field "type": the line has none of the fields of a trace event (its fields: "x_source"), as a line of a file of another format has; ` + notATraceAdvice},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ev Event
			err := decodeEvent([]byte(tc.line), &ev)
			if err == nil || err.Error() != tc.want {
				t.Errorf("reader: %v\nwant %s", err, tc.want)
			}
			probs, _, verr := ValidateReader(strings.NewReader(tc.line+"\n"), "f.jsonl", ValidateOptions{})
			if verr != nil {
				t.Fatal(verr)
			}
			if len(probs) == 0 || probs[0].Reason != tc.want || probs[0].Kind != KindMissingField || probs[0].Line != 1 {
				t.Errorf("validate: %v\nwant first %s", probs, tc.want)
			}
		})
	}
}
