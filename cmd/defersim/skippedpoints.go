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
	groups := plan.SkippedSessions(points)
	unlisted := plan.SkippedUnlisted(points)
	if len(groups) == 0 && unlisted == 0 {
		return nil
	}
	for _, g := range groups {
		fmt.Fprintf(stderr, "defersim: skipped %s\n", g.Line(every))
	}
	n := len(groups)
	msg := fmt.Sprintf("%s failed to replay and %s skipped (see above); each %s's results cover the rest",
		nouns.Count(n, "session"), nouns.Form(n, "was", "were"), every)
	if unlisted > 0 {
		msg += fmt.Sprintf("; up to %s more failed unlisted (a replay lists its first 1000 failures)", nouns.Count(int(unlisted), "session"))
	}
	return exitError{code: 1, msg: msg}
}
