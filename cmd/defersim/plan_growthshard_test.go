package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanGrowthOnAShardSaysItReplaysEverySession pins that plan --growth
// on the results of one shard warns that the growth runs replay every
// session of the traces: the growth table said "same 12 sessions" under a
// projection of shard 0/2's sessions, and only the projection's warning named
// the shard (which holds 5 of the 12, by session hash). Results of the
// whole run get no such warning. plan.json says it in growth_warnings.
func TestPlanGrowthOnAShardSaysItReplaysEverySession(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "12")
	dir := t.TempDir()
	const want = "warning: the growth runs replay every session of the traces, 12, where the results are of shard 0/2 of a run, 5 sessions"
	for _, tc := range []struct {
		name  string
		shard []string
		warns bool
	}{
		{"shard 0/2", []string{"--shard", "0/2"}, true},
		{"the whole run", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runDir := filepath.Join(dir, strings.ReplaceAll(tc.name, "/", "-"))
			args := append([]string{"run", "--traces", trace, "--catalogs", cat, "--strategies", "eager,claude-code-default",
				"-o", runDir, "--no-report", "--bootstrap", "-1"}, tc.shard...)
			if out, errs, code := cliRun(t, args...); code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, out, errs)
			}
			planDir := filepath.Join(t.TempDir(), "plan")
			out, errs, code := cliRun(t, "plan", filepath.Join(runDir, "results.json"), "--sessions-per-day", "100", "--growth", "1,1.1",
				"--bootstrap", "-1", "--traces", trace, "--catalogs", cat, "-o", planDir)
			if code != 0 {
				t.Fatalf("plan: exit %d\n%s%s", code, out, errs)
			}
			if got := strings.Contains(out, want); got != tc.warns {
				t.Errorf("warning %q given = %v, want %v:\n%s", want, got, tc.warns, out)
			}
			// plan.json carries it too (growth_warnings): it was in the
			// text and Markdown plans and on --format json's stderr only.
			data, err := os.ReadFile(filepath.Join(planDir, "plan.json"))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Warnings []string `json:"growth_warnings"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			inJSON := false
			for _, w := range doc.Warnings {
				inJSON = inJSON || strings.Contains("warning: "+w, want)
			}
			if inJSON != tc.warns {
				t.Errorf("plan.json growth_warnings %q: warning given = %v, want %v", doc.Warnings, inJSON, tc.warns)
			}
		})
	}
}
