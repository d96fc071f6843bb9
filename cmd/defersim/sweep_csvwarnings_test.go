package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepCSVCarriesItsWarnings pins that `sweep --format csv` ends
// every row with the kinds of warning the sweep gave on stderr (warnings:
// unmatched_entries, context_overflow, recommended_for, …, joined by
// ";", in run's order), as check's rows end with fail_reasons: a CSV read
// on its own showed none of the warnings the text gave (entries matching
// nothing, a strategy recommended for another model, requests over the
// context window). The column is empty where stderr gave no warning.
func TestSweepCSVCarriesItsWarnings(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions four times")
	}
	dir := t.TempDir()
	sc := filepath.Join(dir, "warns.yaml")
	yaml := "name: warns\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\n" +
		"model: {preset: claude-sonnet-4.5, context_window: 8000}\n" +
		"strategies:\n  - eager\n" +
		"  - {name: a, base: claude-code-default, never_defer: [screenshott], recommended_for: {model: gpt-4o}}\n"
	if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		kinds string
	}{
		{"warned", []string{sc, "--catalogs", "embedded:catalog"}, "unmatched_entries;context_overflow;recommended_for"},
		{"clean", []string{"--strategies", "eager,claude-code-default"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"sweep"}, tc.args...)
			args = append(args, "-q", "--bootstrap", "-1", "--param", "strategy.warm.max_tools=2:4:2",
				"-o", filepath.Join(dir, tc.name), "--format", "csv")
			stdout, stderr, code := cliRun(t, args...)
			if code != 0 {
				t.Fatalf("sweep: exit %d\n%s%s", code, stdout, stderr)
			}
			if warned := strings.Contains(stderr, "defersim: warning: "); warned != (tc.kinds != "") {
				t.Errorf("stderr warned: %v, want %v:\n%s", warned, tc.kinds != "", stderr)
			}
			recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if h := recs[0]; h[len(h)-1] != "warnings" {
				t.Fatalf("header %q does not end with warnings", h)
			}
			for _, r := range recs[1:] {
				if got := r[len(r)-1]; got != tc.kinds {
					t.Errorf("row %q: warnings %q, want %q", r[:3], got, tc.kinds)
				}
			}
		})
	}
}
