package recommend

import (
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
func TestAlwaysDeferOnlyPaysForItsMode(t *testing.T) {
	// Mode cost: (400 search + 10 tokens of the list's directory) ×
	// $0.000025 = $0.01025; the 5010 tokens of the directory of every
	// deferrable tool, which the budget counts, would cost $0.12525.
	tests := []struct {
		name       string
		directUSD  float64
		wantMode   string
		wantScope  string
		wantInMode string
	}{
		{"saves more than the mode costs", 0.020, sim.TriggerAlways, sim.ScopeAlwaysDeferOnly, "only the always-defer list is deferred"},
		{"saves less than the mode costs", 0.012, sim.TriggerTokens, sim.ScopeMCP, "saves $0.00700 per session, no more than deferred mode adds to every request ($0.01025"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := modeProposal(t, 9000, 5000,
				Assessment{Key: toolKey{Server: "s", Tool: "rare"}, Decision: alwaysDefer, Schema: Schema{Tokens: 800, NameTokens: 10},
					DirectUSD: tc.directUSD, DeferUSD: 0.005},
				Assessment{Key: toolKey{Server: "s", Tool: "other"}, Decision: byBudget, Schema: Schema{Tokens: 4200, NameTokens: 5000}})
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
		})
	}
}
