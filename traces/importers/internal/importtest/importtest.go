// Package importtest holds helpers for the importer tests: a sink that
// checks and collects sessions, golden-file comparison, and the invariant
// every importer's output must satisfy (it passes trace validation).
package importtest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// Sink collects sessions, rejecting any that breaks ingest.CheckSession.
type Sink struct {
	Sessions []*ingest.Session
	// Bad is the first inconsistency found (an importer bug).
	Bad error
}

// Emit checks and keeps s.
func (k *Sink) Emit(s *ingest.Session) error {
	if err := ingest.CheckSession(&s.Session); err != nil {
		if k.Bad == nil {
			k.Bad = err
		}
		return err
	}
	k.Sessions = append(k.Sessions, s)
	return nil
}

// ImportFiles imports files with imp into one report of format, failing tb
// on any error.
func ImportFiles(tb testing.TB, imp ingest.Importer, format string, files ...string) ([]*ingest.Session, *ingest.Report) {
	tb.Helper()
	var sink Sink
	rep := ingest.NewReport(format)
	for _, f := range files {
		if err := imp.ImportFile(f, &ingest.Options{}, &sink, rep); err != nil {
			tb.Fatal(err)
		}
	}
	return sink.Sessions, rep
}

// Encode writes the sessions as trace v1 JSON Lines.
func Encode(tb testing.TB, sessions []*ingest.Session) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := traces.NewWriter(&buf, false)
	for _, s := range sessions {
		if err := w.WriteSession(&s.Session); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// Validate fails tb when the trace in data has any problem. An import of
// no session (a fuzz input holding none) writes an empty trace, which
// validate lists as a file of no session (traces.KindNoSession): that is
// not a malformed line, so it does not fail tb.
func Validate(tb testing.TB, data []byte) {
	tb.Helper()
	probs, _, err := traces.ValidateReader(bytes.NewReader(data), "imported", traces.ValidateOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	for _, p := range probs {
		if p.Kind == traces.KindNoSession {
			continue
		}
		tb.Errorf("trace validation: %s", p)
	}
}

// ReportJSON renders the parts of a report that do not depend on the
// pipeline (what the importer itself recorded).
func ReportJSON(tb testing.TB, rep *ingest.Report) []byte {
	tb.Helper()
	b, err := json.MarshalIndent(struct {
		Converted              map[string]int `json:"converted,omitempty"`
		Unmapped               map[string]int `json:"unmapped"`
		CredentialsDropped     map[string]int `json:"credentials_dropped"`
		ToolDefinitionsDropped map[string]int `json:"tool_definitions_dropped"`
		Notes                  []string       `json:"notes"`
	}{rep.Converted, rep.Unmapped, rep.CredentialsDropped, rep.ToolDefinitionsDropped, rep.Notes}, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	return append(b, '\n')
}

// Golden compares got with the file at path, or rewrites the file when
// update is set.
func Golden(tb testing.TB, update bool, path string, got []byte) {
	tb.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run the test with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		tb.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// Fuzz runs an importer on data and checks that it does not panic and that
// whatever sessions it emits are consistent and validate as trace v1.
func Fuzz(t *testing.T, data []byte, run func(sink ingest.Sink, rep *ingest.Report) error) {
	t.Helper()
	var sink Sink
	rep := ingest.NewReport("fuzz")
	err := run(&sink, rep)
	if sink.Bad != nil {
		t.Fatalf("inconsistent session: %v", sink.Bad)
	}
	if err != nil {
		return // errors are fine; panics and bad output are not
	}
	Validate(t, Encode(t, sink.Sessions))
}

// Calls describes the tool calls and searches of a session, one line each:
// "search QUERY -> SEARCH-TEXT" or "call SERVER/TOOL ARGS STATUS", for
// compact assertions on what an importer made of them.
func Calls(s *ingest.Session) []string {
	var out []string
	for i, ev := range s.Events {
		switch ev.Type {
		case traces.ToolSearch:
			out = append(out, "search "+ev.Query()+" -> "+s.SearchText[i])
		case traces.ToolCall:
			out = append(out, "call "+ev.Server+"/"+ev.Tool+" "+string(ev.Args)+" "+ev.Status)
		}
	}
	return out
}
