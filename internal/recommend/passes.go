package recommend

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// maxDecisionPasses bounds decidePasses: decisions still changing the
// figures they were made with after this many passes are reported as
// unsettled (Unsettled).
const maxDecisionPasses = 8

// Unsettled says that the decisions did not settle within Passes passes:
// the last pass decided with one round trip and load prompt, and its
// decisions give another. The figures reported (round trip, loads, the
// tools' times and dollars) are those the decisions were made with.
type Unsettled struct {
	Passes int `json:"passes"`
	// Flipped lists the tools whose decision the last pass changed:
	// "server:tool (never-defer → by budget)".
	Flipped []string `json:"flipped"`
	// DeferredSchema and Directory are what the decisions were made with
	// (the deferred schema tokens, the directory's tokens);
	// DecidedDeferredSchema and DecidedDirectory what the decisions give.
	DeferredSchema        float64 `json:"deferred_schema_tokens"`
	Directory             int64   `json:"directory_tokens"`
	DecidedDeferredSchema float64 `json:"decisions_deferred_schema_tokens"`
	DecidedDirectory      int64   `json:"decisions_directory_tokens"`
	// ListScope is the mode whose figures the always-defer rule weighed
	// (mcp or always-defer-only), DecidedListScope the mode the decisions
	// run.
	ListScope        string `json:"always_defer_rule_scope"`
	DecidedListScope string `json:"decisions_always_defer_rule_scope"`
}

// decidePasses applies the rules (assessAll) until they settle. The round
// trip's and the loads' prompts depend on what stays direct, which leaves
// the deferred schemas and the directory (scope mcp's, as a run of the
// proposal renders it): the first pass decides with every tool deferred
// (all schema tokens, the directory of every tool), each next one with
// the figures the pass before's decisions give. The always-defer rule
// weighs the mode the proposal runs, which the decisions choose (budget
// and belowMode, on the proposal newProposal prices): the first pass
// prices it in scope mcp, each next one in the mode the pass before's
// decisions run, scope always-defer-only's figures (onlyEconomy) when
// that is the mode. The decisions settle when the figures they give are
// the ones they were made with; the proposal returned is then theirs.
// After maxDecisionPasses without settling, the last pass's decisions are
// returned with the economies they were made with, and Unsettled says
// what they give instead. The passes are deterministic: the same inputs
// flip the same way.
func decidePasses(e Economy, all int64, assessAll func(e, list *Economy) []Assessment, newProposal func([]Assessment, Economy) (*Proposal, error),
	base sim.Strategy, dir directoryPricer) (*Proposal, error) {
	var err error
	e.DeferredSchema = float64(all)
	if e.Directory, e.DirectoryFormat, err = proposalDirectory(nil, base, sim.ScopeMCP, dir); err != nil {
		return nil, fmt.Errorf("directory of every tool: %w", err)
	}
	list := e
	var prev []Assessment
	for pass := 1; ; pass++ {
		tools := assessAll(&e, &list)
		p, err := newProposal(tools, e)
		if err != nil {
			return nil, err
		}
		p.ListScope = scopeName(list.scope)
		var direct int64
		for _, a := range tools {
			if a.direct() {
				direct += a.Schema.Tokens
			}
		}
		next := e
		next.DeferredSchema = float64(all - direct)
		next.Directory = p.DirectoryTokens
		nextList := next
		if !p.above(p.Budget) && belowMode(tools, p) == modeBelowOnly {
			nextList = *onlyEconomy(tools, p)
		}
		if samePrompts(next, e) && samePrompts(nextList, list) {
			return p, nil
		}
		if pass == maxDecisionPasses {
			p.Unsettled = &Unsettled{Passes: pass, Flipped: flipped(prev, tools), DeferredSchema: e.DeferredSchema, Directory: e.Directory,
				DecidedDeferredSchema: next.DeferredSchema, DecidedDirectory: next.Directory,
				ListScope: p.ListScope, DecidedListScope: scopeName(nextList.scope)}
			return p, nil
		}
		prev, e, list = tools, next, nextList
	}
}

// samePrompts reports whether two economies price the same search and
// load prompts in the same mode.
func samePrompts(a, b Economy) bool {
	return a.DeferredSchema == b.DeferredSchema && a.Directory == b.Directory && a.scope == b.scope
}

// scopeName is an Economy's scope as a strategy writes it.
func scopeName(scope string) string {
	if scope == "" {
		return sim.ScopeMCP
	}
	return scope
}

// flipped lists the tools whose decision differs between two passes (the
// same tools in the same order).
func flipped(prev, tools []Assessment) []string {
	var out []string
	for i, a := range tools {
		if i < len(prev) && prev[i].Decision != a.Decision {
			out = append(out, fmt.Sprintf("%s (%s → %s)", toolLabel(a.Key), prev[i].Decision, a.Decision))
		}
	}
	return out
}

// warning says that the decisions did not settle, which figures are
// reported, and what to do.
func (u *Unsettled) warning() string {
	return fmt.Sprintf("the decisions did not settle in %s: what stays direct sets the round trip and the loads' prompt, which set what stays direct, "+
		"and the last pass changed %s; the figures reported (round trip, loads, each tool's times and dollars) are those these decisions were made with "+
		"(%.0f deferred schema tokens, a %d-token directory), not those they give (%.0f, %d), which the budget's directory_tokens count%s; "+
		"compare the proposal with the flipped decisions by replay before relying on them",
		nouns.CountAs(u.Passes, "pass", "passes"), strings.Join(u.Flipped, ", "), u.DeferredSchema, u.Directory, u.DecidedDeferredSchema, u.DecidedDirectory, u.scopeWords())
}

// scopeWords says, when they differ, in which mode the always-defer rule
// was priced and which mode the decisions run.
func (u *Unsettled) scopeWords() string {
	if u.ListScope == u.DecidedListScope {
		return ""
	}
	return fmt.Sprintf("; the always-defer rule was priced in scope %s, and these decisions run scope %s", u.ListScope, u.DecidedListScope)
}
