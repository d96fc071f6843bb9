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
			"where a search round trip before the first reply costs %s (its search request sends every schema but the list's)%s; "+
			"switch to trigger tokens > budget with scope mcp when the catalog grows past it", ms(onlyEconomy(tools, p).RoundTripMs()), onlyPricedWords(tools, p))
	case below == modeBelowAll:
		saving, cost, _ := alwaysDeferOnly(tools, p)
		p.Mode = fmt.Sprintf("the catalog is below the budget, and deferring the always-defer list alone saves %s per session, "+
			"no more than deferred mode adds to every request (%s: the tool_search definition and %s)%s: "+
			"the proposal sends every schema until the catalog grows past the budget", usd(saving), usd(cost), directoryWords(p.DirectoryFormat, p.OnlyDirectoryTokens), onlyTimeWords(tools, p))
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
// instead, as scope mcp defers them all. addedMs is the mean first-reply
// time the mode adds (negative: takes off): each listed tool's
// before-reply share × the mode's round trip less its direct prefill,
// plus the prefill of what the mode adds to the first request.
//
// The loads and the round trip are priced in that mode (onlyEconomy):
// their search request keeps every schema but the list's, with the list's
// directory — not scope mcp's prompt, which the tools' DeferUSD price.
func alwaysDeferOnly(tools []Assessment, p *Proposal) (saving, cost, addedMs float64) {
	e := onlyEconomy(tools, p)
	rt := e.RoundTripMs()
	for _, a := range tools {
		if a.Decision != alwaysDefer {
			continue
		}
		t := float64(a.Schema.Tokens)
		saving += a.DirectUSD - a.UseShare*e.LoadUSD(t)
		addedMs += a.BeforeReplyShare*rt - e.DirectFirstMs(t)
	}
	return saving, e.modeTokens() * p.Economy.perToken(), addedMs + e.DirectFirstMs(e.modeTokens())
}

// onlyTimeUSD is what the first-reply time scope always-defer-only adds
// costs per session at --usd-per-second (negative: what the time it
// takes off is worth; 0 without the flag, when dollars alone decide).
func onlyTimeUSD(p *Proposal, addedMs float64) float64 { return p.Rules.worth(0, addedMs) }

// onlyTimeWords says, under --usd-per-second, what the mode's first-reply
// time weighed in the decision (alwaysDeferOnly): " plus the $0.00120 its
// 120 ms more of mean first reply costs at --usd-per-second 0.01"; "" without
// the flag.
func onlyTimeWords(tools []Assessment, p *Proposal) string {
	_, _, addedMs := alwaysDeferOnly(tools, p)
	if p.Rules.USDPerSecond <= 0 {
		return ""
	}
	worth := onlyTimeUSD(p, addedMs)
	if addedMs >= 0 {
		return fmt.Sprintf(" plus the %s its %s more of mean first reply costs at --usd-per-second %g", usd(worth), ms(addedMs), p.Rules.USDPerSecond)
	}
	return fmt.Sprintf(" less the %s its %s less of mean first reply is worth at --usd-per-second %g", usd(-worth), ms(-addedMs), p.Rules.USDPerSecond)
}

// onlyPricedWords says, under --usd-per-second, what the mode saves
// against what it costs, time included: "; it saves $0.02000 per session,
// more than deferred mode adds to every request ($0.01025) plus …"; ""
// without the flag.
func onlyPricedWords(tools []Assessment, p *Proposal) string {
	if p.Rules.USDPerSecond <= 0 {
		return ""
	}
	saving, cost, _ := alwaysDeferOnly(tools, p)
	return fmt.Sprintf("; it saves %s per session, more than deferred mode adds to every request (%s)%s", usd(saving), usd(cost), onlyTimeWords(tools, p))
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
	e.scope = sim.ScopeAlwaysDeferOnly
	return &e
}

// onlyPays reports whether the proposal, below its budget, defers its
// always-defer list on its own: the list is not empty and deferring it
// saves more than deferred mode costs (alwaysDeferOnly), with the
// first-reply time it adds priced at --usd-per-second when given, as the
// per-tool rules price it (dollars alone without). It is the one
// rule of that mode: belowMode, which both the strategy
// (proposalStrategy) and the budget's spread (modeBelow) read, asks it.
func onlyPays(tools []Assessment, p *Proposal) bool {
	if !slices.ContainsFunc(tools, func(a Assessment) bool { return a.Decision == alwaysDefer }) {
		return false
	}
	saving, cost, addedMs := alwaysDeferOnly(tools, p)
	return saving > p.Rules.worth(cost, addedMs)
}
