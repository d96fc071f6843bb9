package runsummary

import (
	"io"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// WarnUnreplayedEntries warns on w, as program, of a scenario's list
// entries that no server version the sessions replayed serves
// (sim.RunInfo.UnreplayedEntries), one line each; `defersim run` and
// `defersim merge` print it.
func WarnUnreplayedEntries(w io.Writer, program string, entries []sim.UnreplayedEntry) {
	_ = report.WriteUnreplayedEntries(w, program+": warning: ", "results.json run.scenario_entries_unreplayed", entries)
}
