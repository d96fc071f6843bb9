package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestLargeToolNotedOncePerTool pins that run notes a tool over
// catalog.DefaultOutlierTokens once, naming every version of its server
// that holds it over, not once per version: a catalog directory with three
// versions of one server repeated the same note three times for one tool.
func TestLargeToolNotedOncePerTool(t *testing.T) {
	dir := t.TempDir()
	cats, trace := writeOverflowFixture(t, filepath.Join(dir, "a"), 8000)
	bigger, _ := writeOverflowFixture(t, filepath.Join(dir, "b"), 9000)
	one, err := os.ReadFile(filepath.Join(cats, "notes@1.0.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	two, err := os.ReadFile(filepath.Join(bigger, "notes@1.0.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"notes@1.1.0.json": one, "notes@2.0.0.json": two} {
		if err := os.WriteFile(filepath.Join(cats, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := cliRun(t, "run", "--traces", trace, "--catalogs", cats, "--strategies", "claude-code-default",
		"--bootstrap", "-1", "--no-report", "-o", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	var notes []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "defersim: note: notes") {
			notes = append(notes, l)
		}
	}
	if len(notes) != 1 {
		t.Fatalf("want one note for tool dump, got %d:\n%s", len(notes), stderr)
	}
	if !strings.Contains(notes[0], `notes: tool "dump" is over 10000 (catalog stats --outlier-tokens) in 1.0.0, 1.1.0 and 2.0.0: `) ||
		!strings.Contains(notes[0], " tokens in 1.0.0 and 1.1.0 (") || !strings.Contains(notes[0], " tokens in 2.0.0 (") {
		t.Errorf("the note does not name the versions and their sizes:\n%s", notes[0])
	}
}

// TestLargeToolNoteWording pins the note's words for one version (as run
// always wrote it), for versions of one size, and for versions of several
// sizes (each size once, with its versions), versions in version order.
func TestLargeToolNoteWording(t *testing.T) {
	lt := func(version string, tokens, server int64) sim.LargeTool {
		return sim.LargeTool{Server: "notes", Version: version, Tool: "dump", Tokens: tokens, ServerTokens: server}
	}
	const tail = "; every request that sends its definition pays for it — check that the catalog holds the definition the server sends\n"
	tests := []struct {
		name  string
		tools []sim.LargeTool
		want  string
	}{
		{"one version", []sim.LargeTool{lt("1.0.0", 12015, 12033)},
			`defersim: note: notes@1.0.0: tool "dump" is 12015 tokens, 99.9% of the 12033 of its server's tools: over 10000 (catalog stats --outlier-tokens)`},
		{"one size", []sim.LargeTool{lt("1.10.0", 12015, 12033), lt("1.9.0", 12015, 12033)},
			`defersim: note: notes: tool "dump" is 12015 tokens in 1.9.0 and 1.10.0, 99.9% of the 12033 of its server's tools: over 10000 (catalog stats --outlier-tokens)`},
		{"two sizes", []sim.LargeTool{lt("2.0", 20000, 40000), lt("1.0", 12015, 12033), lt("1.1", 12015, 12033)},
			`defersim: note: notes: tool "dump" is over 10000 (catalog stats --outlier-tokens) in 1.0, 1.1 and 2.0: ` +
				`12015 tokens in 1.0 and 1.1 (99.9% of the 12033 of its server's tools) and 20000 tokens in 2.0 (50.0% of the 40000 of its server's tools)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			noteLargeTools(&b, tc.tools)
			if got := b.String(); got != tc.want+tail {
				t.Errorf("got  %q\nwant %q", got, tc.want+tail)
			}
		})
	}
}
