package report

import (
	"fmt"

	"github.com/defersim/defersim/sim"
)

// UnresolvedPastLimit says how many of the traces' tool calls did not
// resolve against the run's catalogs when they were more than its limit
// and the run replayed anyway (--allow-unresolved), and what the replay
// left out; "" otherwise, and for results of earlier builds, which do not
// record the resolution. plan and check warn with it.
func UnresolvedPastLimit(res *Results) string {
	return ResolutionPastLimit(res.Run.Resolution)
}

// ResolutionPastLimit is UnresolvedPastLimit of a resolution summary
// (runner.SummarizeResolution); "" for nil.
func ResolutionPastLimit(r *sim.ResolutionInfo) string {
	if r == nil || r.Calls == 0 || r.UnresolvedShare <= r.MaxUnresolvedShare {
		return ""
	}
	return fmt.Sprintf("%.1f%% of the traces' tool calls (%d of %d) did not resolve against the run's catalogs, "+
		"more than its limit of %.1f%% (replayed with --allow-unresolved): the replay left those tools out of every prompt, search and load",
		100*r.UnresolvedShare, r.Unresolved, r.Calls, 100*r.MaxUnresolvedShare)
}

// UnresolvedTools names the most called of the tools whose calls did not
// resolve (up to n, with their class and calls, then how many more), as
// the report's finding does; "" when none did or the results do not
// record the resolution.
func UnresolvedTools(res *Results, n int) string {
	return ResolutionTools(res.Run.Resolution, n)
}

// ResolutionTools is UnresolvedTools of a resolution summary; "" for nil.
func ResolutionTools(r *sim.ResolutionInfo, n int) string {
	if r == nil || r.Unresolved == 0 {
		return ""
	}
	return toolList(r.TopUnresolved, r.UnresolvedTools, n, r.UnresolvedOtherCalls)
}
