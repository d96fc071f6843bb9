package recommend

import (
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// modeProposal is a proposal under gpt-4o without a prompt cache (a schema
// token costs 10 requests × $2.50/Mtok = $0.000025 per session) whose
// tool_search definition is 400 tokens, over tools, with its budget and
// catalog size as given.
func modeProposal(t *testing.T, budget, catalog int64, tools ...Assessment) *Proposal {
	t.Helper()
	m, err := presets.Model("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	m.Cache.Kind = sim.CacheNone
	params := sim.Params{SearchToolTokens: 400, TokenScale: 1}
	return &Proposal{Economy: Economy{Model: m, Params: params, Requests: 10, FirstPrompt: 4000}, Rules: DefaultRules(),
		Training: 100, Budget: budget, RegistryEstimated: catalog, Tools: tools}
}

// TestProposalModeExceptsLocalTools pins that the mode of a proposal above
// its budget says the local servers' tools stay direct: it said "every MCP
// tool but the never-defer list is deferred" while a run of the snippet
// sends a local server's tools unless always_defer lists them.
func TestProposalModeExceptsLocalTools(t *testing.T) {
	tests := []struct {
		name      string
		decision  string
		wantLocal bool
	}{
		{"a local tool", localDirect, true},
		{"no local tool", byBudget, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := modeProposal(t, 1000, 5000,
				Assessment{Key: toolKey{Server: "desktop", Tool: "click"}, Decision: tc.decision, Schema: Schema{Tokens: 300}},
				Assessment{Key: toolKey{Server: "s", Tool: "big"}, Decision: byBudget, Schema: Schema{Tokens: 4000}})
			s := proposalStrategy(sim.Strategy{}, p.Tools, p)
			if s.Trigger.Mode != sim.TriggerTokens || s.Scope != sim.ScopeMCP {
				t.Fatalf("trigger %+v scope %q: want tokens > budget with scope mcp", s.Trigger, s.Scope)
			}
			if got := strings.Contains(p.Mode, "the local servers' tools (sent unless always-deferred)"); got != tc.wantLocal {
				t.Errorf("mode %q: names the local servers' tools %t, want %t", p.Mode, got, tc.wantLocal)
			}
			if !strings.Contains(s.Description, p.Mode) {
				t.Errorf("description %q lacks the mode", s.Description)
			}
		})
	}
}

// TestAlwaysDeferOnlyPaysForItsMode pins that the proposal turns deferred
// mode on for its always-defer list alone (trigger always, scope
// always-defer-only) only when deferring the list saves more per session
// than the mode adds to every request: the tool_search definition and the
// list's names, not every deferrable tool's (which the budget counts, for
// scope mcp). It proposed that mode for any non-empty list, so one tool
// saving $0.007 per session paid $0.01 per session for tool_search.
//
// The saving prices the list's loads in that mode: their search request
// keeps every schema but the list's. It priced them with the tools'
// DeferUSD, scope mcp's prompt without every deferrable schema, so a list
// saving $0.01012 in its mode read as saving $0.01065 and was proposed.
func TestAlwaysDeferOnlyPaysForItsMode(t *testing.T) {
	// Mode cost: (400 search + 10 tokens of the list's directory) ×
	// $0.000025 = $0.01025; the 5010 tokens of the directory of every
	// deferrable tool, which the budget counts, would cost $0.12525.
	// A load in the mode: the 5000-token mean prompt less the list's 800,
	// plus the 410 of the mode, at $2.50/Mtok = $0.011525, and the loaded
	// 800 tokens for 1 + 4 requests, $0.01: $0.021525, × the 5% call
	// share = $0.00107625 per session. Scope mcp's load (the tools'
	// DeferUSD) is $0.00055125.
	tests := []struct {
		name       string
		directUSD  float64
		wantMode   string
		wantScope  string
		wantInMode string
	}{
		{"saves more than the mode costs", 0.020, sim.TriggerAlways, sim.ScopeAlwaysDeferOnly, "only the always-defer list is deferred"},
		{"saves less than the mode costs", 0.008, sim.TriggerTokens, sim.ScopeMCP, "saves $0.00692 per session, no more than deferred mode adds to every request ($0.01025"},
		// $0.0112 − $0.00055125 = $0.01065 > $0.01025 at scope mcp's
		// loads; $0.0112 − $0.00107625 = $0.01012 in the mode itself.
		{"saves less at the mode's own loads", 0.0112, sim.TriggerTokens, sim.ScopeMCP, "saves $0.01012 per session, no more than deferred mode adds to every request ($0.01025"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := modeProposal(t, 9000, 5000,
				Assessment{Key: toolKey{Server: "s", Tool: "rare"}, Decision: alwaysDefer, Schema: Schema{Tokens: 800, NameTokens: 10},
					UseShare: 0.05, DirectUSD: tc.directUSD, DeferUSD: 0.00055125},
				Assessment{Key: toolKey{Server: "s", Tool: "other"}, Decision: byBudget, Schema: Schema{Tokens: 4200, NameTokens: 5000}})
			p.Economy.MeanPrompt = 5000
			p.DirectoryFormat, p.OnlyDirectoryTokens, p.DirectoryTokens = sim.DirNames, 10, 5010
			s := proposalStrategy(sim.Strategy{}, p.Tools, p)
			if s.Trigger.Mode != tc.wantMode || s.Scope != tc.wantScope {
				t.Errorf("trigger %q scope %q: want %q %q", s.Trigger.Mode, s.Scope, tc.wantMode, tc.wantScope)
			}
			if len(s.AlwaysDefer) != 1 || s.AlwaysDefer[0] != "rare" {
				t.Errorf("always_defer %q: want [rare] in either mode", s.AlwaysDefer)
			}
			if !strings.Contains(p.Mode, tc.wantInMode) {
				t.Errorf("mode %q: want %q in it", p.Mode, tc.wantInMode)
			}
			// The mode's own round trip: its search request sends the
			// 4000-token first prompt less the list's 800, plus the 410
			// of the mode: 3610 tokens.
			rt := onlyEconomy(p.Tools, p).RoundTripMs()
			if want := p.Economy.Model.Latency.OverheadMs + 3610/p.Economy.Model.Latency.PrefillTPS*1000; math.Abs(rt-want) > 1e-9 {
				t.Errorf("the mode's round trip %v ms, want %v", rt, want)
			}
			if said := strings.Contains(p.Mode, "round trip before the first reply costs "+ms(rt)); said != (tc.wantScope == sim.ScopeAlwaysDeferOnly) {
				t.Errorf("mode %q names the mode's %s round trip: %t", p.Mode, ms(rt), said)
			}
		})
	}
}

// TestModeTextAndScopeCannotDisagree pins that the strategy's scope, its
// mode text and the budget spread's mode below the budget come from one
// rule (belowMode, asking onlyPays). proposalStrategy and modeBelow each
// restated "the always-defer list pays for its mode", so a change to one
// would have proposed scope always-defer-only under a spread that says
// every schema is sent. The direct $ sweep crosses the mode's cost
// ($0.01025) and lands on it (a saving equal to the cost does not pay).
func TestModeTextAndScopeCannotDisagree(t *testing.T) {
	texts := map[string]string{
		modeBelowOnly: "only the always-defer list is deferred (scope always-defer-only)",
		modeBelowAll:  "no more than deferred mode adds to every request",
		modeBelowNone: "nothing is worth always deferring",
	}
	seen := map[string]bool{}
	for _, decision := range []string{alwaysDefer, byBudget} {
		for _, direct := range []float64{0, 0.005, 0.01, 0.01025, 0.0103, 0.02, 0.05} {
			p := modeProposal(t, 9000, 5000,
				Assessment{Key: toolKey{Server: "s", Tool: "rare"}, Decision: decision, Schema: Schema{Tokens: 800}, DirectUSD: direct},
				Assessment{Key: toolKey{Server: "s", Tool: "other"}, Decision: byBudget, Schema: Schema{Tokens: 4200}})
			p.DirectoryFormat, p.OnlyDirectoryTokens = sim.DirNames, 10
			p.Strategy = proposalStrategy(sim.Strategy{}, p.Tools, p)
			spreadBudget(p)
			mode := p.Spread.Mode
			seen[mode] = true
			for m, text := range texts {
				if got := strings.Contains(p.Mode, text); got != (m == mode) {
					t.Errorf("%s at direct $%v: spread mode %q, mode text %q says %q: %t", decision, direct, mode, p.Mode, text, got)
				}
			}
			if only := p.Strategy.Scope == sim.ScopeAlwaysDeferOnly; only != (mode == modeBelowOnly) {
				t.Errorf("%s at direct $%v: scope %q under spread mode %q", decision, direct, p.Strategy.Scope, mode)
			}
			if (mode == modeBelowOnly) != onlyPays(p.Tools, p) {
				t.Errorf("%s at direct $%v: spread mode %q, onlyPays %t", decision, direct, mode, onlyPays(p.Tools, p))
			}
		}
	}
	if len(seen) != len(texts) {
		t.Errorf("modes seen %v: want each of %d", seen, len(texts))
	}
}
