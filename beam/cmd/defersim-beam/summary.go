package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/beam/pipeline"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/runner"
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

// readFailures reads back the first lines of the errors of the sessions
// that failed to replay, which the job wrote beside results.json
// (runner.FailuresFile), in session order.
func readFailures(ctx context.Context, out string) ([]string, error) {
	p := joinOut(out, runner.FailuresFile)
	data, err := pipeline.ReadFile(ctx, p, maxResultsRead)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), nil
}

// summaryStyle is how the summary is printed: as JSON (--format json),
// or not at all (--quiet), as `defersim run` prints it.
type summaryStyle struct{ json, quiet bool }

// summarize tells the user what `defersim run` tells them after a run
// that wrote res into out: on stdout the counts of what was read,
// replayed and skipped, the report's summary and notes, the resolution of
// the tool calls and the outputs' paths; on stderr the input warnings
// (catalog tools read with a stand-in schema, implausible counts, times
// going backwards, sessions without a session_end, …) and the strategies
// whose requests exceed the model's context window
// (runsummary.WarnContextOverflow, run's words). Sessions that
// failed to replay make it an error, run's exit status 1; failures (the
// first line of each one's error, read back from the failures file the
// job wrote) are listed as run lists them: in the JSON summary and, one a
// line, on stderr. failed says whether they could not be read back: the
// error then points at the log of the job's Write stage instead.
//
// results.json holds the counts behind every warning but not where the
// first implausible or backward lines are: the Write stage logs those on
// the job's workers, and the warnings say so. The summary is text, JSON or
// nothing (style); the warnings are printed in every style, as `defersim
// run` prints them.
func summarize(stdout, stderr io.Writer, res *report.Results, failures []string, failed error, out string, withReport bool, style summaryStyle) error {
	html := ""
	if withReport {
		html = joinOut(out, "report.html")
	}
	switch {
	case style.json:
		if err := runsummary.JSON(stdout, res, joinOut(out, "results.json"), html, failures, 0); err != nil {
			return err
		}
	case !style.quiet:
		runsummary.Write(stdout, res, joinOut(out, "results.json"), html)
	}
	c := res.Run.Counts
	n := inputnotes.Notes{CatalogNotes: res.Run.CatalogNotes, SessionsRead: c.SessionsRead, EventsRead: c.EventsRead,
		SessionsIncomplete: c.SessionsIncomplete, SessionsWithoutUser: c.SessionsWithoutUser, EventsTimeBackwards: c.EventsTimeBackwards, LinesImplausible: c.LinesImplausible,
		SessionsEpochDated: c.SessionsEpochDated, EventsNotReplayed: c.EventsNotReplayed,
		SessionsWithEventsNotReplayed: c.SessionsWithEventsNotReplayed}
	for _, line := range n.Warnings(pipeline.NotesAt) {
		fmt.Fprintf(stderr, "defersim-beam: warning: %s\n", line)
	}
	if c.LinesImplausible > 0 || c.EventsTimeBackwards > 0 || c.SessionsWithoutUser > 0 {
		fmt.Fprintln(stderr, "defersim-beam: warning: the first five of each are located in the log of the job's Write stage (`defersim trace validate` lists them all)")
	}
	runsummary.WarnUnmatched(stderr, "defersim-beam", res.Run.UnmatchedEntries)
	runsummary.WarnUnreplayedEntries(stderr, "defersim-beam", res.Run.UnreplayedEntries)
	runsummary.WarnContextOverflow(stderr, "defersim-beam", res)
	runsummary.WarnUnrecorded(stderr, "defersim-beam", res)
	runsummary.WarnUnreplayed(stderr, "defersim-beam", res)
	runsummary.WarnRecommendedFor(stderr, "defersim-beam", res)
	if n := c.SessionsSkipped; n > 0 {
		if failed != nil {
			fmt.Fprintf(stderr, "defersim-beam: warning: the errors of the sessions that failed to replay cannot be read back here (%v); they are in the log of the job's Write stage\n", failed)
		}
		for _, f := range failures {
			fmt.Fprintln(stderr, "defersim-beam: skipped", f)
		}
		return fmt.Errorf("%s failed to replay and %s skipped (see above); results cover the rest", nouns.Count(n, "session"), nouns.Form(n, "was", "were"))
	}
	return nil
}
