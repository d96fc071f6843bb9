package runsummary

import (
	"fmt"
	"io"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// unreplayedWarning introduces sim.ResolutionInfo.UnreplayedVersions.
const unreplayedWarning = "catalog versions no session replayed, newer than those replayed, so no figure of this run measures them (results.json run.resolution.unreplayed_versions)"

// WarnUnreplayed warns on w, as program, of the catalog versions of res
// that no session replayed although an older version of their server was
// (a catalog directory holding an upgrade the traces do not name), one
// line per server with the route to replay them. `defersim run`,
// `defersim merge` and `defersim-beam` print it; nothing when there are
// none.
func WarnUnreplayed(w io.Writer, program string, res *report.Results) {
	if res == nil || res.Run.Resolution == nil || len(res.Run.Resolution.UnreplayedVersions) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: warning: %s:\n", program, unreplayedWarning)
	for _, u := range res.Run.Resolution.UnreplayedVersions {
		fmt.Fprintf(w, "  %s\n", UnreplayedLine(u))
	}
}

// UnreplayedLine says one server's unreplayed versions and how to replay
// them: "chrome-devtools-mcp 1.11.0 (the sessions replayed 0.17.0; to
// replay it, add servers.chrome-devtools-mcp.upgrades to the scenario, or
// record traces that name it: docs/scenarios.md#servers)".
func UnreplayedLine(u sim.UnreplayedVersions) string {
	it := "it"
	if len(u.Versions) > 1 {
		it = "them"
	}
	return fmt.Sprintf("%s %s (the sessions replayed %s; to replay %s, add servers.%s.upgrades to the scenario, or record traces that name %s: docs/scenarios.md#servers)",
		u.Server, nouns.And(u.Versions), nouns.And(u.Replayed), it, u.Server, it)
}
