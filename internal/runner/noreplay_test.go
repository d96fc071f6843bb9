package runner

import (
	"context"
	"fmt"
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

// TestNoSessionReplayedSaysTheFilesAreEmpty pins that a run over empty
// trace files says they are empty and what to check: it said "0 sessions
// read (0 failed in the replay); 0 lines read", naming no cause.
func TestNoSessionReplayedSaysTheFilesAreEmpty(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		files int
		want  string
	}{
		{"one", 1, "0 lines read: the 1 trace file is empty; check that the export that wrote it finished (`defersim trace validate FILE` says which file is empty)"},
		{"two", 2, "0 lines read: the 2 trace files are empty; check that the export that wrote them finished"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := dupConfig(t, 1, []int{0})
			cfg.Traces = nil
			for i := range tc.files {
				p := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", tc.name, i))
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				cfg.Traces = append(cfg.Traces, Source{Path: p})
			}
			_, err := Run(context.Background(), cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant it to say %q", err, tc.want)
			}
		})
	}
}
