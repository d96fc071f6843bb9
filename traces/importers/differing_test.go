package importers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces/importers"
)

// TestDifferingDefinitionsNoted pins that a tool two exact schema sources
// of a session define differently is noted, naming both: a conversation's
// own mcp__github__get_issue beside a --tools directory's github@1.0.0
// was merged, the first definition winning, under a hash version, with no
// word that the file's definition differs from the one the sessions ran
// with (a sign that it is another version). The same definition, or a
// differing --approximate-tools one, is not noted.
func TestDifferingDefinitionsNoted(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const recorded = `{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}`
	const newer = `{"type":"object","properties":{"number":{"type":"integer"},"comments":{"type":"boolean"}},"required":["number","comments"]}`
	conv := write("in.jsonl", `{"id":"s1","tools":[{"name":"mcp__github__get_issue","description":"Get an issue","input_schema":`+recorded+`}],`+
		`"messages":[{"role":"user","content":"issue 4"},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"mcp__github__get_issue","input":{"number":4}}]},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"ok"}]},{"role":"assistant","content":"done"}]}`)
	file := func(name, schema string) string {
		return write(name, `{"tools":[{"name":"get_issue","description":"Get an issue","inputSchema":`+schema+`},{"name":"list_issues","inputSchema":{"type":"object"}}]}`)
	}
	newerDir := filepath.Dir(file("newer/github@1.0.0.json", newer))
	sameDir := filepath.Dir(file("same/github@0.9.0.json", recorded))
	const note = "github/get_issue: conversation tools and newer/github@1.0.0.json define it differently; the catalog holds the first"
	for _, tc := range []struct {
		name          string
		tools, approx []string
		want          bool
	}{
		{"a newer file", []string{newerDir}, nil, true},
		{"the same definition", []string{sameDir}, nil, false},
		{"a newer file, approximate", nil, []string{newerDir}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := importers.Run(importers.Request{Format: "anthropic-messages", Inputs: []string{conv}, Out: filepath.Join(t.TempDir(), "t.jsonl"),
				ToolFiles: tc.tools, ApproximateToolFiles: tc.approx})
			if err != nil {
				t.Fatal(err)
			}
			var got bool
			for _, n := range rep.Notes {
				got = got || strings.HasPrefix(n, note) || strings.Contains(n, "define it differently")
			}
			if got != tc.want {
				t.Errorf("noted %v, want %v (%q); notes:\n%s", got, tc.want, note, strings.Join(rep.Notes, "\n"))
			}
			if tc.want && !strings.Contains(strings.Join(rep.Notes, "\n"), note) {
				t.Errorf("notes lack %q:\n%s", note, strings.Join(rep.Notes, "\n"))
			}
		})
	}
}
