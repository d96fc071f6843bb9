package runner

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
)

// TestCoincidentPresetsAreNamed pins issue 15's honest defaults: on the
// embedded data with no local server, anchor-e4 (budget OR categorical,
// with an always-defer list) has exactly anchor-e1's outcomes, and the
// results say so with the reason the outcomes show; with the desktop
// server local, as the default scenario has it, the two differ and the
// default scenario's strategies are all distinct.
func TestCoincidentPresetsAreNamed(t *testing.T) {
	run := func(extra string) *Output {
		t.Helper()
		return runYAML(t, "name: c\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"+
			"strategies: [eager, anchor-e1-budget8k, anchor-e4-budget-or-categorical]\n"+extra, Overrides{})
	}
	co := run("").Results.Coincident
	if len(co) != 1 || strings.Join(co[0].Strategies, ",") != "anchor-e1-budget8k,anchor-e4-budget-or-categorical" {
		t.Fatalf("coincident = %+v, want anchor-e1 and anchor-e4", co)
	}
	c := co[0]
	if strings.Join(c.Differ, ",") != "always_defer,trigger.categorical" || len(c.Unexplained) != 0 ||
		!strings.Contains(c.Reason, "deferred mode was on for every request under each") ||
		!strings.Contains(c.Reason, "they may defer the same") {
		t.Errorf("coincidence = %+v, want the differing keys explained", c)
	}
	if co := run("servers: {desktop: {local: true}}\n").Results.Coincident; len(co) != 0 {
		t.Errorf("with desktop local: coincident = %+v, want none", co)
	}
	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	out := runScenario(t, sc, Overrides{})
	if co := out.Results.Coincident; len(co) != 0 {
		t.Errorf("the default scenario has coincident strategies: %+v", co)
	}
}
