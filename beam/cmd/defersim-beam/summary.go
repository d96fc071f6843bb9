package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/beam/pipeline"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/runsummary"
	"github.com/defersim/defersim/report"
)

// maxResultsRead bounds how much of results.json the launcher reads back
// for the summary: far above what a run writes (about 2 KB per session
// kept exactly, --exact-sessions), so that only a file that is not a
// run's results is refused.
const maxResultsRead = 1 << 30

// readResults reads back the results.json the job wrote into out (a local
// directory or a filesystem URL).
func readResults(ctx context.Context, out string) (*report.Results, error) {
	p := joinOut(out, "results.json")
	data, err := pipeline.ReadFile(ctx, p, maxResultsRead)
	if err != nil {
		return nil, err
	}
	res, err := report.DecodeResults(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return res, nil
}

// joinOut names the file name of the output directory out.
func joinOut(out, name string) string {
	if strings.Contains(out, "://") {
		return strings.TrimSuffix(out, "/") + "/" + name
	}
	return filepath.Join(out, name)
}

// summaryStyle is how the summary is printed: as JSON (--format json),
// or not at all (--quiet), as `defersim run` prints it.
type summaryStyle struct{ json, quiet bool }

// summarize tells the user what `defersim run` tells them after a run
// that wrote res into out: on stdout the counts of what was read,
// replayed and skipped, the report's summary and notes, the resolution of
// the tool calls and the outputs' paths; on stderr the input warnings
// (catalog tools read with a stand-in schema, implausible counts, times
// going backwards, sessions without a session_end, …). Sessions that
// failed to replay make it an error, run's exit status 1.
//
// results.json holds the counts behind every warning but not where the
// first implausible or backward lines are, nor the errors of the sessions
// that failed: the Write stage logs those on the job's workers, and the
// warnings say so. The summary is text, JSON or nothing (style); the
// warnings are printed in every style, as `defersim run` prints them.
func summarize(stdout, stderr io.Writer, res *report.Results, out string, withReport bool, style summaryStyle) error {
	html := ""
	if withReport {
		html = joinOut(out, "report.html")
	}
	switch {
	case style.json:
		// The sessions that failed to replay are counted; their errors
		// are in the log of the job's Write stage, not here.
		if err := runsummary.JSON(stdout, res, joinOut(out, "results.json"), html, nil, 0); err != nil {
			return err
		}
	case !style.quiet:
		runsummary.Write(stdout, res, joinOut(out, "results.json"), html)
	}
	c := res.Run.Counts
	n := inputnotes.Notes{CatalogNotes: res.Run.CatalogNotes, SessionsRead: c.SessionsRead, EventsRead: c.EventsRead,
		SessionsIncomplete: c.SessionsIncomplete, EventsTimeBackwards: c.EventsTimeBackwards, LinesImplausible: c.LinesImplausible,
		SessionsEpochDated: c.SessionsEpochDated, EventsNotReplayed: c.EventsNotReplayed,
		SessionsWithEventsNotReplayed: c.SessionsWithEventsNotReplayed}
	for _, line := range n.Warnings(pipeline.NotesAt) {
		fmt.Fprintf(stderr, "defersim-beam: warning: %s\n", line)
	}
	if c.LinesImplausible > 0 || c.EventsTimeBackwards > 0 {
		fmt.Fprintln(stderr, "defersim-beam: warning: the first five of each are located in the log of the job's Write stage (`defersim trace validate` lists them all)")
	}
	if c.SessionsSkipped > 0 {
		return fmt.Errorf("%d session(s) failed to replay and were skipped (their errors are in the log of the job's Write stage); results cover the rest", c.SessionsSkipped)
	}
	return nil
}
