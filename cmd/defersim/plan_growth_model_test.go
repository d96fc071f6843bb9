package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanGrowthModel pins that plan --growth replays its growth runs under
// --model as run does, and that on results of a run under another model
// than the growth scenario's the fingerprint note says which and the
// --model to add: results of `run --model gpt-4o` grew under
// claude-sonnet-4.5, the note naming only the fingerprints.
func TestPlanGrowthModel(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "12")
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	if out, errs, code := cliRun(t, "run", "--traces", trace, "--catalogs", cat, "--strategies", "eager,claude-code-default",
		"--model", "gpt-4o", "-o", runDir, "--no-report", "--bootstrap", "-1"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	const note = "; the results' model is gpt-4o, the growth runs' claude-sonnet-4.5 (add --model gpt-4o)"
	for _, tc := range []struct {
		name string
		args []string
		note bool
	}{
		{"without --model", nil, true},
		{"with --model", []string{"--model", "gpt-4o"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"plan", filepath.Join(runDir, "results.json"), "--sessions-per-day", "100", "--growth", "1,1.1", "--bootstrap", "-1",
				"--traces", trace, "--catalogs", cat, "-o", filepath.Join(t.TempDir(), "plan")}, tc.args...)
			out, errs, code := cliRun(t, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			if got := strings.Contains(out, note); got != tc.note {
				t.Errorf("note %q given = %v, want %v:\n%s", note, got, tc.note, out)
			}
			if !tc.note && strings.Contains(out, "fingerprint") {
				t.Errorf("growth under the results' model still notes a fingerprint:\n%s", out)
			}
		})
	}
}
