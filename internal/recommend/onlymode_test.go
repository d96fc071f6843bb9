package recommend

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestOnlyModePricesTheSearchPromptItsRunSends pins that the decision to
// defer the always-defer list alone (scope always-defer-only) prices its
// loads and round trip on the search request a run in that mode sends:
// every schema but the list's, the tool_search definition and the base's
// directory of the list. It priced them with scope mcp's figures (every
// deferrable schema removed, every deferrable tool in the directory),
// hundreds of tokens short of what the mode sends. The expectation is a
// replay of the proposal in that mode (trigger always) over a session
// whose first request calls the always-deferred tool, whose first request
// is then the search request; every session being one request, it is the
// loads' prompt too.
func TestOnlyModePricesTheSearchPromptItsRunSends(t *testing.T) {
	_, cat := planted(t, 1)
	common, rare := toolKey{Server: "web", Tool: "web_search"}, toolKey{Server: "desktop", Tool: "screenshot"}
	dir := t.TempDir()
	training := firstCallTrace(t, dir, 100, common, rare)
	needs := firstCallTrace(t, dir, 1, common, rare)
	for _, d := range []sim.Directory{{Format: "none"}, {Format: "names"}, {Format: "names-desc"}, {Format: "by-server"}} {
		t.Run(d.Format, func(t *testing.T) {
			base, err := presets.Strategy("claude-code-default")
			if err != nil {
				t.Fatal(err)
			}
			base.Name, base.Directory = "base-"+d.Format, d
			cfg := defaultConfig(t, training, cat)
			cfg.Base, cfg.TestShare = &base, 0
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var listed bool
			for _, a := range p.Tools {
				listed = listed || a.Key == rare && a.Decision == alwaysDefer
			}
			if !listed {
				t.Fatalf("always_defer %v: the test needs %v on it", p.Strategy.AlwaysDefer, rare)
			}
			only := p.Strategy
			only.Name, only.Trigger, only.Scope = "only", sim.Trigger{Mode: sim.TriggerAlways}, sim.ScopeAlwaysDeferOnly
			catSrcs, err := runner.CatalogSources([]string{cat}, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := runner.Run(context.Background(), runner.Config{Scenario: "only-prompt", Seed: 1, Baseline: "only",
				Strategies: []sim.Strategy{only}, Model: cfg.Model, Params: cfg.Params, Traces: runner.PathSources(needs), Catalogs: catSrcs})
			if err != nil {
				t.Fatal(err)
			}
			reqs := out.Run.Outcomes.ByRequestIndex[0]
			if len(reqs) < 2 || reqs[0].Sessions != 1 || reqs[0].Extra != 1 {
				t.Fatalf("requests %+v: want the session's first request to be an extra (search) request", reqs)
			}
			sent := float64(reqs[0].Input)
			e := onlyEconomy(p.Tools, p)
			if got := e.roundTripPrompt(); got != sent {
				t.Errorf("the mode's round trip prices a %.1f-token search prompt, the run sends %.0f (directory %d tokens)", got, sent, e.Directory)
			}
			if got := e.loadPrompt(); got != sent {
				t.Errorf("the mode's loads price a %.1f-token search prompt, the run sends %.0f (directory %d tokens)", got, sent, e.Directory)
			}
			if mcp := p.Economy.roundTripPrompt(); mcp == sent {
				t.Errorf("scope mcp's search prompt is %.0f tokens too: the test cannot tell the modes apart", mcp)
			}
			// The saving the decision weighs is the list's direct $ less
			// its loads at that prompt.
			var want float64
			for _, a := range p.Tools {
				if a.Decision == alwaysDefer {
					want += a.DirectUSD - a.UseShare*e.LoadUSD(float64(a.Schema.Tokens))
				}
			}
			if saving, _, _ := alwaysDeferOnly(p.Tools, p); saving != want {
				t.Errorf("saving %v, want %v at the mode's prompt", saving, want)
			}
			if p.Strategy.Scope == sim.ScopeAlwaysDeferOnly && !strings.Contains(p.Mode, ms(e.RoundTripMs())) {
				t.Errorf("mode %q does not name the mode's round trip, %s", p.Mode, ms(e.RoundTripMs()))
			}
			t.Logf("scope %s, only-mode prompt %.0f, mcp %.0f, mode %q", p.Strategy.Scope, sent, p.Economy.roundTripPrompt(), p.Mode)
		})
	}
}
