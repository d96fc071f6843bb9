package realdrift

import (
	"context"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/scenarios"
)

// TestEarlyUpgradeCountsRemovedToolCalls pins docs/scenarios.md's example
// of an upgrade that removes a tool the sessions call: the scenario with
// upstash__context7-mcp upgraded to 2.1.0 from the first session (which
// dropped get-library-docs, 1.0.14's) makes its 18 calls unknown tools,
// all of them counted as made unknown by the upgrade, 0.52% of the 3,430
// calls: under the 1% limit, so the run goes on. Before, the resolution
// was counted on the trace's versions and said every call resolved.
func TestEarlyUpgradeCountsRemovedToolCalls(t *testing.T) {
	cats := shareddata.Path(t, "catalogs")
	sc, err := scenarios.Load(scenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	first := int64(0)
	sc.Servers["upstash__context7-mcp"] = scenarios.Server{Upgrades: []scenarios.Upgrade{{To: "2.1.0", AfterSession: &first}}}
	cfg, err := runner.FromScenario(sc, runner.Overrides{Catalogs: []string{cats}, Strategies: []string{"eager"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers, cfg.Bootstrap = 2, -1
	out, err := runner.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Results.Run.Resolution
	if r.Calls != 3430 || r.UnknownTool != 18 || r.UpgradeRemoved != 18 || r.Unresolved != 18 {
		t.Errorf("calls %d, unknown tool %d (after the upgrade %d), unresolved %d; want 3430, 18 (18), 18",
			r.Calls, r.UnknownTool, r.UpgradeRemoved, r.Unresolved)
	}
	if len(r.TopUnresolved) != 1 || r.TopUnresolved[0].Tool != "get-library-docs" || r.TopUnresolved[0].Calls != 18 {
		t.Errorf("most called unresolved: %+v, want get-library-docs, 18 calls", r.TopUnresolved)
	}
}
