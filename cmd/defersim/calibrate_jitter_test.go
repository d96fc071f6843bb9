package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCalibrateJitterHeaderIsWhatRunReplays pins that a scenario written
// with --jitter quotes, in its header and in --json, the held-out
// per-request error its own replay gives: its latency draws each request's
// time, and the header used to quote the deterministic prediction's error
// (tau2 airline: p90 116%, where `defersim run` of the scenario reports
// 196%; telecom: median 2.5%, where run reports 3.6%).
func TestCalibrateJitterHeaderIsWhatRunReplays(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "g")
	if out, code := runCLI(t, "trace", "gen", "-q", "-o", gen, "--sessions", "30", "--recorded", "--seed", "3"); code != 0 {
		t.Fatalf("trace gen: exit %d\n%s", code, out)
	}
	scen, calJSON := filepath.Join(dir, "out", "g.yaml"), filepath.Join(dir, "out", "g.json")
	if err := os.MkdirAll(filepath.Dir(scen), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := runCLI(t, "calibrate", filepath.Join(gen, "trace.jsonl.gz"), "--catalogs", filepath.Join(gen, "catalog"),
		"--fit-on", "even", "--jitter", "-o", scen, "--json", calJSON); code != 0 {
		t.Fatalf("calibrate: exit %d\n%s", code, out)
	}
	var cal struct {
		Models []struct {
			HeldOut struct {
				Requests struct {
					Median float64 `json:"median_abs_rel_err"`
				} `json:"requests"`
				Replayed *struct {
					Requests int     `json:"requests"`
					Median   float64 `json:"median_abs_rel_err"`
					P90      float64 `json:"p90_abs_rel_err"`
				} `json:"replayed_with_jitter"`
			} `json:"held_out_latency"`
		} `json:"models"`
	}
	readJSON(t, calJSON, &cal)
	if len(cal.Models) != 1 || cal.Models[0].HeldOut.Replayed == nil {
		t.Fatalf("--json has no replayed_with_jitter for the written jitter: %+v", cal.Models)
	}
	rp := cal.Models[0].HeldOut.Replayed
	if rp.Median == cal.Models[0].HeldOut.Requests.Median {
		t.Fatalf("jittered median %v equals the deterministic one: the case does not tell them apart", rp.Median)
	}
	runDir := filepath.Join(dir, "run")
	if out, code := runCLI(t, "run", scen, "-o", runDir, "--no-report", "-q"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	var res struct {
		Run struct {
			Fidelity struct {
				LatencyRequests int     `json:"latency_requests"`
				Median          float64 `json:"latency_median_abs_rel_err"`
				P90             float64 `json:"latency_p90_abs_rel_err"`
			} `json:"fidelity"`
		} `json:"run"`
	}
	readJSON(t, filepath.Join(runDir, "results.json"), &res)
	f := res.Run.Fidelity
	if f.LatencyRequests != rp.Requests || f.Median != rp.Median || f.P90 != rp.P90 {
		t.Errorf("run.fidelity %d requests, median %v, p90 %v; calibrate says the scenario replays %d, %v, %v", f.LatencyRequests, f.Median, f.P90, rp.Requests, rp.Median, rp.P90)
	}
	written, err := os.ReadFile(scen)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(written), "# Held-out request time as this scenario replays it (jitter_cv ") {
		t.Errorf("the header does not quote the jittered replay's error:\n%s", written)
	}
}
