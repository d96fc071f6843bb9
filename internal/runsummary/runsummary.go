// Package runsummary prints what a replay prints when it succeeds: the
// counts of what was read, replayed and skipped, the report's summary, the
// resolution of the tool calls against the catalogs, and where the outputs
// are. `defersim run`, `defersim merge` and `defersim-beam` (which reads
// the summary back from the results.json its job wrote) print it in the
// same words.
package runsummary

import (
	"fmt"
	"io"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// Write prints the summary of res on w, then the path of results.json
// and of report.html when they are not "".
func Write(w io.Writer, res *report.Results, results, reportHTML string) {
	c := res.Run.Counts
	fmt.Fprintf(w, "replayed %d of %s (%d skipped; %s read, %d skipped) under %s\n",
		c.SessionsReplayed, nouns.Count(c.SessionsRead, "session"), c.SessionsSkipped, nouns.Count(c.LinesRead, "line"), c.LinesSkipped,
		nouns.CountAs(len(res.Strategies), "strategy", "strategies"))
	report.Summary(w, res)
	Resolution(w, res.Run.Resolution, StandIns(res.Run.CatalogNotes))
	if results != "" {
		fmt.Fprintf(w, "results: %s\n", results)
	}
	if reportHTML != "" {
		fmt.Fprintf(w, "report:  %s\n", reportHTML)
	}
}

// Resolution prints the input resolution: one line when every call
// resolved to an exact definition, else the table. standIns is how many
// catalog tools were read with a stand-in schema: their definitions are
// not exact, and the line says so.
func Resolution(w io.Writer, r *sim.ResolutionInfo, standIns int) {
	if r == nil {
		return
	}
	if r.Resolved == r.Calls && r.SessionsWithoutServers == 0 && r.CatalogChangesMissing == 0 && r.SessionsMissingServers == 0 && r.SearchResultsUnknown == 0 && r.Ambiguous == 0 && r.UnorderedLatest == 0 {
		if standIns > 0 {
			fmt.Fprintf(w, "inputs:  all %s resolved against the catalogs; %s read with a stand-in {\"type\":\"object\"} schema (see the notes)\n", nouns.Count(r.Calls, "tool call"), nouns.Count(standIns, "catalog tool"))
			return
		}
		fmt.Fprintf(w, "inputs:  all %s resolved against the catalogs, exact definitions\n", nouns.Count(r.Calls, "tool call"))
		return
	}
	report.WriteResolution(w, r)
}

// StandIns counts the catalog tools read with a stand-in schema.
func StandIns(notes []catalog.Note) int {
	n := 0
	for _, note := range notes {
		if note.Kind == catalog.NoteSchemaMissing || note.Kind == catalog.NoteSchemaNull {
			n += note.Count
		}
	}
	return n
}
