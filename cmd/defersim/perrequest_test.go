package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPerRequestEmptySaysWhy pins that run --per-request warns, even with
// --quiet, when the file it writes holds only its header, and why: over the
// generated sessions of a platform's own catalogs (no recorded usage or
// durations), or with no strategy whose trigger is "never", it wrote a
// header-only CSV and exited 0 without a word.
func TestPerRequestEmptySaysWhy(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "10")
	bare := filepath.Join(t.TempDir(), "bare.jsonl")
	splitModels(t, trace, bare, func(string) bool { return true })
	for _, tc := range []struct {
		name, trace, strategies string
		want                    string // "" = no warning, rows written
	}{
		{"recorded, eager", trace, "eager,claude-code-default", ""},
		{"nothing recorded", bare, "eager,claude-code-default", "no model request of the traces records its token usage or its duration"},
		{"no never strategy", trace, "claude-code-default", `no strategy of the run has trigger "never" (as eager)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			csv := filepath.Join(dir, "pairs.csv")
			out, errs, code := cliRun(t, "run", "--traces", tc.trace, "--catalogs", cat, "--strategies", tc.strategies,
				"--per-request", csv, "--no-report", "--bootstrap", "-1", "-q", "-o", filepath.Join(dir, "run"))
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			data, err := os.ReadFile(csv)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Count(string(data), "\n")
			warning := "defersim: warning: --per-request " + csv + " holds only its header: "
			if tc.want == "" {
				if lines < 2 || strings.Contains(errs, warning) {
					t.Errorf("%d line(s) written, stderr:\n%s", lines, errs)
				}
				return
			}
			if lines != 1 {
				t.Errorf("%d lines written, want the header alone", lines)
			}
			if !strings.Contains(errs, warning+tc.want) {
				t.Errorf("stderr lacks %q:\n%s", warning+tc.want, errs)
			}
		})
	}
}
