package runner

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// noSessionReplayed says why a run replayed nothing, with the counts of
// what it read: the sessions, and the lines skipped as bad input
// (--skip-bad) by reason, so that a file of which every line was skipped
// does not read as an empty one.
func noSessionReplayed(c *sim.Counts) string {
	msg := fmt.Sprintf("no session was replayed: %s read (%d failed in the replay)",
		nouns.Count(c.SessionsRead, "session"), c.SessionsSkipped)
	msg += fmt.Sprintf("; %s read", nouns.Count(c.LinesRead, "line"))
	if c.LinesSkipped > 0 {
		var reasons []string
		for _, k := range slices.Sorted(maps.Keys(c.SkipReasons)) {
			if k != "replay_failed" {
				reasons = append(reasons, fmt.Sprintf("%d %s", c.SkipReasons[k], k))
			}
		}
		msg += fmt.Sprintf(", %d of them skipped as bad input (%s); `defersim trace validate FILE` lists them with their reasons",
			c.LinesSkipped, strings.Join(reasons, ", "))
	}
	return msg
}
