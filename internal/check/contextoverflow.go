package check

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
)

// overflowWarnings warns of the current run's strategies (those checked:
// strategyNames, every one when only is empty) that send model requests over the model's context
// window (report.StrategyResult.ContextOverflow), saying whether the
// baseline's same strategy did: a provider refuses such requests, and the
// rows compare their tokens, cost and times as if they had succeeded. A
// warning, not a regression: no rule's statistic moves by it.
func overflowWarnings(base, cur *report.Results, only []string) []string {
	var out []string
	for _, name := range strategyNames(cur, only) {
		s := cur.Strategy(name)
		c := s.ContextOverflow
		if c == nil {
			continue
		}
		was := "where the baseline's sent none"
		if b := base.Strategy(name); b != nil && b.ContextOverflow != nil {
			was = fmt.Sprintf("as the baseline's did (%s in %d of %s)", nouns.Count(b.ContextOverflow.Requests, "request"),
				b.ContextOverflow.Sessions, nouns.Count(base.Sessions, "session"))
		}
		out = append(out, fmt.Sprintf("current: %s sends %s over the model's context window of %d tokens in %d of %s (the largest %d tokens, session %s), %s: "+
			"a provider refuses them, and the checks compare its tokens, cost and times as if they had succeeded (results.json strategies[].context_overflow)",
			s.Name, nouns.Count(c.Requests, "model request"), c.Window, c.Sessions, nouns.Count(cur.Sessions, "session"), c.MaxInput, c.MaxSession, was))
	}
	return out
}
