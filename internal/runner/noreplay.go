package runner

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// noReplayError is a run that replayed nothing: noSessionReplayed's
// words, then the first lines skipped as bad input with their reasons
// (file:line: reason, inputnotes.Locations), as a run that replayed
// something warns.
type noReplayError struct {
	counts *sim.Counts
	first  []traces.Problem
}

func (e *noReplayError) Error() string {
	msg := noSessionReplayed(e.counts)
	for _, l := range inputnotes.Locations(e.counts.LinesSkipped, e.first) {
		msg += "\n  " + l
	}
	return msg
}

// locateSkips gives err, when a run replayed nothing, the first skipped
// lines the readers' counts record.
func locateSkips(err error, counts []traces.Counts) {
	var nr *noReplayError
	if !errors.As(err, &nr) {
		return
	}
	for _, c := range counts {
		nr.first = append(nr.first, c.FirstSkips...)
	}
}

// noSessionReplayed says why a run replayed nothing, with the counts of
// what it read: the sessions, and the lines skipped as bad input
// (--skip-bad) by reason, so that a file of which every line was skipped
// does not read as an empty one.
func noSessionReplayed(c *sim.Counts) string {
	msg := fmt.Sprintf("no session was replayed: %s read (%d failed in the replay)",
		nouns.Count(c.SessionsRead, "session"), c.SessionsSkipped)
	msg += fmt.Sprintf("; %s read", nouns.Count(c.LinesRead, "line"))
	if c.LinesRead == 0 && c.Files > 0 {
		msg += fmt.Sprintf(": the %s %s empty; check that the export that wrote %s finished (`defersim trace validate FILE` says which file is empty)",
			nouns.Count(c.Files, "trace file"), nouns.Form(c.Files, "is", "are"), nouns.Form(c.Files, "it", "them"))
	}
	if c.LinesSkipped > 0 {
		var reasons []string
		for _, k := range slices.Sorted(maps.Keys(c.SkipReasons)) {
			if k != "replay_failed" {
				reasons = append(reasons, fmt.Sprintf("%d %s", c.SkipReasons[k], k))
			}
		}
		msg += fmt.Sprintf(", %d of them skipped as bad input (%s); `defersim trace validate FILE` lists them all with their reasons",
			c.LinesSkipped, strings.Join(reasons, ", "))
	}
	return msg
}
