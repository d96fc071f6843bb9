package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStderrLinesCarryThePrefix pins the convention of docs/cli.md: every
// line a command writes to stderr, other than its progress, starts
// "defersim: " (a warning, a note, the error), or is indented under such a
// line as the rest of its message. `sweep --format csv` wrote the lines
// the text prints around its table bare ("strategy.warm.max_tools applies
// to …", "note: …", "unchanged at every value of …").
func TestStderrLinesCarryThePrefix(t *testing.T) {
	dir := t.TempDir()
	cats, trace := writeOverflowFixture(t, filepath.Join(dir, "large"), 8000)
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(empty, "quiet@1.0.0.json"), []byte(`{"tools":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // a line stderr must hold, so that the case tests a message
	}{
		{"sweep csv notes", []string{"sweep", "--param", "strategy.warm.max_tools=2:6:4", "--strategies", "eager,claude-code-default",
			"--bootstrap", "-1", "--format", "csv", "-o", filepath.Join(dir, "sw1")},
			"defersim: note: unchanged at every value of strategy.warm.max_tools"},
		{"sweep csv warning", []string{"sweep", "--param", "model.context_window=20000:40000:20000", "--strategies", "eager,claude-code-default",
			"--bootstrap", "-1", "--format", "csv", "-o", filepath.Join(dir, "sw2")},
			"defersim: warning: requests over the context window"},
		{"run large tool", []string{"run", "--traces", trace, "--catalogs", cats, "--strategies", "claude-code-default",
			"--bootstrap", "-1", "--no-report", "-o", filepath.Join(dir, "run")},
			`defersim: note: notes@1.0.0: tool "dump"`},
		{"catalog stats empty server", []string{"catalog", "stats", empty},
			"defersim: warning: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
			label := tc.args[0] + ": " // a progress line starts with the command's name
			inMessage := false
			for i, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
				switch {
				case strings.HasPrefix(l, "defersim: "):
					inMessage = true
				case strings.HasPrefix(l, "  ") && inMessage:
				case strings.HasPrefix(l, label):
					inMessage = false
				default:
					t.Errorf("stderr line %d does not start %q: %q", i+1, "defersim: ", l)
				}
			}
		})
	}
}
