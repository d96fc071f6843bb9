package main

import (
	"fmt"
	"io"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/plan"
)

// skippedAtPoints lists, as run lists a run's (skippedSessions), the
// sessions the points of a sweep or growth series failed to replay: each
// once, with each reason and the points that gave it ("at every value"
// when all did; every names a point: "value", "size"), and makes them
// the command's exit status 1. The points' results cover the other
// sessions.
func skippedAtPoints(stderr io.Writer, every string, points []plan.Point) error {
	lines, count := skippedLines(every, points, " (see above)")
	if count == "" {
		return nil
	}
	for _, l := range lines {
		fmt.Fprintf(stderr, "defersim: %s\n", l)
	}
	return exitError{code: 1, msg: count}
}

// writeSkippedMarkdown writes, as warnings of the Markdown output of
// sweep and plan --growth, the lines skippedAtPoints gives on stderr;
// nothing when no point skipped a session.
func writeSkippedMarkdown(w io.Writer, every string, points []plan.Point) {
	lines, count := skippedLines(every, points, "")
	if count == "" {
		return
	}
	for _, l := range append(lines, count) {
		fmt.Fprint(w, plan.Line{Warning: true, Text: l}.Markdown())
	}
}

// skippedLines are the sessions the points failed to replay, one line
// each ("skipped session ID: reason (at every value)"), and their count
// ("1 session failed to replay and was skipped; each value's results
// cover the rest", see after "skipped": " (see above)" on stderr); ""
// when none was skipped.
func skippedLines(every string, points []plan.Point, see string) (lines []string, count string) {
	groups := plan.SkippedSessions(points)
	unlisted := plan.SkippedUnlisted(points)
	if len(groups) == 0 && unlisted == 0 {
		return nil, ""
	}
	for _, g := range groups {
		lines = append(lines, "skipped "+g.Line(every))
	}
	n := len(groups)
	count = fmt.Sprintf("%s failed to replay and %s skipped%s; each %s's results cover the rest",
		nouns.Count(n, "session"), nouns.Form(n, "was", "were"), see, every)
	if unlisted > 0 {
		count += fmt.Sprintf("; up to %s more failed unlisted (a replay lists its first 1000 failures)", nouns.Count(int(unlisted), "session"))
	}
	return lines, count
}
