package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/traces/importers"
)

// TestFidelityTau2Telecom replays the recorded tau2 gpt-4o telecom run
// under eager (the strategy it was recorded with) and pins that the
// simulated prompt tokens of each request match the recorded usage: median
// absolute relative error under 2% and 90th percentile under 3%
// (docs/fidelity.md reports the measured figures).
func TestFidelityTau2Telecom(t *testing.T) {
	if testing.Short() {
		t.Skip("imports and replays a real run")
	}
	dir := shareddata.Path(t, "sessions", "tau2-bench")
	run := filepath.Join(dir, "data", "simulations", "2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json")
	tools := filepath.Join(dir, "derived", "tools_telecom.json")
	tmp := t.TempDir()
	out := filepath.Join(tmp, "telecom.jsonl.gz")
	if _, err := importers.Run(importers.Request{Format: "tau2", Inputs: []string{run}, Out: out, ToolFiles: []string{tools}}); err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Parse([]byte(`
name: fidelity
seed: 1
traces: [telecom.jsonl.gz]
catalogs: [telecom.jsonl.gz.catalog]
model: gpt-4o
params:
  request_overhead_tokens: 0
strategies: [eager]
`), "fidelity.yaml", tmp)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := FromScenario(sc, Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Bootstrap = -1
	// 84 of the run's 90 calls are of tools the leaderboard listing does
	// not define: without --allow-unresolved the run stops, naming them.
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Fatal("the run did not stop on its unresolved calls")
	}
	cfg.AllowUnresolved = true
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Info.Resolution; r == nil || r.Calls != 90 || r.UnknownTool != 84 || !r.AllowUnresolved {
		t.Errorf("resolution = %+v, want 84 of 90 calls unknown tools, allowed", r)
	}
	f := res.Info.Fidelity
	if f == nil || f.Requests < 200 {
		t.Fatalf("fidelity = %+v, want at least 200 compared requests", f)
	}
	t.Logf("requests %d, median |rel err| %.4f, p90 %.4f, mean signed %.4f", f.Requests, f.InputMedianAbsRelErr, f.InputP90AbsRelErr, f.InputMeanRelErr)
	if f.InputMedianAbsRelErr > 0.02 || f.InputP90AbsRelErr > 0.03 {
		t.Errorf("input token error too large: median %.4f (want ≤ 0.02), p90 %.4f (want ≤ 0.03)", f.InputMedianAbsRelErr, f.InputP90AbsRelErr)
	}
}
