// Package runsummary prints what a replay prints when it succeeds: the
// counts of what was read, replayed and skipped, the report's summary, the
// resolution of the tool calls against the catalogs, and where the outputs
// are, as text (Write) or JSON (JSON). `defersim run`, `defersim merge`
// and `defersim-beam` (which reads the summary back from the results.json
// its job wrote) print it in the same words.
package runsummary

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

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

// summaryJSON is what `run --format json` prints.
type summaryJSON struct {
	Results    string                        `json:"results"`
	Report     string                        `json:"report,omitempty"`
	Counts     sim.Counts                    `json:"counts"`
	Baseline   string                        `json:"baseline"`
	Strategies map[string]map[string]float64 `json:"strategy_means"`
	Resolution *sim.ResolutionInfo           `json:"resolution,omitempty"`
	Failures   []string                      `json:"failures,omitempty"`
	// Findings are the text summary's Note: lines (report.Findings: a
	// context window exceeded, scenario entries that match nothing, a
	// strategy recommended for another model, …); absent when none.
	Findings []string `json:"findings,omitempty"`
	// Shard is the run's shard (run --shard), as results.json records it.
	Shard *sim.ShardInfo `json:"shard,omitempty"`
	// MemoryLimit is the soft memory limit the run had (run's
	// --memory-limit or GOMEMLIMIT), in bytes; absent when none.
	MemoryLimit int64 `json:"memory_limit_bytes,omitempty"`
}

// JSON prints the summary of res as JSON on w (`--format json`): the
// paths of results.json and of report.html (when not ""), the counts, the
// baseline, every strategy's metric means, the resolution, the first line
// of each failure (failures: the errors of the sessions that failed to
// replay, when the caller has them), the findings the text summary gives
// as Note: lines, the shard and the soft memory limit (memoryLimit bytes;
// 0: none, not printed).
func JSON(w io.Writer, res *report.Results, results, reportHTML string, failures []string, memoryLimit int64) error {
	s := summaryJSON{Results: results, Report: reportHTML, Counts: res.Run.Counts,
		Baseline: res.BaselineName(), Strategies: map[string]map[string]float64{}, Resolution: res.Run.Resolution,
		Shard: res.Run.Shard, MemoryLimit: memoryLimit, Findings: report.Findings(res)}
	for _, st := range res.Strategies {
		m := map[string]float64{}
		for name, d := range st.Metrics {
			if d.Count > 0 {
				m[name] = d.Mean
			}
		}
		s.Strategies[st.Name] = m
	}
	for _, f := range failures {
		s.Failures = append(s.Failures, firstLine(f))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
