package recommend

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestAlwaysDeferRulePricedInItsMode pins that the per-tool always-defer
// rule prices a tool's loads and round trip in the mode the proposal runs.
// It priced them with scope mcp's figures (every deferrable schema out of
// the search request) while the proposal ran scope always-defer-only,
// whose search request sends every schema but the list's: on the 200
// tau-bench airline sessions under claude-sonnet-4.5 and codex-cli's
// mechanics (--rare 0.3 --expensive 60), send_certificate read as $0.00064
// direct against $0.00052 deferred and was always-deferred; in its mode a
// load costs $0.00067 a session, so it stays direct. The expectation is a
// replay: the proposal, and the proposal with send_certificate added to
// always_defer, over the same sessions; adding it costs more per session.
// The tools' figures are those the decision used: the mode's round trip
// and load (onlyEconomy), scope mcp's in defer_usd for the budget.
func TestAlwaysDeferRulePricedInItsMode(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 200 real sessions (-short)")
	}
	trace := importTau(t, t.TempDir())
	cfg := defaultConfig(t, trace, trace+".catalog")
	cfg.Model, _ = presets.Model("claude-sonnet-4.5")
	base, err := presets.Strategy("codex-cli")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Base, cfg.Seed, cfg.TestShare = &base, 42, 0
	cfg.Rules.Rare, cfg.Rules.Expensive = 0.3, 60
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p.Strategy.Scope != sim.ScopeAlwaysDeferOnly || p.ListScope != sim.ScopeAlwaysDeferOnly {
		t.Fatalf("scope %q, always-defer rule priced in %q: the test needs scope always-defer-only (mode %q)", p.Strategy.Scope, p.ListScope, p.Mode)
	}
	only := onlyEconomy(p.Tools, p)
	var cert *Assessment
	for i := range p.Tools {
		a := &p.Tools[i]
		tok := float64(a.Schema.Tokens)
		// The figures the decisions used: scope mcp's for the never-defer
		// rule and the budget, the mode's for the always-defer rule.
		if want := a.UseShare * p.Economy.LoadUSD(tok); a.DeferUSD != want {
			t.Errorf("%s: defer_usd %v, want scope mcp's %v", toolLabel(a.Key), a.DeferUSD, want)
		}
		if want := a.UseShare * only.LoadUSD(tok); a.ModeDeferUSD != want {
			t.Errorf("%s: mode_defer_usd %v, want the mode's %v", toolLabel(a.Key), a.ModeDeferUSD, want)
		}
		if want := a.BeforeReplyShare * only.RoundTripMs(); a.ModeDeferMs != want {
			t.Errorf("%s: mode_defer_first_reply_ms %v, want the mode's %v", toolLabel(a.Key), a.ModeDeferMs, want)
		}
		if a.Key.Tool == "send_certificate" {
			cert = a
		}
	}
	if cert == nil {
		t.Fatal("no send_certificate in the catalog")
	}
	if cert.Decision != byBudget || !(cert.DeferUSD < cert.DirectUSD && cert.DirectUSD < cert.ModeDeferUSD) {
		t.Fatalf("send_certificate %s: direct $%v, deferred $%v in scope mcp, $%v in the mode: want by budget, cheaper deferred in scope mcp only",
			cert.Decision, cert.DirectUSD, cert.DeferUSD, cert.ModeDeferUSD)
	}
	if slices.Contains(p.Strategy.AlwaysDefer, "send_certificate") {
		t.Fatalf("always_defer %q lists send_certificate", p.Strategy.AlwaysDefer)
	}
	with := p.Strategy
	with.Name, with.AlwaysDefer = "with", append(slices.Clone(p.Strategy.AlwaysDefer), "send_certificate")
	with.Normalize()
	catSrcs, err := runner.CatalogSources(cfg.Catalogs, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runner.Run(context.Background(), runner.Config{Scenario: "list-mode", Seed: cfg.Seed, Baseline: p.Strategy.Name,
		Strategies: []sim.Strategy{p.Strategy, with}, Model: cfg.Model, Params: cfg.Params, Traces: runner.PathSources(trace), Catalogs: catSrcs})
	if err != nil {
		t.Fatal(err)
	}
	cost := map[string]float64{}
	for _, s := range out.Results.Strategies {
		cost[s.Name] = s.Metrics["cost_usd"].Mean
	}
	added := cost["with"] - cost[p.Strategy.Name]
	if !(added > 0) || math.IsNaN(added) {
		t.Errorf("a replay with send_certificate always-deferred costs %+.5f per session: the mode's pricing (direct $%.5f, deferred $%.5f) said it would not save",
			added, cert.DirectUSD, cert.ModeDeferUSD)
	}
	t.Logf("send_certificate: direct $%.5f, scope mcp $%.5f, mode $%.5f; replay adds %+.5f per session", cert.DirectUSD, cert.DeferUSD, cert.ModeDeferUSD, added)
	// docs/recommend.md (the always-defer rule) quotes these four figures.
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "recommend.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(strings.Fields(string(doc)), " ")
	want := fmt.Sprintf("always-deferred at $%.5f deferred against $%.5f direct, where its loads in the mode cost $%.5f, and a replay with it on the list cost $%.5f more per session",
		cert.DeferUSD, cert.DirectUSD, cert.ModeDeferUSD, added)
	if !strings.Contains(page, want) {
		t.Errorf("docs/recommend.md lacks %q (this test's figures)", want)
	}
}
