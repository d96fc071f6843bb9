package recommend

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// spreadProposal is a proposal of two deferrable 1000-token tools, each
// called in k of n training sessions and costing loadUSD per load, plus a
// 500-token never-defer tool, under a model whose schema token costs
// requests × the input price per session (cache none). The budget is
// linear in the call shares: (Σ share × loadUSD / per-token $ + 100 mode
// tokens + 500 never-defer tokens), the estimated counter equal to tokens.
func spreadProposal(t *testing.T, k, n int, loadUSD float64) *Proposal {
	t.Helper()
	m, err := presets.Model("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	m.Cache.Kind = sim.CacheNone
	p := &Proposal{Economy: Economy{Model: m, Requests: 10, FirstPrompt: 4000}, Rules: DefaultRules(),
		Training: n, TestShare: 0.3, ModeTokens: 100, RegistryEstimated: 2500}
	share := float64(k) / float64(n)
	low, high := wilson(k, n, p.Rules.Confidence)
	for _, name := range []string{"a", "b"} {
		p.Tools = append(p.Tools, Assessment{Key: toolKey{Server: "s", Tool: name}, Schema: Schema{Tokens: 1000, Estimated: 1000},
			Decision: byBudget, UseShare: share, UseLow: low, UseHigh: high, DeferUSD: share * loadUSD, loadUSD: loadUSD, Sessions: n, Training: n})
	}
	p.Tools = append(p.Tools, Assessment{Key: toolKey{Server: "s", Tool: "opener"}, Schema: Schema{Tokens: 500, Estimated: 500},
		Decision: neverDefer, UseShare: 1, UseLow: 1, UseHigh: 1, Sessions: n, Training: n})
	_, p.Budget = budgetFor(p, func(i int) point { return point{0, p.Tools[i].UseShare} })
	return p
}

// TestBudgetSpread pins that recommend says how far its budget could move
// and whether the mode (the catalog above or below the budget) is settled.
// The budget and the mode were printed as exact, with no bounds: the 200
// tau-bench airline sessions put the 2484-token catalog 27 tokens under a
// budget of 2511, and recommend proposed "below the budget" as firmly as it
// would have for a catalog far from it. Now the budget's bounds put every
// deferrable call share at its lower, then upper Wilson bound; a catalog
// between them makes the mode uncertain, with a warning and the training
// sessions that would settle it, and a catalog outside them does not.
func TestBudgetSpread(t *testing.T) {
	// Per-token $: 10 requests × $2.50/Mtok = $0.000025; one load $0.04 =
	// 1600 tokens per unit of share. Budget at share 0.5: 2 × 800 + 100 +
	// 500 = 2200 against the catalog's 2500 (above: deferred mode on).
	tests := []struct {
		name          string
		k, n          int
		wantBudget    int64
		wantMode      string
		wantUncertain bool
	}{
		// Wilson [0.32, 0.68] over 20: budgets 1624–2776 hold 2500.
		{"20 sessions", 10, 20, 2200, modeAbove, true},
		// [0.482, 0.518] over 2000: 2143–2258, all below 2500.
		{"2000 sessions", 1000, 2000, 2200, modeAbove, false},
		// 1 of 20 (share 0.05): 760, bounds [0.009, 0.19]: below 2500.
		{"rare calls", 1, 20, 760, modeAbove, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := spreadProposal(t, tc.k, tc.n, 0.04)
			if p.Budget != tc.wantBudget {
				t.Fatalf("budget %d, want %d", p.Budget, tc.wantBudget)
			}
			spreadBudget(p)
			s := p.Spread
			if !(s.Low <= p.Budget && p.Budget <= s.High && s.Low < s.High) {
				t.Errorf("bounds %d–%d do not hold the budget %d", s.Low, s.High, p.Budget)
			}
			if s.Mode != tc.wantMode || s.Uncertain != tc.wantUncertain {
				t.Errorf("mode %q uncertain %v, want %q %v (bounds %d–%d, catalog %d)", s.Mode, s.Uncertain, tc.wantMode, tc.wantUncertain, s.Low, s.High, p.RegistryEstimated)
			}
			summarize(p)
			warned := false
			for _, w := range p.Warnings {
				warned = warned || strings.HasPrefix(w, "the mode is uncertain")
			}
			if warned != tc.wantUncertain {
				t.Errorf("mode warning %v, want %v: %q", warned, tc.wantUncertain, p.Warnings)
			}
			if !tc.wantUncertain {
				if s.SessionsToSettle != 0 || strings.Contains(uncertainLine(p), "mode") {
					t.Errorf("a settled mode reports %d sessions to settle / %q", s.SessionsToSettle, uncertainLine(p))
				}
				return
			}
			if s.Alternative != modeBelowNone || !strings.Contains(uncertainLine(p), "and the mode") || !strings.Contains(p.boundsLine(), "the mode is uncertain") {
				t.Errorf("alternative %q, uncertain line %q, bounds %q", s.Alternative, uncertainLine(p), p.boundsLine())
			}
			// At the sessions it names, the observed shares' bounds put the
			// catalog on one side; at one fewer they do not.
			n := s.SessionsToSettle
			if n <= tc.n {
				t.Fatalf("%d sessions to settle, want more than the %d learnt from", n, tc.n)
			}
			for _, c := range []struct {
				n       int
				settled bool
			}{{n, true}, {n - 1, false}} {
				q := spreadProposal(t, 0, 1, 0.04)
				z := normalQuantile(q.Rules.Confidence)
				for i := range q.Tools[:2] {
					q.Tools[i].UseShare = 0.5
					q.Tools[i].UseLow, q.Tools[i].UseHigh = wilsonAt(0.5, float64(c.n), z)
				}
				q.Training = c.n
				spreadBudget(q)
				if q.Spread.Uncertain == c.settled {
					t.Errorf("over %d sessions: bounds %d–%d, uncertain %v", c.n, q.Spread.Low, q.Spread.High, q.Spread.Uncertain)
				}
			}
		})
	}
}

// TestModeBelowSaysWhatTheProposalDoes pins the budget spread's wording of
// the mode below the budget: the always-defer list alone deferred only when
// it pays for deferred mode (onlyPays), else every schema sent, saying why.
// It read "only the always-defer list deferred" in every case, also where
// the proposal, below its budget, sends every schema.
func TestModeBelowSaysWhatTheProposalDoes(t *testing.T) {
	// Mode cost: (400 search + 10 directory tokens) × $0.000025 = $0.01025.
	// A load in the mode: the 410 tokens of the mode at $2.50/Mtok and the
	// loaded 800 tokens for 1 + 4 requests, $0.011025; half the sessions
	// load it, $0.0055125 per session.
	tests := []struct {
		name      string
		decision  string
		directUSD float64
		want      string
	}{
		{"the list pays for its mode", alwaysDefer, 0.020, modeBelowOnly},
		{"the list does not pay", alwaysDefer, 0.012, modeBelowAll},
		{"no list", byBudget, 0.020, modeBelowNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := modeProposal(t, 9000, 5000,
				Assessment{Key: toolKey{Server: "s", Tool: "rare"}, Decision: tc.decision, Schema: Schema{Tokens: 800},
					DirectUSD: tc.directUSD, UseShare: 0.5})
			p.OnlyDirectoryTokens = 10
			p.Strategy = proposalStrategy(sim.Strategy{}, p.Tools, p)
			spreadBudget(p)
			if p.Spread.Mode != tc.want {
				t.Errorf("spread mode %q, want %q", p.Spread.Mode, tc.want)
			}
			// What the snippet does below the budget agrees.
			if only := p.Strategy.Scope == sim.ScopeAlwaysDeferOnly; only != (tc.want == modeBelowOnly) {
				t.Errorf("scope %q with spread mode %q", p.Strategy.Scope, p.Spread.Mode)
			}
		})
	}
}
