package report

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// UnrecordedArgsText says, when some strategy replayed stale-warm calls
// whose arguments the traces did not record (calls_unchecked), that those
// calls were not validated and which figures exclude them: the report's
// finding and run's, merge's and defersim-beam's warning. "" when none.
func UnrecordedArgsText(res *Results) string {
	parts, _ := perStrategy(res, sim.MCallsUnchecked)
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("arguments not recorded: the traces did not record the arguments of stale-warm calls (args_unrecorded: an export without content capture), "+
		"so the replay validated none of them: they are neither valid nor malformed, and malformed-call counts and rates exclude them (calls_unchecked: %s)",
		strings.Join(parts, "; "))
}

// UnrecordedResultsText says, when some tool calls that ran have a
// result the traces did not record (calls_result_unrecorded: marked
// result_unrecorded), that their result tokens are counted as 0: the
// report's finding and run's, merge's and defersim-beam's warning. "" when
// none. An empty result (tau-bench's think) is not one of them.
func UnrecordedResultsText(res *Results) string {
	parts, same := perStrategy(res, sim.MCallsResultUnrecorded)
	if len(parts) == 0 {
		return ""
	}
	which, verb, each := "tool calls", "have", strings.Join(parts, "; ")
	if same {
		n := int64(res.Strategies[0].Metrics[sim.Metrics[sim.MCallsResultUnrecorded].Name].Sum)
		verb, which = nouns.Form(n, "has", "have"), fmtNoun(n, "tool call")
		each = "the same under every strategy"
	}
	return fmt.Sprintf("results not recorded: %s %s a result the traces did not record (result_unrecorded: an export without content capture; "+
		"calls_result_unrecorded, %s): each is counted as 0 tokens, so the prompts after it lack it, "+
		"and input tokens, cost and times are low by its size",
		which, verb, each)
}

// perStrategy lists "NAME: N tool calls" for the strategies whose metric m
// sums above 0, and says whether every strategy has the same sum.
func perStrategy(res *Results, m int) (parts []string, same bool) {
	name := sim.Metrics[m].Name
	same = true
	for i := range res.Strategies {
		s := &res.Strategies[i]
		n := s.Metrics[name].Sum
		if n != res.Strategies[0].Metrics[name].Sum {
			same = false
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s: %s", s.Name, fmtNoun(int64(n), "tool call")))
		}
	}
	return parts, same
}
