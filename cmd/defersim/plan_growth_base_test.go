package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanGrowthRefusesAnotherBase pins that `plan RESULTS --growth` with
// results of a run over the user's own traces and catalogs replayed the
// embedded default scenario (no --scenario, --traces or --catalogs given)
// and printed "same 350 sessions" beside a projection of other sessions.
// It now stops with exit 2 and says what differs; given the run's traces
// and catalogs it goes on.
func TestPlanGrowthRefusesAnotherBase(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "12")
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	if out, errs, code := cliRun(t, "run", "--traces", trace, "--catalogs", cat, "--strategies", "eager,claude-code-default",
		"-o", runDir, "--no-report", "--bootstrap", "-1"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	results := filepath.Join(runDir, "results.json")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"default scenario", nil, 2, "the growth base is not the run the results come from: its traces are not the ones the results replayed"},
		{"the run's inputs", []string{"--traces", trace, "--catalogs", cat}, 0, "catalog growth (same 12 sessions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"plan", results, "--sessions-per-day", "100", "--growth", "1,1.1", "--bootstrap", "-1",
				"-o", filepath.Join(t.TempDir(), "plan")}, tc.args...)
			out, errs, code := cliRun(t, args...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Errorf("exit %d, want %d and %q in:\n%s%s", code, tc.code, tc.want, out, errs)
			}
		})
	}
}
