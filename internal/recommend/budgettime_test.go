package recommend

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestBudgetWeighsTimeAtUSDPerSecond pins that the above/below-budget
// decision weighs first-reply time at --usd-per-second, as the never-defer
// rule and the always-defer-only decision do (Rules.worth); it weighed
// dollars alone whatever the flag. Two 1000-token by-budget tools, one
// needed before the first reply in 40% of sessions: deferring them saves
// dollars (the 2100-token catalog is above the dollar budget), but at $1
// per second the round trips it adds cost more than the prefill it saves,
// and the catalog is below the budget. The expected budget is computed
// from the tools' figures: (Σ deferred $ + V × Σ defer ms) / (per-token $
// + V × one token's prefill) + the mode's tokens.
func TestBudgetWeighsTimeAtUSDPerSecond(t *testing.T) {
	tests := []struct {
		name      string
		perSecond float64
		wantAbove bool
	}{
		{"dollars alone", 0, true},
		{"time at $1 per second", 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := modeProposal(t, 0, 2100,
				Assessment{Key: toolKey{Server: "s", Tool: "opener"}, Decision: byBudget, Schema: Schema{Tokens: 1000, Estimated: 1000},
					UseShare: 0.4, BeforeReplyShare: 0.4},
				Assessment{Key: toolKey{Server: "s", Tool: "rare"}, Decision: byBudget, Schema: Schema{Tokens: 1000, Estimated: 1000},
					UseShare: 0.05})
			p.Rules.USDPerSecond = tc.perSecond
			p.Economy.MeanPrompt = 4000
			p.RoundTripMs = p.Economy.RoundTripMs()
			for i := range p.Tools {
				a := &p.Tools[i]
				a.loadUSD = p.Economy.LoadUSD(float64(a.Schema.Tokens))
				a.DeferUSD, a.DeferMs = a.UseShare*a.loadUSD, a.BeforeReplyShare*p.RoundTripMs
			}
			none := func(sim.Strategy) (int64, error) { return 0, nil }
			if err := priceBudget(p, 2000, sim.Strategy{Directory: sim.Directory{Format: "none"}}, none); err != nil {
				t.Fatal(err)
			}
			e := &p.Economy
			loads := p.Tools[0].DeferUSD + p.Tools[1].DeferUSD + tc.perSecond*(p.Tools[0].DeferMs+p.Tools[1].DeferMs)/1000
			perToken := e.perToken() + tc.perSecond*e.DirectFirstMs(1)/1000
			want := loads/perToken + p.ModeTokens
			if math.Abs(p.BreakEvenTokens-want) > 1e-9*want {
				t.Errorf("break-even %v deferrable schema tokens, want %v", p.BreakEvenTokens, want)
			}
			if p.above(p.Budget) != tc.wantAbove {
				t.Errorf("catalog %d against budget %d: above %t, want %t", p.RegistryEstimated, p.Budget, !tc.wantAbove, tc.wantAbove)
			}
			// The bounds weigh the same figures: at the observed shares
			// they give the budget.
			if _, b := budgetFor(p, func(i int) point { a := &p.Tools[i]; return point{a.BeforeReplyShare, a.UseShare} }); b != p.Budget {
				t.Errorf("budgetFor at the observed shares gives %d, the budget is %d", b, p.Budget)
			}
			if said := strings.Contains(p.budgetWeighs(), "--usd-per-second"); said != (tc.perSecond > 0) {
				t.Errorf("budget words %q: name the flag %t, want %t", p.budgetWeighs(), said, tc.perSecond > 0)
			}
			spreadBudget(p)
			if said := strings.Contains(p.boundsLine(), "before-reply shares"); said != (tc.perSecond > 0) {
				t.Errorf("bounds %q: name the before-reply shares %t, want %t", p.boundsLine(), said, tc.perSecond > 0)
			}
		})
	}
}

// TestRecommendSaysTheBudgetWeighsTime pins that a recommendation run with
// --usd-per-second says on its budget line that the budget weighed
// first-reply time, and moves the budget by it; without the flag it says
// nothing of it.
func TestRecommendSaysTheBudgetWeighsTime(t *testing.T) {
	trace, cat := planted(t, 60)
	budgets := map[float64]int64{}
	for _, v := range []float64{0, 0.05} {
		cfg := defaultConfig(t, trace, cat)
		cfg.TestShare, cfg.Rules.USDPerSecond = 0, v
		p, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteText(&buf, p); err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(buf.String(), "deferrable schema tokens (dollars and first-reply time at --usd-per-second 0.05")
		if said != (v > 0) {
			t.Errorf("--usd-per-second %v: the budget line names the time %t", v, said)
		}
		budgets[v] = p.Budget
	}
	if budgets[0] == budgets[0.05] {
		t.Errorf("budget %d with and without --usd-per-second: the time moved nothing", budgets[0])
	}
}
