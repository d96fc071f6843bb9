package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanGrowthSaysTheScenarioDiffers pins that plan --growth with a
// --scenario other than the one RESULTS.json came from says what differs,
// as a warning in every format and in plan.json: it used to print a note
// naming two fingerprints in the text and Markdown plans only, so
// --format json and plan.json said nothing, and a strategy of the same
// name defined otherwise (warm.max_tools 8 in the run, 16 in the growth
// scenario) grew without a word of it.
func TestPlanGrowthSaysTheScenarioDiffers(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "12")
	dir := t.TempDir()
	scenario := func(name string, maxTools int) string {
		path := filepath.Join(dir, name+".yaml")
		body := fmt.Sprintf("name: team\ntraces: [%q]\ncatalogs: [%q]\nstrategies:\n  - eager\n  - name: mine\n    base: claude-code-default\n    warm: {max_tools: %d}\n",
			trace, cat, maxTools)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ran, other := scenario("ran", 8), scenario("other", 16)
	runDir := filepath.Join(dir, "run")
	if out, errs, code := cliRun(t, "run", ran, "-o", runDir, "--no-report", "--bootstrap", "-1"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	const want = "which differs in strategy mine (warm.max_tools 8 → 16): the growth table and where each rule breaks down describe that scenario"
	for _, tc := range []struct {
		name     string
		scenario string
		differs  bool
	}{
		{"the run's scenario", ran, false},
		{"another definition of mine", other, true},
	} {
		for _, format := range []string{"text", "json"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				planDir := filepath.Join(t.TempDir(), "plan")
				out, errs, code := cliRun(t, "plan", filepath.Join(runDir, "results.json"), "--sessions-per-day", "100", "--growth", "1,1.1",
					"--bootstrap", "-1", "--scenario", tc.scenario, "--format", format, "-o", planDir)
				if code != 0 {
					t.Fatalf("exit %d\n%s%s", code, out, errs)
				}
				said := out
				if format != "text" {
					said = errs
				}
				if got := strings.Contains(said, "warning: the growth runs replay another scenario"); got != tc.differs {
					t.Errorf("warning given = %v, want %v:\n%s", got, tc.differs, said)
				}
				if tc.differs && !strings.Contains(said, want) {
					t.Errorf("the warning does not name the difference %q:\n%s", want, said)
				}
				data, err := os.ReadFile(filepath.Join(planDir, "plan.json"))
				if err != nil {
					t.Fatal(err)
				}
				var doc struct {
					Differs *struct {
						Differences []string `json:"differences"`
					} `json:"growth_scenario_differs"`
				}
				if err := json.Unmarshal(data, &doc); err != nil {
					t.Fatal(err)
				}
				if (doc.Differs != nil) != tc.differs {
					t.Fatalf("plan.json growth_scenario_differs = %+v, want set %v", doc.Differs, tc.differs)
				}
				if tc.differs && (len(doc.Differs.Differences) != 1 || doc.Differs.Differences[0] != "strategy mine (warm.max_tools 8 → 16)") {
					t.Errorf("plan.json differences = %q, want the strategy's max_tools alone", doc.Differs.Differences)
				}
			})
		}
	}
}
