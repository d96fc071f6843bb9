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
// criterion on the shared tau2 gpt-4o telecom run: imported with the
// project's importer, calibrated on the sessions at even positions
// (docs/calibrate.md's command), the written scenario loads and `run`
// replays exactly the odd sessions without edits, and the run's fidelity
// (engine) agrees with calibrate's held-out figures.
func TestCalibrateWritesAReplayableScenario(t *testing.T) {
	src := shareddata.Path(t, "sessions", "tau2-bench", "data", "simulations",
		"2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json")
	tools := shareddata.Path(t, "sessions", "tau2-bench", "web", "leaderboard", "public", "task-data", "tools-data.json")
	dir := t.TempDir()
	trace := filepath.Join(dir, "data", "telecom.jsonl.gz")
	if err := os.MkdirAll(filepath.Dir(trace), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := runCLI(t, "trace", "import", "--from", "tau2", src, "--tools", tools, "-o", trace); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, out)
	}
	scen := filepath.Join(dir, "out", "telecom.yaml")
	calJSON := filepath.Join(dir, "out", "telecom-cal.json")
	if err := os.MkdirAll(filepath.Dir(scen), 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, "calibrate", trace, "--fit-on", "even", "-o", scen, "--json", calJSON)
	if code != 0 {
		t.Fatalf("calibrate: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "held-out sessions it replays:") {
		t.Errorf("calibrate does not say where the held-out sessions went:\n%s", out)
	}
	// The telecom tools are in no shared listing: the written scenario
	// allows the held-out sessions' unresolved share, says why, and so
	// replays without an edit or --allow-unresolved (docs/calibrate.md).
	const unresolved = "47 of the held-out sessions' 50 tool calls (94.0%) do not resolve"
	written, err := os.ReadFile(scen)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, unresolved) || !strings.Contains(string(written), "\nmax_unresolved: 0.94\n") ||
		!strings.Contains(string(written), "# "+unresolved) {
		t.Errorf("calibrate does not name the unresolved share (%q) and allow it in the scenario:\n%s\n%s", unresolved, out, written)
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
			Overhead     struct {
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
	if run.Run.Counts.SessionsReplayed != c.HeldSessions || c.HeldSessions != 10 {
		t.Errorf("run replayed %d sessions; %d held out", run.Run.Counts.SessionsReplayed, c.HeldSessions)
	}
	if f.LatencyRequests != c.HeldOut.Requests.N || math.Abs(f.LatencyMedian-c.HeldOut.Requests.Median) > 1e-12 ||
		math.Abs(f.LatencyP90-c.HeldOut.Requests.P90) > 1e-12 || math.Abs(f.InputMedian-c.Overhead.After.InputMedian) > 1e-12 {
		t.Errorf("run fidelity %+v disagrees with calibrate's held-out figures %+v", f, c)
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
