package schema_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/schema"
)

// everyField returns events of every type with every field they can carry set.
func everyField() []traces.Event {
	t0 := time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	s := "s-1"
	return []traces.Event{
		{Type: traces.SessionStart, Session: s, T: at(0), StartFields: &traces.StartFields{Model: "m", SystemPrompt: "You help.", SystemPromptTokens: 3, Servers: []traces.ServerRef{{Name: "files", Version: "1.0.0"}, {Name: "local"}}, RecordedStrategy: "eager", Meta: map[string]string{"source": "test"}}},
		{Type: traces.UserMessage, Session: s, T: at(1), Text: "hi", TextTokens: 1},
		{V: traces.Version, Type: traces.ModelRequest, Session: s, T: at(2), ID: "r1", TTFTMs: 300, DurationMs: 900,
			Usage: &traces.Usage{Input: 10, CacheRead: 2000, CacheWrite: 50, Output: 20}},
		{Type: traces.ToolSearch, Session: s, T: at(3), Request: "r1", CallID: "ts1", ChangeFields: &traces.ChangeFields{Query: "select:read_file", Returned: []string{"read_file"}},
			DurationMs: 4},
		{Type: traces.ModelRequest, Session: s, T: at(4), ID: "r2", Usage: &traces.Usage{}},
		{Type: traces.ToolCall, Session: s, T: at(5), Request: "r2", CallID: "c1", Tool: "read_file", Server: "files",
			Args: json.RawMessage(`{"path": "a.txt"}`), Status: traces.StatusError, Error: "no such file",
			Result: "not found", ResultBytes: 9, ResultTokens: 3, DurationMs: 7},
		{Type: traces.ToolCall, Session: s, T: at(6), Request: "r2", CallID: "c2", Tool: "read_file", Server: "files",
			Args: json.RawMessage(`"{not json"`), Status: traces.StatusRejected},
		{Type: traces.CatalogChange, Session: s, T: at(7), Server: "files", ChangeFields: &traces.ChangeFields{Version: "1.1.0"}},
		{Type: traces.DeferralChange, Session: s, T: at(8), ChangeFields: &traces.ChangeFields{Added: []string{"read_file"}}},
		{Type: traces.DeferralChange, Session: s, T: at(9), ChangeFields: &traces.ChangeFields{Removed: []string{"read_file"}}},
		{Type: traces.AssistantMessage, Session: s, T: at(10), Request: "r2", Text: "done", TextTokens: 1},
		{Type: traces.SessionEnd, Session: s, T: at(11)},
	}
}

func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := schema.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(sch *jsonschema.Schema, line string) error {
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// TestWriterOutputValidates writes events of every type with the Writer and
// validates each line against the schema.
func TestWriterOutputValidates(t *testing.T) {
	sch := compile(t)
	var buf bytes.Buffer
	w := traces.NewWriter(&buf, false)
	evs := everyField()
	seen := map[traces.EventType]bool{}
	for i := range evs {
		if err := w.Write(&evs[i]); err != nil {
			t.Fatal(err)
		}
		seen[evs[i].Type] = true
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, typ := range traces.KnownEventTypes {
		if !seen[typ] {
			t.Errorf("no %s event tested", typ)
		}
	}
	sc := bufio.NewScanner(&buf)
	n := 0
	for sc.Scan() {
		n++
		if err := validate(sch, sc.Text()); err != nil {
			t.Errorf("line %d %s: %v", n, sc.Text(), err)
		}
	}
	if n != len(evs) {
		t.Errorf("validated %d lines, want %d", n, len(evs))
	}
}

func TestSchemaRejects(t *testing.T) {
	sch := compile(t)
	tests := []struct{ name, line string }{
		{"missing type", `{"session":"s","t":"2026-01-01T00:00:00Z"}`},
		{"unknown type", `{"type":"thought","session":"s","t":"2026-01-01T00:00:00Z"}`},
		{"zero time", `{"type":"user","session":"s","t":"0001-01-01T00:00:00Z"}`},
		{"bad time", `{"type":"user","session":"s","t":"yesterday"}`},
		{"start without v", `{"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z"}`},
		{"version 2", `{"v":2,"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z"}`},
		{"tool_call without server", `{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","call_id":"c","tool":"x"}`},
		{"negative duration", `{"type":"model_request","session":"s","t":"2026-01-01T00:00:00Z","id":"r","duration_ms":-1}`},
		{"unknown field", `{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","txt":"hi"}`},
		{"args array", `{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","call_id":"c","tool":"x","server":"y","args":[1]}`},
		{"empty deferral_change", `{"type":"deferral_change","session":"s","t":"2026-01-01T00:00:00Z","added":[]}`},
	}
	for _, tc := range tests {
		if err := validate(sch, tc.line); err == nil {
			t.Errorf("%s: schema accepts %s", tc.name, tc.line)
		}
	}
}

func TestJSONIsTheEmbeddedSchema(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(schema.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$id"] != schema.URL {
		t.Errorf("$id = %v, want %s", doc["$id"], schema.URL)
	}
}
