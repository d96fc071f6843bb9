package recommend

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestOnlyModeWeighsTimeAtUSDPerSecond pins that the decision to defer the
// always-defer list alone (scope always-defer-only) prices the first-reply
// time that mode adds or takes off at --usd-per-second, as the per-tool
// rules price it, and says so in the mode; it weighed dollars alone
// whatever the flag. The list (an 800-token tool) leaves the first request
// and the mode's 410 tokens join it; the tool is needed before the first
// reply in br of sessions, each then paying the mode's round trip.
// Without the flag the decisions are those of dollars alone
// (TestAlwaysDeferOnlyPaysForItsMode); at $1 per second the time decides
// both ways.
func TestOnlyModeWeighsTimeAtUSDPerSecond(t *testing.T) {
	tests := []struct {
		name      string
		directUSD float64
		br        float64
		perSecond float64
		wantScope string
		wantText  string
	}{
		{"dollars pay, no flag", 0.020, 0.3, 0, sim.ScopeAlwaysDeferOnly, "only the always-defer list is deferred"},
		{"dollars pay, the time it adds does not", 0.020, 0.3, 1, sim.ScopeMCP, "more of mean first reply costs at --usd-per-second 1"},
		{"dollars do not pay, no flag", 0.008, 0, 0, sim.ScopeMCP, "no more than deferred mode adds to every request ($0.01025: the tool_search definition and the base's names directory, 10 tokens):"},
		{"dollars do not pay, the time it takes off does", 0.008, 0, 1, sim.ScopeAlwaysDeferOnly, "less of mean first reply is worth at --usd-per-second 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := modeProposal(t, 9000, 5000,
				Assessment{Key: toolKey{Server: "s", Tool: "rare"}, Decision: alwaysDefer, Schema: Schema{Tokens: 800, NameTokens: 10},
					UseShare: 0.05, BeforeReplyShare: tc.br, DirectUSD: tc.directUSD},
				Assessment{Key: toolKey{Server: "s", Tool: "other"}, Decision: byBudget, Schema: Schema{Tokens: 4200, NameTokens: 5000}})
			p.Economy.MeanPrompt = 5000
			p.Rules.USDPerSecond = tc.perSecond
			p.DirectoryFormat, p.OnlyDirectoryTokens, p.DirectoryTokens = sim.DirNames, 10, 5010
			// The time the mode adds: the tool's share of the mode's round
			// trip, less its prefill, plus the mode's 410 tokens' prefill.
			e := onlyEconomy(p.Tools, p)
			addedMs := tc.br*e.RoundTripMs() - e.DirectFirstMs(800) + e.DirectFirstMs(410)
			saving, cost, got := alwaysDeferOnly(p.Tools, p)
			if d := got - addedMs; d > 1e-9 || d < -1e-9 {
				t.Errorf("the mode adds %v ms to the mean first reply, want %v", got, addedMs)
			}
			if want := saving > cost+tc.perSecond*addedMs/1000; onlyPays(p.Tools, p) != want {
				t.Errorf("onlyPays %t: saving $%v, cost $%v, %v ms at $%v/s", !want, saving, cost, addedMs, tc.perSecond)
			}
			s := proposalStrategy(sim.Strategy{}, p.Tools, p)
			if s.Scope != tc.wantScope {
				t.Errorf("scope %q, want %q (saving $%.5f, cost $%.5f, %+.0f ms at $%v/s)", s.Scope, tc.wantScope, saving, cost, addedMs, tc.perSecond)
			}
			if !strings.Contains(p.Mode, tc.wantText) {
				t.Errorf("mode %q: want %q in it", p.Mode, tc.wantText)
			}
			if said := strings.Contains(p.Mode, "--usd-per-second"); said != (tc.perSecond > 0) {
				t.Errorf("mode %q names --usd-per-second: %t, the flag is %v", p.Mode, said, tc.perSecond)
			}
		})
	}
}
