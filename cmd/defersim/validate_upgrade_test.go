package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// upgradeTrace writes a trace of two sessions on srv 1.0.0 (scenarioFixture's
// catalogs), each calling get and then old, a tool srv 2.0.0 no longer
// serves.
func upgradeTrace(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for i, id := range []string{"u1", "u2"} {
		at := func(sec int) string { return fmt.Sprintf(`"t":"2026-03-02T1%d:00:%02dZ"`, i, sec) }
		fmt.Fprintf(&b, `{"v":1,"type":"session_start","session":%q,%s,"model":"m","servers":[{"name":"srv","version":"1.0.0"}]}`+"\n", id, at(0))
		fmt.Fprintf(&b, `{"type":"user","session":%q,%s,"text":"fetch the record","text_tokens":8}`+"\n", id, at(1))
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,%s,"id":"r1","usage":{"input":2460,"output":22}}`+"\n", id, at(2))
		fmt.Fprintf(&b, `{"type":"tool_call","session":%q,%s,"request":"r1","call_id":"c1","tool":"get","server":"srv","args":{"id":"x"},"status":"ok","result_bytes":40}`+"\n", id, at(3))
		fmt.Fprintf(&b, `{"type":"tool_call","session":%q,%s,"request":"r1","call_id":"c2","tool":"old","server":"srv","args":{"id":"x"},"status":"ok","result_bytes":40}`+"\n", id, at(4))
		fmt.Fprintf(&b, `{"type":"session_end","session":%q,%s}`+"\n", id, at(5))
	}
	trace := filepath.Join(dir, "upgrade.jsonl")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return trace
}

// resolutionOf returns results.json's run.resolution, decoded.
func resolutionOf(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Run struct {
			Resolution map[string]any `json:"resolution"`
		} `json:"run"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r.Run.Resolution
}

// TestValidateScenarioReplaysUpgrades pins that `trace validate --scenario`
// counts the calls a scenario upgrade leaves unserved as run does
// (run.resolution.unknown_tool_after_upgrade, by the replay's code,
// sim.Engine.ResolveNeeds): its whole run.resolution equals the run's
// results.json, and it exits 2 ("well-formed, but run would stop") when
// those calls push the share past max_unresolved, where run stops. It
// counted them resolved and said "valid" (exit 0) of traces that run
// then stopped on.
func TestValidateScenarioReplaysUpgrades(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	dir, _, head := scenarioFixture(t)
	trace := upgradeTrace(t, dir)
	tests := []struct {
		name    string
		limit   []string // to both commands
		removed float64  // calls to old after the upgrade
		stops   bool
	}{
		// after_session 1: u2's old is unresolved, 1 of 4 calls (25%).
		{name: "under the limit", limit: []string{"--max-unresolved", "0.5"}, removed: 1},
		{name: "past the limit", removed: 1, stops: true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			scen := filepath.Join(dir, fmt.Sprintf("u%d.yaml", i))
			body := head + `servers: {srv: {upgrades: [{to: "2.0.0", after_session: 1}]}}` + "\nstrategies: [eager]\n"
			if err := os.WriteFile(scen, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			limit := tc.limit
			out := filepath.Join(dir, fmt.Sprintf("uout%d", i))
			runOut, runErr, runCode := cliRun(t, append([]string{"run", scen, "--traces", trace, "--bootstrap", "-1", "-q", "--no-report", "-o", out}, limit...)...)
			text, verr, code := cliRun(t, append([]string{"trace", "validate", "--scenario", scen, trace}, limit...)...)
			js, _, _ := cliRun(t, append([]string{"trace", "validate", "--format", "json", "--scenario", scen, trace}, limit...)...)
			var rep struct {
				Valid   bool   `json:"valid"`
				Verdict string `json:"verdict"`
				Run     struct {
					Resolution map[string]any `json:"resolution"`
					Stops      bool           `json:"stops"`
					Reason     string         `json:"reason"`
				} `json:"run"`
			}
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatalf("validate json: %v\n%s", err, js)
			}
			if got := rep.Run.Resolution["unknown_tool_after_upgrade"]; got != tc.removed {
				t.Errorf("validate's unknown_tool_after_upgrade = %v, want %v\n%s", got, tc.removed, text)
			}
			if !rep.Valid {
				t.Errorf("validate: the traces are not valid:\n%s", text)
			}
			if tc.stops {
				if runCode != 2 || !strings.Contains(runErr, "nothing was written") {
					t.Fatalf("run: exit %d, want a stop\n%s%s", runCode, runOut, runErr)
				}
				if code != 2 || !rep.Run.Stops || !strings.Contains(runErr, rep.Run.Reason) {
					t.Errorf("validate: exit %d, stops %v, reason %q; want 2 and run's reason:\n%s%s", code, rep.Run.Stops, rep.Run.Reason, runErr, text)
				}
				lines := strings.Split(strings.TrimSpace(text), "\n")
				last := lines[len(lines)-1]
				if !strings.HasPrefix(last, "well-formed, but run would stop: 1 file (0 unreadable), 12 lines, 12 events, 2 sessions, 0 problems; run would stop: 1 of 4 tool calls (25.0%) did not resolve") ||
					rep.Verdict != verdictRunWouldStop {
					t.Errorf("validate's summary %q, verdict %q; want it to say the traces are well-formed but run would stop, and why", last, rep.Verdict)
				}
				if !strings.Contains(text, "run: 1 of the calls that would not resolve call a tool the sessions' recorded server versions serve") {
					t.Errorf("validate does not say the upgrade's unresolved calls:\n%s", text)
				}
				// The stop points at what validate says of them: a
				// count, no line (TestUnresolvedErrorValidateHintFitsUpgradeCalls).
				if !strings.Contains(runErr, "`defersim trace validate --scenario` with the run's scenario and catalogs counts this call in its run: line but lists no line for it") ||
					strings.Contains(runErr, "lists each call with its line") || !strings.Contains(text, ", 0 problems;") {
					t.Errorf("run's stop does not say validate only counts the call, or validate lists a line for it:\n%s\n%s", runErr, text)
				}
				return
			}
			if runCode != 0 || code != 0 || rep.Run.Stops || rep.Verdict != verdictValid {
				t.Fatalf("run: exit %d, validate: exit %d, stops %v, verdict %q (want 0, 0, false, valid)\n%s%s\n%s%s", runCode, code, rep.Run.Stops, rep.Verdict, runOut, runErr, text, verr)
			}
			if d := cmp.Diff(resolutionOf(t, filepath.Join(out, "results.json")), rep.Run.Resolution); d != "" {
				t.Errorf("run.resolution (-run +validate):\n%s", d)
			}
		})
	}
}

// TestValidateScenarioStrategies pins that `trace validate --scenario
// --strategies` replaces the scenario's strategies as run's --strategies
// does (the same flag and runner.Overrides): the never_defer entries
// checked are those of the strategies named, as run's
// run.scenario_entries_unreplayed, and a name neither the scenario nor a
// preset has is run's stop; without --scenario the flag is refused.
// validate took no --strategies, so it warned of the entries of
// strategies the run would not replay.
func TestValidateScenarioStrategies(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	dir, trace, head := scenarioFixture(t)
	scen := filepath.Join(dir, "st.yaml")
	if err := os.WriteFile(scen, []byte(head+"strategies:\n- eager\n- {name: mine, base: claude-code-default, never_defer: [put]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		strategies string
		unreplayed int
		stops      string
	}{
		{name: "the scenario's", unreplayed: 1},
		{name: "eager only", strategies: "eager"},
		{name: "mine and a preset", strategies: "mine,claude-code-default", unreplayed: 1},
		{name: "a name nothing has", strategies: "nope", stops: `strategy "nope" is neither in scenario`},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var flag []string
			if tc.strategies != "" {
				flag = []string{"--strategies", tc.strategies}
			}
			out := filepath.Join(dir, fmt.Sprintf("stout%d", i))
			runOut, runErr, runCode := cliRun(t, append([]string{"run", scen, "--traces", trace, "--bootstrap", "-1", "-q", "--no-report", "-o", out}, flag...)...)
			js, verr, code := cliRun(t, append([]string{"trace", "validate", "--format", "json", "--scenario", scen, trace}, flag...)...)
			var rep validateReport
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatalf("validate json: %v\n%s%s", err, js, verr)
			}
			if tc.stops != "" {
				if runCode != 2 || !strings.Contains(runErr, tc.stops) {
					t.Fatalf("run: exit %d, want 2 saying %q\n%s%s", runCode, tc.stops, runOut, runErr)
				}
				if code != 2 || !rep.Run.Stops || !strings.Contains(rep.Run.Reason, tc.stops) || !strings.Contains(runErr, rep.Run.Reason) {
					t.Errorf("validate: exit %d, stops %v, reason %q; want 2 and run's reason\n%s", code, rep.Run.Stops, rep.Run.Reason, runErr)
				}
				return
			}
			if runCode != 0 || code != 0 {
				t.Fatalf("run: exit %d, validate: exit %d\n%s%s\n%s%s", runCode, code, runOut, runErr, js, verr)
			}
			data, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Run struct {
					Unreplayed []map[string]any `json:"scenario_entries_unreplayed"`
				} `json:"run"`
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Run.Unreplayed) != tc.unreplayed || len(rep.Scenario.Unreplayed) != tc.unreplayed {
				t.Errorf("unreplayed entries: run %d, validate %d, want %d", len(res.Run.Unreplayed), len(rep.Scenario.Unreplayed), tc.unreplayed)
			}
		})
	}
	t.Run("without --scenario", func(t *testing.T) {
		_, stderr, code := cliRun(t, "trace", "validate", "--strategies", "eager", trace)
		if code != 2 || !strings.Contains(stderr, "--strategies needs --scenario") {
			t.Errorf("exit %d, want 2 saying --strategies needs --scenario:\n%s", code, stderr)
		}
	})
}
