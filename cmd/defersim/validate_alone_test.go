package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestValidateSaysRunAloneLoadsTheScenarioCatalogs pins that `trace
// validate FILE --scenario S.yaml`, which checks what `run S.yaml --traces
// FILE` does (the trace's own catalogs), says so when FILE is the
// scenario's own trace and `run S.yaml` alone loads the scenario's
// catalogs instead, naming them and the --catalogs that checks that run:
// a scenario upgrading srv to 2.0.0, which only its own catalogs hold, was
// "run would stop on the scenario" (exit 2) with no word that `run
// S.yaml` replays it (exit 0). With that --catalogs, or a scenario naming
// no catalogs, nothing is said.
func TestValidateSaysRunAloneLoadsTheScenarioCatalogs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	dir, trace, head := scenarioFixture(t)
	own := trace + ".catalog" // the trace's own catalog: srv 1.0.0 alone
	if err := os.Mkdir(own, 0o755); err != nil {
		t.Fatal(err)
	}
	v1, err := os.ReadFile(filepath.Join(dir, "catalogs", "srv@1.0.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, "srv@1.0.0.json"), v1, 0o644); err != nil {
		t.Fatal(err)
	}
	cats := filepath.Join(dir, "catalogs")
	upgrade := "servers: {srv: {upgrades: [{to: \"2.0.0\", after_session: 0}]}}\nstrategies: [eager]\n"
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, []byte("traces: [trace.jsonl]\n"+head+upgrade), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errText, code := cliRun(t, "run", scen, "--bootstrap", "-1", "-q", "--no-report", "-o", filepath.Join(dir, "alone")); code != 0 {
		t.Fatalf("run S.yaml: exit %d, want 0\n%s%s", code, out, errText)
	}
	if _, _, code := cliRun(t, "run", scen, "--traces", trace, "--bootstrap", "-1", "-q", "--no-report", "-o", filepath.Join(dir, "with")); code != 2 {
		t.Fatalf("run S.yaml --traces FILE: exit %d, want 2 (the trace's own catalog lacks srv 2.0.0)", code)
	}
	text, _, code := cliRun(t, "trace", "validate", "--scenario", scen, trace)
	want := "run " + scen + " alone replays the same traces over its catalogs (" + cats + "): to check that run, add --catalogs " + cats
	if code != 2 || !strings.Contains(text, want) {
		t.Errorf("validate: exit %d, want 2 saying %q:\n%s", code, want, text)
	}
	js, _, _ := cliRun(t, "trace", "validate", "--format", "json", "--scenario", scen, trace)
	var rep validateReport
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Scenario == nil || !slices.Equal(rep.Scenario.AloneCatalogs, []string{cats}) {
		t.Errorf("scenario.run_alone_catalogs = %+v, want [%s]", rep.Scenario, cats)
	}

	text, _, code = cliRun(t, "trace", "validate", "--scenario", scen, "--catalogs", cats, trace)
	if code != 0 || strings.Contains(text, "alone replays") {
		t.Errorf("validate --catalogs %s: exit %d, want 0 without the note:\n%s", cats, code, text)
	}
	bare := filepath.Join(dir, "bare.yaml")
	if err := os.WriteFile(bare, []byte("traces: [trace.jsonl]\nmodel: claude-sonnet-4.5\nstrategies: [eager]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if text, _, _ = cliRun(t, "trace", "validate", "--scenario", bare, trace); strings.Contains(text, "alone replays") {
		t.Errorf("a scenario naming no catalogs: validate says\n%s", text)
	}
}
