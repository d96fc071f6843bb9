package recommend

import (
	"fmt"
	"math"
	"slices"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// Modes of the proposal for the catalog it priced: above the budget,
// deferred mode is on for every MCP tool but the never-defer list; below
// it, the always-defer list alone is deferred when that pays for deferred
// mode (onlyPays), else every schema is sent (modeBelow).
const (
	modeAbove     = "above the budget (every MCP tool but the never-defer list deferred)"
	modeBelowOnly = "below the budget (only the always-defer list deferred)"
	modeBelowAll  = "below the budget (every schema sent: deferring the always-defer list alone does not pay for deferred mode)"
	modeBelowNone = "below the budget (every schema sent: nothing is worth always deferring)"
)

// modeBelow is what the proposal does with the catalog below its budget.
func modeBelow(p *Proposal) string { return belowMode(p.Tools, p) }

// belowMode is what a proposal with tools' decisions does with the
// catalog below its budget: the one place the mode is chosen, which the
// strategy's trigger, scope and mode text (proposalStrategy) and the
// budget's spread (modeBelow) both read, so they cannot disagree.
func belowMode(tools []Assessment, p *Proposal) string {
	switch {
	case onlyPays(tools, p):
		return modeBelowOnly
	case slices.ContainsFunc(tools, func(a Assessment) bool { return a.Decision == alwaysDefer }):
		return modeBelowAll
	}
	return modeBelowNone
}

// BudgetSpread says how far the budget could move were the call shares it
// rests on anywhere within their confidence bounds, and whether the mode
// (the catalog above or below the budget) would change there.
//
// The budget is linear in the deferrable tools' call shares (Σ share ×
// one load's $). Low and High put every deferrable tool's call share at its
// lower, then its upper Wilson bound (Assessment.UseLow, UseHigh) at the
// rules' confidence, with the never-defer and always-defer lists as
// proposed: a box over the per-tool bounds, wider than a joint interval,
// so a mode it calls settled is settled for every share within them.
type BudgetSpread struct {
	// BreakEvenLow and BreakEvenHigh are the break-even deferrable schema
	// tokens at the bounds; Low and High the trigger budgets they give.
	BreakEvenLow  float64 `json:"break_even_deferrable_tokens_low"`
	BreakEvenHigh float64 `json:"break_even_deferrable_tokens_high"`
	Low           int64   `json:"low"`
	High          int64   `json:"high"`
	// Mode is the mode proposed for the catalog (modeAbove or modeBelow's);
	// Uncertain is true when the catalog's size lies between Low and High,
	// so that Alternative, the other mode, is within the bounds too.
	Mode        string `json:"mode"`
	Uncertain   bool   `json:"uncertain"`
	Alternative string `json:"alternative,omitempty"`
	// SessionsToSettle, for an uncertain mode, is how many training
	// sessions would put both bounds on one side of the catalog's size were
	// every share to stay as observed (0: none would, or none is needed).
	SessionsToSettle int `json:"sessions_to_settle,omitempty"`
	// AlternativeListScope, for an uncertain mode whose Alternative runs
	// another scope than the one the always-defer rule was priced in
	// (Proposal.ListScope), is that other scope: the bounds hold the lists
	// as proposed and do not re-decide them, though in that mode the rule
	// would weigh its figures and the list could differ (listLimit).
	AlternativeListScope string `json:"alternative_always_defer_rule_scope,omitempty"`
}

// modeScope is the scope whose figures the always-defer rule weighs in a
// mode (decidePasses): always-defer-only's when only the list is
// deferred, scope mcp's otherwise.
func modeScope(mode string) string {
	if mode == modeBelowOnly {
		return sim.ScopeAlwaysDeferOnly
	}
	return sim.ScopeMCP
}

// listLimit says, for an uncertain mode whose other mode prices the
// always-defer rule in another scope, that the bounds keep the lists as
// proposed; "" otherwise.
func (s *BudgetSpread) listLimit(p *Proposal) string {
	if s.AlternativeListScope == "" {
		return ""
	}
	return fmt.Sprintf("; the bounds keep the lists as proposed, the always-defer list priced in scope %s: %s runs scope %s, "+
		"whose round trip and loads the rule would weigh there, and the list could differ (not re-decided at the bounds)",
		scopeName(p.ListScope), s.Alternative, s.AlternativeListScope)
}

// maxSettleSessions bounds the search for the sessions that would settle
// the mode: beyond it the mode is reported as not settled by any sample
// (the observed budget is on the catalog's size).
const maxSettleSessions = 1 << 30

// tokenWorth is what one direct schema token costs per session, as the
// budget weighs it: its dollars (perToken), and with --usd-per-second its
// prefill in the session's first request (Rules.worth).
func (p *Proposal) tokenWorth() float64 {
	return p.Rules.worth(p.Economy.perToken(), p.Economy.DirectFirstMs(1))
}

// budgetFor is the break-even deferrable schema tokens and the trigger
// budget when each deferrable tool's before-reply and call shares are
// share(i): its loads' dollars, and with --usd-per-second the round trips
// before the first reply (priceBudget).
func budgetFor(p *Proposal, share func(i int) point) (breakEven float64, budget int64) {
	var loads float64
	var neverTok, all int64
	for i := range p.Tools {
		a := &p.Tools[i]
		all += a.Schema.Tokens
		if a.direct() {
			neverTok += a.Schema.Tokens
			continue
		}
		s := share(i)
		loads += p.Rules.worth(s.use*a.loadUSD, s.br*p.RoundTripMs)
	}
	breakEven = loads/p.tokenWorth() + p.ModeTokens
	ratio := float64(p.RegistryEstimated) / math.Max(float64(all), 1)
	return breakEven, max(1, int64(math.Ceil((breakEven+float64(neverTok))*ratio)))
}

// budgetWeighs says, under --usd-per-second, that the budget weighs
// first-reply time as well as dollars (priceBudget); "" without the flag.
func (p *Proposal) budgetWeighs() string {
	if p.Rules.USDPerSecond <= 0 {
		return ""
	}
	return fmt.Sprintf(" (dollars and first-reply time at --usd-per-second %g: a direct schema token's prefill, a load's round trips before the first reply)", p.Rules.USDPerSecond)
}

// above reports whether the catalog is above a budget: deferred mode on.
func (p *Proposal) above(budget int64) bool { return p.RegistryEstimated > budget }

// spreadBudget fills p.Spread from the tools' call-share bounds; the
// training sessions' count gives the sessions that would settle the mode.
func spreadBudget(p *Proposal) {
	below := modeBelow(p)
	s := &BudgetSpread{Mode: below}
	if p.above(p.Budget) {
		s.Mode = modeAbove
	}
	s.BreakEvenLow, s.Low = budgetFor(p, func(i int) point { a := &p.Tools[i]; return point{a.BeforeReplyLow, a.UseLow} })
	s.BreakEvenHigh, s.High = budgetFor(p, func(i int) point { a := &p.Tools[i]; return point{a.BeforeReplyHigh, a.UseHigh} })
	if p.above(s.Low) != p.above(s.High) {
		s.Uncertain = true
		s.Alternative = modeAbove
		if s.Mode == modeAbove {
			s.Alternative = below
		}
		s.SessionsToSettle = modeSettledAt(p, normalQuantile(p.Rules.Confidence))
		if alt := modeScope(s.Alternative); alt != scopeName(p.ListScope) {
			s.AlternativeListScope = alt
		}
	}
	p.Spread = s
}

// modeSettledAt is the smallest number of training sessions over which the
// shares observed give bounds whose budgets put the catalog on one side
// (0 when none up to maxSettleSessions does).
func modeSettledAt(p *Proposal, z float64) int {
	settled := func(n int) bool {
		// A tool's share is over the sessions that could call it: that
		// part of n, at the sample's mix of versions.
		bounds := func(i int) (low, high point) {
			a := &p.Tools[i]
			if a.Sessions <= 0 {
				return point{0, 0}, point{1, 1}
			}
			m := float64(n) * float64(min(a.Sessions, a.Training)) / float64(max(a.Training, 1))
			low.br, high.br = wilsonAt(a.BeforeReplyShare, m, z)
			low.use, high.use = wilsonAt(a.UseShare, m, z)
			return low, high
		}
		_, lo := budgetFor(p, func(i int) point { l, _ := bounds(i); return l })
		_, hi := budgetFor(p, func(i int) point { _, h := bounds(i); return h })
		return p.above(lo) == p.above(hi)
	}
	lo, hi := max(p.Training, 1), max(p.Training, 1)
	for !settled(hi) {
		if hi >= maxSettleSessions {
			return 0
		}
		lo, hi = hi, min(2*hi, maxSettleSessions)
	}
	for lo < hi {
		m := lo + (hi-lo)/2
		if settled(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return hi
}

// spreadLine is the budget's bounds in one sentence: the call shares
// bounded, and with --usd-per-second the before-reply shares too, whose
// round trips the budget then weighs (budgetFor).
func (s *BudgetSpread) spreadLine(r Rules) string {
	shares := "call share at its lower, then its upper bound"
	if r.USDPerSecond > 0 {
		shares = "call and before-reply shares at their lower, then their upper bounds"
	}
	return fmt.Sprintf("%d–%d with every deferrable tool's %s (%.0f%% confidence each)", s.Low, s.High, shares, r.Confidence*100)
}

// modeWarning says that the mode is uncertain, and what would settle it.
func (s *BudgetSpread) modeWarning(p *Proposal) string {
	w := fmt.Sprintf("the mode is uncertain: learnt from %s, the budget lies within %s, and this catalog's %d estimated tokens are inside it, so the catalog could be %s as well as %s",
		nouns.Count(p.Training, "session"), s.spreadLine(p.Rules), p.RegistryEstimated, s.Alternative, s.Mode)
	if s.SessionsToSettle > 0 {
		w += fmt.Sprintf("; were the shares as observed, about %s (%s recorded, with --test-share %g) would settle it",
			nouns.Count(s.SessionsToSettle, "training session"), recorded(s.SessionsToSettle, p.TestShare), p.TestShare)
	} else {
		w += "; the budget observed sits on the catalog's size, which no sample settles"
	}
	return w + s.listLimit(p) + "; compare both modes by replay before relying on it (defersim sweep --param strategy.trigger.budget=FROM:TO:STEP)"
}

// boundsLine says where the budget's bounds put the catalog: "bounds:
// 2374–3398 at 95% confidence (…): the catalog's 1431 estimated tokens
// are below both, the mode is settled".
func (p *Proposal) boundsLine() string {
	s := p.Spread
	if s == nil {
		return ""
	}
	where := "below both"
	switch {
	case s.Uncertain:
		return fmt.Sprintf("bounds: %s: the catalog's %d estimated tokens lie between them, the mode is uncertain%s", s.spreadLine(p.Rules), p.RegistryEstimated, s.listLimit(p))
	case p.above(s.High):
		where = "above both"
	}
	return fmt.Sprintf("bounds: %s: the catalog's %d estimated tokens are %s, the mode is settled", s.spreadLine(p.Rules), p.RegistryEstimated, where)
}

// ModeUncertain reports whether the catalog's size lies within the
// budget's bounds, so that the mode could be the other one.
func (p *Proposal) ModeUncertain() bool { return p.Spread != nil && p.Spread.Uncertain }
