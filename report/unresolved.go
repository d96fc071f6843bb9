package report

import (
	"fmt"
	"strings"

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
// (runner.SummarizeResolution); "" for nil. It says the unresolved calls
// when their share is past the limit, and the sessions naming a server or
// version no catalog holds when theirs is (sim.ResolutionInfo.PastLimit).
func ResolutionPastLimit(r *sim.ResolutionInfo) string {
	if r == nil {
		return ""
	}
	var parts []string
	if r.Calls > 0 && r.CallsPastLimit() {
		parts = append(parts, fmt.Sprintf("%.1f%% of the traces' tool calls (%d of %d) did not resolve against the run's catalogs, "+
			"more than its limit of %.1f%% (replayed with --allow-unresolved): %s",
			100*r.UnresolvedShare, r.Unresolved, r.Calls, 100*r.MaxUnresolvedShare, unresolvedEffect(r)))
	}
	if r.Sessions > 0 && r.SessionsPastLimit() {
		parts = append(parts, fmt.Sprintf("%.1f%% of the sessions (%d of %d) name a server or version no catalog holds, "+
			"more than its limit of %.1f%% (replayed with --allow-unresolved): %s; the replay left such a server out of every request of the session, or offered it at its latest version",
			100*r.SessionsMissingShare, r.SessionsMissingServers, r.Sessions, 100*r.MaxUnresolvedShare, MissingServersText(r, 5, nil)))
	}
	return strings.Join(parts, "; ")
}

// unresolvedEffect says, per class, what the replay did with the calls
// that did not resolve: the tools of unknown-tool and unknown-server calls
// are in no prompt, search or load; a version-missing call's server was
// replayed at another version, its latest, whose definition of the tool
// the call was placed with (left out where that version does not serve
// the tool).
func unresolvedEffect(r *sim.ResolutionInfo) string {
	var parts []string
	if n := r.UnknownTool + r.UnknownServer; n > 0 {
		parts = append(parts, fmt.Sprintf("the replay left the tools of the %s of an unknown tool or server out of every prompt, search and load", callsText(n)))
	}
	if r.VersionMissing > 0 {
		parts = append(parts, fmt.Sprintf("the %s on a server at a version no catalog holds were replayed against another version of that server (its latest), "+
			"with that version's definitions, leaving out the tools it does not serve", callsText(r.VersionMissing)))
	}
	return strings.Join(parts, "; and ")
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

// ResolutionNotExact names the most called of the tools whose schema the
// import marked approximate or missing (up to n, with their class and
// calls, then how many more), as the run's resolution table does; "" for
// nil or when every resolved call's schema is exact.
func ResolutionNotExact(r *sim.ResolutionInfo, n int) string {
	if r == nil || r.SchemaApproximate+r.SchemaMissing == 0 {
		return ""
	}
	return toolList(r.NotExact, r.NotExactTools, n, r.NotExactOtherCalls)
}
