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
}

// decidePasses applies the rules (assessAll) until they settle. The round
// trip's and the loads' prompts depend on what stays direct, which leaves
// the deferred schemas and the directory (scope mcp's, as a run of the
// proposal renders it): the first pass decides with every tool deferred
// (all schema tokens, the directory of every tool), each next one with
// the figures the pass before's decisions give. The decisions settle when
// the figures they give are the ones they were made with; the tools and
// the economy returned are then those. After maxDecisionPasses without
// settling, the last pass's decisions are returned with the economy they
// were made with, and Unsettled says what they give instead. The passes
// are deterministic: the same inputs flip the same way.
func decidePasses(e Economy, all int64, assessAll func(*Economy) []Assessment, base sim.Strategy, dir directoryPricer) ([]Assessment, Economy, *Unsettled, error) {
	var err error
	e.DeferredSchema = float64(all)
	if e.Directory, e.DirectoryFormat, err = proposalDirectory(nil, base, sim.ScopeMCP, dir); err != nil {
		return nil, e, nil, fmt.Errorf("directory of every tool: %w", err)
	}
	var prev []Assessment
	for pass := 1; ; pass++ {
		tools := assessAll(&e)
		var direct int64
		for _, a := range tools {
			if a.direct() {
				direct += a.Schema.Tokens
			}
		}
		next := e
		next.DeferredSchema = float64(all - direct)
		if next.Directory, _, err = proposalDirectory(tools, base, sim.ScopeMCP, dir); err != nil {
			return nil, e, nil, fmt.Errorf("directory of the deferrable tools: %w", err)
		}
		if next.DeferredSchema == e.DeferredSchema && next.Directory == e.Directory {
			return tools, e, nil, nil
		}
		if pass == maxDecisionPasses {
			return tools, e, &Unsettled{Passes: pass, Flipped: flipped(prev, tools), DeferredSchema: e.DeferredSchema, Directory: e.Directory,
				DecidedDeferredSchema: next.DeferredSchema, DecidedDirectory: next.Directory}, nil
		}
		prev, e = tools, next
	}
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
		"(%.0f deferred schema tokens, a %d-token directory), not those they give (%.0f, %d), which the budget's directory_tokens count; "+
		"compare the proposal with the flipped decisions by replay before relying on them",
		nouns.CountAs(u.Passes, "pass", "passes"), strings.Join(u.Flipped, ", "), u.DeferredSchema, u.Directory, u.DecidedDeferredSchema, u.DecidedDirectory)
}
