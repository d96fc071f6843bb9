package traces

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/defersim/defersim/traces/schema"
)

func compileSchema(tb testing.TB) *jsonschema.Schema {
	tb.Helper()
	sch, err := schema.Compile()
	if err != nil {
		tb.Fatal(err)
	}
	return sch
}

// schemaAccepts reports whether line is one JSON value valid against sch.
func schemaAccepts(sch *jsonschema.Schema, line []byte) bool {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	return err == nil && sch.Validate(inst) == nil
}

// lineAccepted reports whether Validate finds nothing wrong with line alone.
func lineAccepted(line []byte) bool {
	var ev Event
	_, probs := checkLine(line, &ev, nil)
	return len(probs) == 0
}

// TestGeneratedLinesMatchSchema validates every line the Writer produced for
// generated sessions against the JSON Schema.
func TestGeneratedLinesMatchSchema(t *testing.T) {
	sch := compileSchema(t)
	data := encodeSessions(t, genSessions(5, 30), false, 1)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		if !schemaAccepts(sch, sc.Bytes()) {
			t.Fatalf("line %d fails the schema: %s", n, sc.Text())
		}
	}
	if n == 0 {
		t.Fatal("no lines")
	}
}

// TestLineChecksAgreeWithSchema checks that the per-line rules of Validate
// and the JSON Schema accept and reject the same lines, over the lines of
// the bad-input table and some more.
func TestLineChecksAgreeWithSchema(t *testing.T) {
	sch := compileSchema(t)
	extra := []string{
		ev("session_start", "s", 0, `"servers":[{"name":""}]`),
		ev("session_start", "s", 0, `"servers":[null]`),
		ev("session_start", "s", 0, `"meta":{"k":null}`),
		ev("session_start", "s", 0, `"meta":{"k":"v"},"x_anything":null`),
		ev("tool_search", "s", 0, `"query":"q","returned":[null]`),
		ev("tool_search", "s", 0, `"query":""`),
		ev("tool_call", "s", 0, `"call_id":"c","tool":"t","server":"s","status":""`),
		ev("tool_call", "s", 0, `"call_id":"c","tool":"t","server":"s","args":null`),
		ev("tool_call", "s", 0, `"call_id":"c","tool":"t","server":"s","args":"raw text"`),
		ev("deferral_change", "s", 0, `"added":[],"removed":["a"]`),
		ev("deferral_change", "s", 0, `"added":[],"removed":[]`),
		ev("model_request", "s", 0, `"id":"r","usage":{"input":1,"output":2,"cached":3}`),
		ev("model_request", "s", 0, `"id":""`),
		ev("user", "s", 0, `"TEXT":"case matters"`),
		ev("user", "s", 0, `"v":1`),
		`{"type":"user","session":"","t":"2026-01-01T00:00:00Z"}`,
		`{"type":"user","session":"s","t":"2026-01-01T00:00:00+02:00"}`,
		`{"type":"user","session":"s","t":"0001-01-01T00:00:00Z"}`,
		`"just a string"`,
		`{}`,
	}
	var all [][]byte
	for _, tc := range badCases(t) {
		if len(tc.data) > 1<<20 || (len(tc.data) > 1 && tc.data[0] == 0x1f && tc.data[1] == 0x8b) {
			continue
		}
		for l := range bytes.SplitSeq(tc.data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				all = append(all, l)
			}
		}
	}
	for _, l := range extra {
		all = append(all, []byte(l))
	}
	for _, line := range all {
		if bytes.IndexByte(line, 0) >= 0 || !utf8.Valid(line) {
			continue // raw NUL and invalid UTF-8: the schema validator never sees them
		}
		if got, want := lineAccepted(line), schemaAccepts(sch, line); got != want {
			t.Errorf("line checks accept=%v, schema accept=%v: %s", got, want, strings.TrimSpace(string(line)))
		}
	}
}
