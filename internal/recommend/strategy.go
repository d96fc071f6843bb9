package recommend

import (
	"fmt"
	"slices"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// proposalStrategy writes the proposal as a strategy on base's mechanics.
func proposalStrategy(base sim.Strategy, tools []Assessment, p *Proposal) sim.Strategy {
	s := base
	s.Name = proposalName
	s.Source = "defersim recommend"
	s.NeverDefer = patterns(tools, neverDefer)
	s.AlwaysDefer = patterns(tools, alwaysDefer)
	s.Trigger = sim.Trigger{Mode: sim.TriggerTokens, Budget: p.Budget, Counter: sim.DefaultCounter}
	s.Scope = sim.ScopeMCP
	switch below := belowMode(tools, p); {
	case p.above(p.Budget):
		p.Mode = "the catalog is above the budget: every MCP tool but the never-defer list is deferred"
		if slices.ContainsFunc(tools, func(a Assessment) bool { return a.Decision == localDirect }) {
			p.Mode = "the catalog is above the budget: every MCP tool but the never-defer list and the local servers' tools (sent unless always-deferred) is deferred"
		}
	case below == modeBelowOnly:
		s.Trigger = sim.Trigger{Mode: sim.TriggerAlways}
		s.Scope = sim.ScopeAlwaysDeferOnly
		p.Mode = fmt.Sprintf("the catalog is below the budget: only the always-defer list is deferred (scope always-defer-only), "+
			"where a search round trip before the first reply costs %s (its search request sends every schema but the list's); "+
			"switch to trigger tokens > budget with scope mcp when the catalog grows past it", ms(onlyEconomy(tools, p).RoundTripMs()))
	case below == modeBelowAll:
		saving, cost := alwaysDeferOnly(tools, p)
		p.Mode = fmt.Sprintf("the catalog is below the budget, and deferring the always-defer list alone saves %s per session, "+
			"no more than deferred mode adds to every request (%s: the tool_search definition and %s): "+
			"the proposal sends every schema until the catalog grows past the budget", usd(saving), usd(cost), directoryWords(p.DirectoryFormat, p.OnlyDirectoryTokens))
	default:
		p.Mode = "the catalog is below the budget and nothing is worth always deferring: the proposal sends every schema until the catalog grows past the budget"
	}
	// The model priced travels with the snippet, in its description and
	// as recommended_for, with the digest of the values priced (the same
	// name with other prices, cache or latency is another model): a run
	// under another model or tokenizer replays these lists, which its
	// economics did not choose, and warns.
	p.For = scenarios.RecommendedFor{Model: p.Economy.Model.Name, Tokenizer: p.Economy.Params.Tokenizer, ModelValues: p.Economy.Model.ValuesDigest()}
	s.Description = fmt.Sprintf("Proposed by defersim recommend for %s on %s: %s.", p.Economy.Model.Name, nouns.Count(p.Training, "session"), p.Mode)
	s.Normalize()
	return s
}

// patterns lists the tools with a decision as never/always-defer entries:
// the bare name, or server:name when another server serves the same name.
func patterns(tools []Assessment, decision string) []string {
	count := map[string]int{}
	for _, a := range tools {
		count[a.Key.Tool]++
	}
	var out []string
	for _, a := range tools {
		if a.Decision != decision {
			continue
		}
		if count[a.Key.Tool] > 1 && a.Key.Server != "" {
			out = append(out, a.Key.Server+":"+a.Key.Tool)
		} else {
			out = append(out, a.Key.Tool)
		}
	}
	slices.Sort(out)
	return out
}

// alwaysDeferOnly prices the always-defer list deferred on its own (trigger
// always, scope always-defer-only): saving is what deferring its tools
// saves per session (direct $ − deferred $), cost what deferred mode then
// adds to every request, per session: the tool_search definition and the
// base's directory of the list (OnlyDirectoryTokens: its names, or what
// the base's format shows of them, or nothing under format none). The
// budget's ModeTokens count the directory of every deferrable tool
// instead, as scope mcp defers them all.
//
// The loads are priced in that mode (onlyEconomy): their search request
// keeps every schema but the list's, with the list's directory — not
// scope mcp's prompt, which the tools' DeferUSD price.
func alwaysDeferOnly(tools []Assessment, p *Proposal) (saving, cost float64) {
	e := onlyEconomy(tools, p)
	for _, a := range tools {
		if a.Decision != alwaysDefer {
			continue
		}
		saving += a.DirectUSD - a.UseShare*e.LoadUSD(float64(a.Schema.Tokens))
	}
	return saving, e.modeTokens() * p.Economy.perToken()
}

// onlyEconomy is the proposal's economics in scope always-defer-only's
// deferred mode: the search request and each load send every schema but
// the always-defer list's (the deferred schema), the tool_search
// definition and the base's directory of the list (OnlyDirectoryTokens).
// Its RoundTripMs, loadPrompt and LoadUSD are that mode's.
func onlyEconomy(tools []Assessment, p *Proposal) *Economy {
	e := p.Economy
	var list int64
	for _, a := range tools {
		if a.Decision == alwaysDefer {
			list += a.Schema.Tokens
		}
	}
	e.DeferredSchema = float64(list)
	e.Directory = p.OnlyDirectoryTokens
	return &e
}

// onlyPays reports whether the proposal, below its budget, defers its
// always-defer list on its own: the list is not empty and deferring it
// saves more than deferred mode costs (alwaysDeferOnly). It is the one
// rule of that mode: belowMode, which both the strategy
// (proposalStrategy) and the budget's spread (modeBelow) read, asks it.
func onlyPays(tools []Assessment, p *Proposal) bool {
	if !slices.ContainsFunc(tools, func(a Assessment) bool { return a.Decision == alwaysDefer }) {
		return false
	}
	saving, cost := alwaysDeferOnly(tools, p)
	return saving > cost
}
