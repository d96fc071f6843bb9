package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

// scenarioFixture writes catalogs where srv 1.0.0 serves get and old,
// srv 2.0.0 get and put, lone 1.0.0 (which no session connects) get and
// solo, and a trace of two sessions on srv 1.0.0 calling get; it returns
// the trace and the head of a scenario naming the catalogs.
func scenarioFixture(t *testing.T) (dir, trace, head string) {
	t.Helper()
	dir = t.TempDir()
	cats := filepath.Join(dir, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, tools := range map[string][]string{"srv@1.0.0.json": {"get", "old"}, "srv@2.0.0.json": {"get", "put"}, "lone@1.0.0.json": {"get", "solo"}} {
		var ts []string
		for _, n := range tools {
			ts = append(ts, `{"name":"`+n+`","description":"Get a record","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}}`)
		}
		if err := os.WriteFile(filepath.Join(cats, name), []byte(`{"tools":[`+strings.Join(ts, ",")+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	for i, id := range []string{"s1", "s2"} {
		at := func(sec int) string { return fmt.Sprintf(`"t":"2026-03-02T1%d:00:%02dZ"`, i, sec) }
		fmt.Fprintf(&b, `{"v":1,"type":"session_start","session":%q,%s,"model":"m","servers":[{"name":"srv","version":"1.0.0"}]}`+"\n", id, at(0))
		fmt.Fprintf(&b, `{"type":"user","session":%q,%s,"text":"fetch the record","text_tokens":8}`+"\n", id, at(1))
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,%s,"id":"r1","usage":{"input":2460,"output":22}}`+"\n", id, at(2))
		fmt.Fprintf(&b, `{"type":"tool_call","session":%q,%s,"request":"r1","call_id":"c1","tool":"get","server":"srv","args":{"id":"x"},"status":"ok","result_bytes":40}`+"\n", id, at(3))
		fmt.Fprintf(&b, `{"type":"session_end","session":%q,%s}`+"\n", id, at(4))
	}
	trace = filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, trace, "catalogs: [" + cats + "]\nmodel: claude-sonnet-4.5\n"
}

// TestValidateScenarioPredictsRun pins that `trace validate --scenario
// S.yaml FILE` says what `run S.yaml --traces FILE` says of the scenario:
// a never_defer entry no version the sessions replay serve (the same
// run.scenario_entries_unreplayed, the scenario's upgrades replayed, and
// so for run.resolution.unreplayed_versions), an upgrade that reaches no
// session (run.upgrades_unreached), an entry matching nothing in catalogs that are not the
// scenario's own (run.scenario_entries_unmatched), and a stop — exit 2,
// run's reason — on an entry matching nothing in the scenario's own
// catalogs or an upgrade to a version no catalog holds. validate took no
// scenario and predicted none of it.
func TestValidateScenarioPredictsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	dir, trace, head := scenarioFixture(t)
	tests := []struct {
		name, strategy, servers string
		given                   bool   // --catalogs the fixture's catalogs, to both
		stops                   string // in run's error and validate's text
		warns                   string // in validate's text
		unreplayed, unmatched   bool   // run records some
	}{
		{name: "served by the replayed version", strategy: "never_defer: [get, old]"},
		{name: "only the newer version serves it", strategy: "never_defer: [get, put]", unreplayed: true,
			warns: `run would warn: list entries that no catalog version the sessions replayed serves` + "" /* report.UnreplayedEntriesWarning */},
		{name: "a server no session connects", strategy: "never_defer: [solo]", unreplayed: true,
			warns: `strategy mine: never_defer[0]: "solo": served by lone@1.0.0 only (no session replayed its server)`},
		{name: "an upgrade to the version that serves it", strategy: "never_defer: [put]",
			servers: `servers: {srv: {upgrades: [{to: "2.0.0", after_session: 1}]}}`,
			warns:   "the traces resolved as run resolves them, its upgrades replayed"},
		{name: "an upgrade that reaches no session", strategy: "never_defer: [get]",
			servers: `servers: {srv: {upgrades: [{to: "2.0.0", after_session: 5}]}}`,
			warns:   "run would warn: The upgrade of srv to 2.0.0 (servers.srv.upgrades, after_session: 5) applied to no replayed session"},
		{name: "an entry naming no tool", strategy: "never_defer: [nope]",
			stops: `strategy mine: never_defer[0]: "nope": matches no tool of any server version in the scenario's catalogs`},
		{name: "an entry naming no tool, other catalogs", strategy: "never_defer: [nope]", given: true, unmatched: true,
			warns: "run would warn: the scenario names tools or servers the run's catalogs do not have"},
		{name: "an upgrade to a version no catalog holds", strategy: "never_defer: [get]",
			servers: `servers: {srv: {upgrades: [{to: "9.9.9", after_session: 1}]}}`,
			stops:   `to "9.9.9": the catalogs have no such version of server "srv" (have 1.0.0, 2.0.0)`},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			scen := filepath.Join(dir, fmt.Sprintf("s%d.yaml", i))
			body := head + tc.servers + "\nstrategies:\n- eager\n- {name: mine, base: claude-code-default, " + tc.strategy + "}\n"
			if err := os.WriteFile(scen, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			var flag []string
			if tc.given {
				flag = []string{"--catalogs", filepath.Join(dir, "catalogs")}
			}
			out := filepath.Join(dir, fmt.Sprintf("out%d", i))
			runOut, runErr, runCode := cliRun(t, append([]string{"run", scen, "--traces", trace, "--bootstrap", "-1", "-q", "--no-report", "-o", out}, flag...)...)
			text, verr, code := cliRun(t, append([]string{"trace", "validate", "--scenario", scen, trace}, flag...)...)
			js, _, _ := cliRun(t, append([]string{"trace", "validate", "--format", "json", "--scenario", scen, trace}, flag...)...)
			var rep validateReport
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatalf("validate json: %v\n%s", err, js)
			}
			if rep.Scenario == nil || !rep.Scenario.Checked || rep.Scenario.File == "" {
				t.Fatalf("validate's scenario = %+v, want it checked", rep.Scenario)
			}
			if tc.stops != "" {
				if runCode != 2 || !strings.Contains(runErr, tc.stops) {
					t.Fatalf("run: exit %d, want 2 saying %q\n%s%s", runCode, tc.stops, runOut, runErr)
				}
				if code != 2 || !strings.Contains(text, "run would stop on the scenario, before replaying a session: ") || !strings.Contains(text, tc.stops) {
					t.Errorf("validate: exit %d, want 2 saying run would stop: %q\n%s%s", code, tc.stops, text, verr)
				}
				if !rep.Run.Stops || !strings.Contains(runErr, rep.Run.Reason) {
					t.Errorf("validate's JSON: stops %v, reason %q, not run's:\n%s", rep.Run.Stops, rep.Run.Reason, runErr)
				}
				return
			}
			if runCode != 0 || code != 0 {
				t.Fatalf("run: exit %d, validate: exit %d (want 0)\n%s%s\n%s%s", runCode, code, runOut, runErr, text, verr)
			}
			if tc.warns != "" && !strings.Contains(text, tc.warns) {
				t.Errorf("validate lacks %q:\n%s", tc.warns, text)
			}
			if rep.Run.Stops {
				t.Errorf("validate predicts a stop: %s", rep.Run.Reason)
			}
			data, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Run struct {
					Unreplayed []sim.UnreplayedEntry `json:"scenario_entries_unreplayed"`
					Unmatched  []string              `json:"scenario_entries_unmatched"`
				} `json:"run"`
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatal(err)
			}
			if (len(res.Run.Unreplayed) > 0) != tc.unreplayed || (len(res.Run.Unmatched) > 0) != tc.unmatched {
				t.Errorf("run recorded unreplayed %v, unmatched %v; the case wants %v, %v", res.Run.Unreplayed, res.Run.Unmatched, tc.unreplayed, tc.unmatched)
			}
			if d := cmp.Diff(res.Run.Unreplayed, rep.Scenario.Unreplayed); d != "" {
				t.Errorf("scenario_entries_unreplayed (-run +validate):\n%s", d)
			}
			if d := cmp.Diff(res.Run.Unmatched, rep.Scenario.Unmatched); d != "" {
				t.Errorf("scenario_entries_unmatched (-run +validate):\n%s", d)
			}
			// run.resolution.unreplayed_versions too: srv 2.0.0, which an
			// upgrade replays, is no warning (validate said it was).
			var raw struct {
				Run struct {
					Resolution struct {
						Unreplayed []map[string]any `json:"unreplayed_versions"`
					} `json:"resolution"`
				} `json:"run"`
			}
			if err := json.Unmarshal([]byte(js), &raw); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(unreplayedOf(t, filepath.Join(out, "results.json")), raw.Run.Resolution.Unreplayed); d != "" {
				t.Errorf("unreplayed_versions (-run +validate):\n%s", d)
			}
			var unreached struct {
				Run struct {
					Unreached []sim.UnreachedUpgrade `json:"upgrades_unreached"`
				} `json:"run"`
			}
			if err := json.Unmarshal(data, &unreached); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(unreached.Run.Unreached, rep.Scenario.UpgradesUnreached); d != "" {
				t.Errorf("upgrades_unreached (-run +validate):\n%s", d)
			}
			if tc.unreplayed == (rep.Scenario.Unreplayed == nil) && !strings.Contains(text, "run would warn: list entries") == tc.unreplayed {
				t.Errorf("validate's text says the unreplayed entries: %v, want %v\n%s", !tc.unreplayed, tc.unreplayed, text)
			}
		})
	}
}

// TestValidateSaysWhatItDidNotCheckWithoutAScenario pins that `trace
// validate` without --scenario says, in text and JSON, that no scenario's
// entries, upgrades or max_unresolved were checked: it said "valid" of
// traces a run would stop on for its scenario without a word of what it
// had not looked at.
func TestValidateSaysWhatItDidNotCheckWithoutAScenario(t *testing.T) {
	dir, trace, _ := scenarioFixture(t)
	cats := filepath.Join(dir, "catalogs")
	text, _, code := cliRun(t, "trace", "validate", "--catalogs", cats, trace)
	if code != 0 || !strings.Contains(text, "scenario: NOT checked: "+notCheckedWithout+"\n") {
		t.Errorf("validate: exit %d, want 0 saying the scenario was not checked:\n%s", code, text)
	}
	js, _, _ := cliRun(t, "trace", "validate", "--format", "json", "--catalogs", cats, trace)
	var rep struct {
		Scenario *struct {
			Checked    bool   `json:"checked"`
			NotChecked string `json:"not_checked"`
		} `json:"scenario"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Scenario == nil || rep.Scenario.Checked || rep.Scenario.NotChecked != notCheckedWithout {
		t.Errorf("validate's JSON scenario = %+v, want checked false and not_checked %q", rep.Scenario, notCheckedWithout)
	}
}

// TestValidateScenarioLimit pins that `trace validate --scenario` predicts
// run's stop under the scenario's max_unresolved, as run takes it with
// --traces (a limit below the default applies; --max-unresolved replaces
// it): 1 unresolved call of 150 (0.7%) stops a run of a scenario allowing
// 0.5%, which validate without the scenario, at the default 1%, did not
// predict.
func TestValidateScenarioLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.jsonl")
	predictTrace(t, trace, []int{75, 75}, []int{1, 0}, "", nil)
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, []byte("catalogs: [embedded:catalog]\nmodel: claude-sonnet-4.5\nmax_unresolved: 0.005\nstrategies: [eager]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		stops bool
	}{
		{"no scenario", nil, false},
		{"the scenario's limit", []string{"--scenario", scen}, true},
		{"--max-unresolved replaces it", []string{"--scenario", scen, "--max-unresolved", "0.01"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"trace", "validate", "--format", "json", "--catalogs", "embedded:catalog", trace}, tc.args...)
			js, _, _ := cliRun(t, args...)
			var rep validateReport
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatalf("validate json: %v\n%s", err, js)
			}
			if rep.Run.Stops != tc.stops {
				t.Errorf("validate predicts a stop: %v, want %v (%s)", rep.Run.Stops, tc.stops, rep.Run.Reason)
			}
			if tc.args == nil {
				return
			}
			runArgs := []string{"run", scen, "--traces", trace, "--catalogs", "embedded:catalog", "--bootstrap", "-1", "-q", "--no-report", "-o", filepath.Join(dir, tc.name)}
			_, runErr, code := cliRun(t, append(runArgs, tc.args[2:]...)...)
			if stopped := code == 2 && strings.Contains(runErr, "nothing was written"); stopped != tc.stops {
				t.Errorf("run stopped: %v (exit %d), validate predicted %v\n%s", stopped, code, tc.stops, runErr)
			}
		})
	}
}
