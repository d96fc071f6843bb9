package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoSessionReplayedCountsSkippedLines pins that a run with --skip-bad
// over a file none of whose lines is a trace event says how many lines it
// read and skipped, and why: it said "no session was replayed (0 read, 0
// skipped)", as if the file were empty.
func TestNoSessionReplayedCountsSkippedLines(t *testing.T) {
	cfg, _ := dupConfig(t, 1, []int{0})
	bad := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(bad, []byte("[\n  {\n    \"name\": \"book\"\n  }\n]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Traces = []Source{{Path: bad}}
	cfg.SkipBad = true
	_, err := Run(context.Background(), cfg)
	if err == nil {
		t.Fatal("a run over a file of no event replayed something")
	}
	for _, want := range []string{"no session was replayed", "0 sessions read", "5 lines read", "5 of them skipped as bad input (", "trace validate"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
