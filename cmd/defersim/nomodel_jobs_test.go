package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
)

// TestRunPlanSweepSaySessionsWithoutModel pins that run, plan and sweep
// say when the sessions record no model and they priced them as the
// scenario's: the 15 ToolBench answers record none, and run replayed them
// as claude-sonnet-4.5 with no word in its summary, results.json or
// report, plan projected them so, and sweep's notes were silent. The
// tau-bench import, whose 200 sessions record gpt-4o, gets the note on
// another model instead, and no sessions_without_model in results.json.
func TestRunPlanSweepSaySessionsWithoutModel(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the shared sessions (-short)")
	}
	tb := toolbenchAnswers(t)
	const noModel = "15 of 15 sessions record no model; they are priced and timed as claude-sonnet-4.5"
	tests := []struct {
		name    string
		req     importers.Request
		without int64  // results.json sessions_without_model
		note    string // in the summary, report.md, plan and sweep.json
	}{
		{"toolbench", importers.Request{Format: "toolbench", Inputs: tb}, 15, noModel},
		{"tau-bench", importers.Request{Format: "tau-bench", Inputs: []string{shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")}},
			0, `200 of 200 sessions were recorded with another model than the run's ("gpt-4o" in 200)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.req.Out = filepath.Join(dir, tc.name+".jsonl.gz")
			if _, err := importers.Run(tc.req); err != nil {
				t.Fatal(err)
			}
			runDir := filepath.Join(dir, "run")
			out, errs, code := cliRun(t, "run", "--traces", tc.req.Out, "--allow-unresolved", "--strategies", "eager,claude-code-default",
				"--bootstrap", "-1", "-o", runDir)
			if code != 0 {
				t.Fatalf("run: exit %d\n%s", code, errs)
			}
			if !strings.Contains(out, "Note:") || !strings.Contains(out, tc.note) {
				t.Errorf("run summary does not say %q:\n%s", tc.note, out)
			}
			var res struct {
				Without *int64 `json:"sessions_without_model"`
			}
			if err := json.Unmarshal(fileDoc(t, filepath.Join(runDir, "results.json"))(""), &res); err != nil {
				t.Fatal(err)
			}
			switch w := res.Without; {
			case tc.without == 0 && w != nil:
				t.Errorf("results.json sessions_without_model = %d, want it absent", *w)
			case tc.without > 0 && (w == nil || *w != tc.without):
				t.Errorf("results.json sessions_without_model = %v, want %d", w, tc.without)
			}
			md, err := os.ReadFile(filepath.Join(runDir, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(md), tc.note) {
				t.Errorf("report.md does not say %q", tc.note)
			}
			plan, errs, code := cliRun(t, "plan", filepath.Join(runDir, "results.json"), "--sessions-per-day", "1000", "-o", filepath.Join(dir, "plan"))
			if code != 0 {
				t.Fatalf("plan: exit %d\n%s", code, errs)
			}
			planNote := strings.Replace(tc.note, "; they are priced and timed as", "; the projection prices and times them as", 1)
			if !strings.Contains(plan, "warning: "+planNote) {
				t.Errorf("plan does not warn %q:\n%s", planNote, plan)
			}
			sweepDir := filepath.Join(dir, "sweep")
			if _, errs, code := cliRun(t, "sweep", "--param", "params.search_exec_ms=0:100:100", "--strategies", "eager,claude-code-default",
				"--traces", tc.req.Out, "--allow-unresolved", "-o", sweepDir, "--bootstrap", "-1"); code != 0 {
				t.Fatalf("sweep: exit %d\n%s", code, errs)
			}
			var sw struct {
				Notes []string `json:"notes"`
			}
			if err := json.Unmarshal(fileDoc(t, filepath.Join(sweepDir, "sweep.json"))(""), &sw); err != nil {
				t.Fatal(err)
			}
			if notes := strings.Join(sw.Notes, "\n"); !strings.Contains(notes, tc.note) {
				t.Errorf("sweep.json notes do not say %q:\n%s", tc.note, notes)
			}
		})
	}
}
