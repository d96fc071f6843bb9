package plan

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
)

// Pauses counts a point's user pauses: the replayed sessions' user
// messages after the first (All), and those of them with no recorded pause
// before them, which took params.user_think_ms (FromParams;
// sim.RunState.UserPauses, UserPausesFromParams).
type Pauses struct {
	All, FromParams int64
}

// fillReason says why a sweep of a key that only fills in what the traces
// do not record changed nothing: the traces recorded every value it would
// have filled at every point. "" for any other key, or when some point
// took a value from it.
func fillReason(param string, points []Point) string {
	if param != "params.user_think_ms" || len(points) == 0 {
		return ""
	}
	all := points[0].Pauses.All
	for _, p := range points {
		if p.Pauses.FromParams != 0 || p.Pauses.All != all {
			return ""
		}
	}
	if all == 0 {
		return "user_think_ms changes nothing: no replayed session has a user message after its first, so there is no pause for it to fill"
	}
	return fmt.Sprintf("user_think_ms changes nothing: %s after the first %s recorded in the trace (it fills only a pause the trace does not record)",
		allOf(all, "user pause"), nouns.Form(all, "is", "are"))
}

// allOf is "the 1 user pause" or "all 12 user pauses".
func allOf(n int64, noun string) string {
	if n == 1 {
		return "the 1 " + noun
	}
	return "all " + nouns.Count(n, noun)
}
