package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// UnreplayedWarning introduces sim.ResolutionInfo.UnreplayedVersions: the
// warning of run, merge and defersim-beam (runsummary.WarnUnreplayed) and
// the report's input resolution section say it alike.
const UnreplayedWarning = "catalog versions no session replayed, newer than those replayed, so no figure of this run measures them (results.json run.resolution.unreplayed_versions)"

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

// UnreplayedText is the report's sentence of the catalog versions no
// session replayed: UnreplayedWarning, then UnreplayedLine of each
// server; "" when there are none.
func UnreplayedText(r *sim.ResolutionInfo) string {
	if r == nil || len(r.UnreplayedVersions) == 0 {
		return ""
	}
	lines := make([]string, len(r.UnreplayedVersions))
	for i, u := range r.UnreplayedVersions {
		lines[i] = UnreplayedLine(u)
	}
	return capitalize(UnreplayedWarning) + ": " + strings.Join(lines, "; ") + "."
}

// WriteUnreplayed writes the warning block of the catalog versions no
// session replayed: "INTRO UnreplayedWarning:", then UnreplayedLine of
// each server, indented; nothing when vs is empty. run, merge and
// defersim-beam print it as a warning (runsummary.WarnUnreplayed), trace
// validate as what run would warn.
func WriteUnreplayed(w io.Writer, intro string, vs []sim.UnreplayedVersions) error {
	if len(vs) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "%s%s:\n", intro, UnreplayedWarning); err != nil {
		return err
	}
	for _, u := range vs {
		if _, err := fmt.Fprintf(w, "  %s\n", UnreplayedLine(u)); err != nil {
			return err
		}
	}
	return nil
}
