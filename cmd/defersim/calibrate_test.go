package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestCalibrateWritesAReplayableScenario pins issue 15's calibrate
// criterion on the shared tau2 runs: imported with the project's importer,
// calibrated on the sessions at even positions (docs/calibrate.md's
// commands), the written scenario loads and `run` replays exactly the odd
// sessions without edits, and the run's fidelity (engine) agrees with
// calibrate's held-out figures — request kinds included, and on the
// airline run, which records durations but no usage, too.
func TestCalibrateWritesAReplayableScenario(t *testing.T) {
	board := func(elems ...string) []string {
		return append([]string{"sessions", "tau2-bench", "web", "leaderboard", "public"}, elems...)
	}
	for _, tc := range []struct {
		name  string
		src   []string
		args  []string
		held  int
		usage bool
		// unresolved: calibrate's note on the held-out calls that do
		// not resolve; maxUnres: the max_unresolved it writes.
		unresolved, maxUnres string
	}{
		{"telecom", []string{"sessions", "tau2-bench", "data", "simulations", "2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json"}, nil, 10, true,
			"47 of the held-out sessions' 50 tool calls (94.0%) do not resolve", "0.94"},
		{"airline", board("submissions", "gpt-oss-120b_openai_2025-11-26", "trajectories", "langchain_agent_airline_2025-11-26_00-37-06.json"),
			[]string{"--model", "gpt-4o"}, 25, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := shareddata.Path(t, tc.src...)
			tools := shareddata.Path(t, board("task-data", "tools-data.json")...)
			checkCalibratedReplay(t, src, tools, tc.args, tc.held, tc.usage, tc.unresolved, tc.maxUnres)
		})
	}
}

func checkCalibratedReplay(t *testing.T, src, tools string, args []string, held int, usage bool, unresolved, maxUnres string) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "data", "tau2.jsonl.gz")
	if err := os.MkdirAll(filepath.Dir(trace), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := runCLI(t, "trace", "import", "--from", "tau2", src, "--tools", tools, "-o", trace); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, out)
	}
	scen := filepath.Join(dir, "out", "tau2.yaml")
	calJSON := filepath.Join(dir, "out", "tau2-cal.json")
	if err := os.MkdirAll(filepath.Dir(scen), 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, append([]string{"calibrate", trace, "--fit-on", "even", "--allow-unresolved", "-o", scen, "--json", calJSON}, args...)...)
	if code != 0 {
		t.Fatalf("calibrate: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "held-out sessions it replays:") {
		t.Errorf("calibrate does not say where the held-out sessions went:\n%s", out)
	}
	written, err := os.ReadFile(scen)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(written), "kind_ms:") {
		t.Errorf("the written scenario has no request-kind terms:\n%s", written)
	}
	// Where the tools are in no shared listing, the written scenario allows
	// the held-out sessions' unresolved share, says why, and so replays
	// without an edit or --allow-unresolved (docs/calibrate.md).
	if unresolved != "" && (!strings.Contains(out, unresolved) || !strings.Contains(string(written), "\nmax_unresolved: "+maxUnres+"\n") ||
		!strings.Contains(string(written), "# "+unresolved)) {
		t.Errorf("calibrate does not name the unresolved share (%q) and allow it (%s) in the scenario:\n%s\n%s", unresolved, maxUnres, out, written)
	}
	runDir := filepath.Join(dir, "run")
	if out, code := runCLI(t, "run", scen, "-o", runDir, "-q", "--no-report"); code != 0 {
		t.Fatalf("run of the written scenario: exit %d\n%s", code, out)
	}
	var run struct {
		Run struct {
			Counts struct {
				SessionsReplayed int `json:"sessions_replayed"`
			} `json:"counts"`
			Fidelity struct {
				Requests          int     `json:"requests"`
				InputMedian       float64 `json:"input_median_abs_rel_err"`
				LatencyRequests   int     `json:"latency_requests"`
				LatencyMedian     float64 `json:"latency_median_abs_rel_err"`
				LatencyP90        float64 `json:"latency_p90_abs_rel_err"`
				LatencyMeanSigned float64 `json:"latency_mean_rel_err"`
			} `json:"fidelity"`
		} `json:"run"`
	}
	readJSON(t, filepath.Join(runDir, "results.json"), &run)
	var cal struct {
		Models []struct {
			HeldSessions int `json:"held_out_sessions"`
			Overhead     *struct {
				After struct {
					InputMedian float64 `json:"input_median_abs_rel_err"`
				} `json:"held_out_after"`
			} `json:"overhead"`
			HeldOut struct {
				Requests struct {
					N      int     `json:"requests"`
					Median float64 `json:"median_abs_rel_err"`
					P90    float64 `json:"p90_abs_rel_err"`
				} `json:"requests"`
			} `json:"held_out_latency"`
		} `json:"models"`
	}
	readJSON(t, calJSON, &cal)
	if len(cal.Models) != 1 {
		t.Fatalf("%d model groups", len(cal.Models))
	}
	c, f := cal.Models[0], run.Run.Fidelity
	if run.Run.Counts.SessionsReplayed != c.HeldSessions || c.HeldSessions != held {
		t.Errorf("run replayed %d sessions; %d held out", run.Run.Counts.SessionsReplayed, c.HeldSessions)
	}
	if f.LatencyRequests == 0 || f.LatencyRequests != c.HeldOut.Requests.N || math.Abs(f.LatencyMedian-c.HeldOut.Requests.Median) > 1e-12 ||
		math.Abs(f.LatencyP90-c.HeldOut.Requests.P90) > 1e-12 {
		t.Errorf("run fidelity %+v disagrees with calibrate's held-out figures %+v", f, c)
	}
	switch {
	case usage && (c.Overhead == nil || math.Abs(f.InputMedian-c.Overhead.After.InputMedian) > 1e-12):
		t.Errorf("run's prompt-token fidelity %+v disagrees with calibrate's %+v", f, c.Overhead)
	case !usage && (c.Overhead != nil || f.Requests != 0):
		t.Errorf("no usage recorded, yet %d requests with prompt-token fidelity (overhead %+v)", f.Requests, c.Overhead)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestCalibrateOutputsAreOneSet pins issue 18's "a run's output set as a
// whole" for calibrate: when one of its outputs cannot be written (here
// --json under a path whose parent is a file, which no directory can be
// created at; a missing directory is created since outputs may name one),
// neither the scenario nor
// the held-out sessions are written, and a previous scenario is left as it
// was. Before, the scenario and held-out file were written first.
func TestCalibrateOutputsAreOneSet(t *testing.T) {
	src := shareddata.Path(t, "sessions", "tau2-bench", "data", "simulations", "2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json")
	tools := shareddata.Path(t, "sessions", "tau2-bench", "web", "leaderboard", "public", "task-data", "tools-data.json")
	trace := filepath.Join(t.TempDir(), "tau2.jsonl.gz")
	if out, code := runCLI(t, "trace", "import", "--from", "tau2", src, "--tools", tools, "-o", trace); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	scen := filepath.Join(dir, "cal.yaml")
	before := []byte("# an earlier calibration\n")
	if err := os.WriteFile(scen, before, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, "calibrate", trace, "--fit-on", "even", "--allow-unresolved", "-o", scen, "--json", filepath.Join(scen, "cal.json"))
	if code == 0 {
		t.Fatalf("calibrate with an unwritable --json exited 0:\n%s", out)
	}
	if got, err := os.ReadFile(scen); err != nil || string(got) != string(before) {
		t.Errorf("the previous scenario changed (err %v):\n%s", err, got)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"cal.yaml"}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("files after the failed calibrate = %v, want %v (nothing new, no staging left)", names, want)
	}
	if strings.Contains(out, "calibrated scenario (") {
		t.Errorf("calibrate announced a scenario it did not write:\n%s", out)
	}
}
