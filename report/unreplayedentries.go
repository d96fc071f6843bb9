package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// UnreplayedEntriesWarning introduces sim.RunInfo.UnreplayedEntries: the
// warning of run and merge (runsummary.WarnUnreplayedEntries), recommend's
// and the report's finding say it alike.
const UnreplayedEntriesWarning = "list entries that no catalog version the sessions replayed serves, so they change nothing in the replay (written ahead of an upgrade, or for a version since removed or renamed?)"

// UnreplayedEntryLine says one entry, the versions that serve it and those
// the sessions replayed: `strategy mine: never_defer[0]: "query-docs":
// served by upstash__context7-mcp@2.1.0 only (the sessions replayed
// upstash__context7-mcp@1.0.14)`.
func UnreplayedEntryLine(u sim.UnreplayedEntry) string {
	replayed := "no session replayed its server"
	if len(u.Replayed) > 0 {
		replayed = "the sessions replayed " + nouns.And(u.Replayed)
	}
	return fmt.Sprintf("strategy %s: %s[%d]: %q: served by %s only (%s)", u.Strategy, u.Key, u.Index, u.Entry, nouns.And(u.Serving), replayed)
}

// UnreplayedEntriesText is the report's finding of the entries no
// replayed version serves; "" when there is none.
func UnreplayedEntriesText(entries []sim.UnreplayedEntry) string {
	if len(entries) == 0 {
		return ""
	}
	lines := make([]string, len(entries))
	for i, u := range entries {
		lines[i] = UnreplayedEntryLine(u)
	}
	return capitalize(UnreplayedEntriesWarning) + " (results.json run.scenario_entries_unreplayed): " + strings.Join(lines, "; ") + "."
}

// WriteUnreplayedEntries writes the warning block of the entries no
// replayed version serves: "INTRO UnreplayedEntriesWarning:", then
// UnreplayedEntryLine of each, indented; nothing when there is none.
func WriteUnreplayedEntries(w io.Writer, intro, where string, entries []sim.UnreplayedEntry) error {
	if len(entries) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "%s%s (%s):\n", intro, UnreplayedEntriesWarning, where); err != nil {
		return err
	}
	for _, u := range entries {
		if _, err := fmt.Fprintf(w, "  %s\n", UnreplayedEntryLine(u)); err != nil {
			return err
		}
	}
	return nil
}
