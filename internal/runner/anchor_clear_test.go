package runner

import (
	"context"
	"testing"

	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestDefaultAnchorRowsHaveNoCallsTheClearingPrevents pins issue 16's
// done-when for the anchor's warm-set clearing on the default report: every
// catalog change of the embedded trace comes between two runs (the step
// after it is a user message), so every stale-warm call of a name-keyed set
// falls in a later run, where the anchor runtime has emptied its warm set
// (REFERENCE §1). The anchor rows must therefore have no stale-warm and no
// malformed call, while the same rules without the clearing do have some
// (the check is not empty).
func TestDefaultAnchorRowsHaveNoCallsTheClearingPrevents(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	f, err := defaultdata.FS().Open(defaultdata.TraceFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := traces.NewReader(f, defaultdata.TraceFile, traces.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	changes := 0
	for s, err := range rd.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		n := sim.ExtractNeed(s)
		for i, st := range n.Steps {
			if st.Kind != sim.StepCatalogChange {
				continue
			}
			changes++
			if i+1 < len(n.Steps) && n.Steps[i+1].Kind != sim.StepUser {
				t.Errorf("session %s: the catalog change of %s to %s is inside a run (next step kind %d)", n.SessionID, st.Server, st.Version, n.Steps[i+1].Kind)
			}
		}
	}
	if changes == 0 {
		t.Fatal("the embedded trace has no catalog change: nothing to check")
	}

	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	anchors := []string{"anchor-e1-budget8k", "anchor-e4-budget-or-categorical", "anchor-e6-never-defer-openers",
		"anchor-e7-per-tool", "anchor-e9-warm-capped"}
	if err := sc.SelectStrategies(append([]string{"eager"}, anchors...)); err != nil {
		t.Fatal(err)
	}
	for _, name := range anchors {
		s, _ := sc.Strategy(name)
		if s.Warm.Clear != sim.WarmClearRegistryChange {
			t.Fatalf("%s: warm.clear = %q", name, s.Warm.Clear)
		}
		s.Name += "-no-clear"
		s.Warm.Clear = ""
		sc.Strategies = append(sc.Strategies, s)
	}
	cfg, err := FromScenario(sc, Overrides{}, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Bootstrap = -1
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	o := out.Run.Outcomes
	total := func(si, m int) (sum float64) {
		for _, v := range o.Values[si][m] {
			sum += v
		}
		return sum
	}
	for si, s := range o.Strategies {
		stale, malformed := total(si, sim.MStaleWarmCalls), total(si, sim.MMalformedCalls)
		t.Logf("%s: %v stale-warm calls, %v malformed, %v searches, %v calls without schema", s.Name, stale, malformed, total(si, sim.MSearches), total(si, sim.MCallsWithoutSchema))
		switch {
		case s.Warm.Clear == sim.WarmClearRegistryChange && (stale != 0 || malformed != 0):
			t.Errorf("%s: %v stale-warm and %v malformed calls, want none", s.Name, stale, malformed)
		case s.Name != "eager" && s.Warm.Clear == "" && stale == 0:
			t.Errorf("%s: no stale-warm call without the clearing: the check is empty", s.Name)
		}
	}
}
