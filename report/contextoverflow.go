package report

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// ContextOverflowText says which strategies sent model requests larger
// than the model's context window, how many in how many sessions, the
// largest against the window, and what to do; "" when none did. run and
// merge print it on stderr, and the report says it as a finding.
func ContextOverflowText(res *Results) string {
	var parts []string
	var window int64
	for i := range res.Strategies {
		s := &res.Strategies[i]
		c := s.ContextOverflow
		if c == nil {
			continue
		}
		window = c.Window
		parts = append(parts, fmt.Sprintf("%s sends %s over it in %d of %s, the largest %d tokens (%.1f× the window, session %s)",
			s.Name, nouns.Count(c.Requests, "model request"), c.Sessions, nouns.Count(res.Sessions, "session"),
			c.MaxInput, float64(c.MaxInput)/float64(c.Window), c.MaxSession))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("requests over the context window: the run's model %s takes at most %d input tokens, and %s. "+
		"A provider refuses such a request (\"prompt is too long\"): the session cannot go on as recorded, so %s tokens, cost and times "+
		"describe requests that could not be made, not what the sessions would cost. Replay under a model with a larger window "+
		"(a scenario file's model:, docs/scenarios.md), defer more tools (a strategy whose trigger defers them, or always_defer), "+
		"or connect a smaller catalog (defersim catalog stats names the largest tools).",
		res.Run.Model, window, strings.Join(parts, "; "), nouns.Form(len(parts), "that strategy's", "those strategies'"))
}

// OverflowMark follows, in a table, the name or figure of a strategy whose
// requests exceed the model's context window, explained by a legend line
// under the table: report.html's and report.md's summary tables, and
// plan --growth's breakdown table. A table where nothing overflows has
// neither mark nor legend.
const OverflowMark = "⚠"

// overflowLegend is the line under the summary table that explains the
// mark after strategy name's row: its requests over the window c, in how
// many of a run's sessions.
func overflowLegend(name string, c *sim.ContextOverflow, sessions int) string {
	return fmt.Sprintf("%s %s: %s over the %d-token context window, in %d of %s: its figures include requests a provider would refuse (first finding below)",
		OverflowMark, name, nouns.Count(c.Requests, "request"), c.Window, c.Sessions, nouns.Count(sessions, "session"))
}
