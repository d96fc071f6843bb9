package recommend

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces/importers"
)

// TestTauBench runs the recommender on the 200 recorded tau-bench airline
// sessions (gpt-4o) and checks the validation covers the current strategy
// and every preset, and that the proposal is no worse than the current
// strategy (eager) on cost and first reply. docs/recommend.md discusses the
// full table.
func TestTauBench(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 200 real sessions under 14 strategies (-short)")
	}
	src := shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")
	tools := shareddata.Path(t, "sessions", "tau-bench", "tools_airline.json")
	dir := t.TempDir()
	trace := filepath.Join(dir, "taubench.jsonl.gz")
	if _, err := importers.Run(importers.Request{Format: "tau-bench", Inputs: []string{src}, Out: trace,
		ToolFiles: []string{tools}}); err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig(t, trace, trace+".catalog")
	cfg.Model, _ = presets.Model("gpt-4o")
	cfg.Presets = nil
	cfg.Seed = 42
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p.Training+p.HeldOut != 200 {
		t.Errorf("%d + %d sessions, want 200", p.Training, p.HeldOut)
	}
	if got, want := len(p.Validation.Rows), len(presets.StrategyNames())+1; got != want {
		t.Errorf("%d validated strategies, want %d", got, want)
	}
	for _, r := range p.Validation.Rows {
		if r.Strategy == "eager" && r.Verdict != dominates {
			t.Errorf("proposal vs eager: %s (Δcost %+.5f, Δfirst reply %+.0f ms)", r.Verdict, r.CostDiff, r.FirstReplyDiff)
		}
	}
}
