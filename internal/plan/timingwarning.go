package plan

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
)

// timingWarnings say which sessions' pauses are not recorded times: a
// synthetic session's are params.user_think_ms (report.TimingNote), and a
// partial session's are 0 where an event carried the previous event's
// time over. The projection's session p50 carries both; nil when every
// session was read with its own times.
func timingWarnings(res *report.Results) []string {
	var out []string
	if n := report.TimingNote(res); n != "" {
		out = append(out, n+"; the session p50 below is of all sessions")
	}
	c := res.Run.Counts
	if n := c.SessionsByTiming.Partial; n > 0 {
		out = append(out, fmt.Sprintf("%d of %s read %s some events' times carried over from the event before (session_start meta timing=partial): "+
			"the replay read their times as recorded, so where a time was carried over the pause before the event is 0 ms, not a recorded pause nor params.user_think_ms, "+
			"and their session_ms, and through cache expiry their cache reads and writes, cost_usd and cache_hit_ratio, rest on the times that were filled in; the session p50 below is of all sessions",
			n, nouns.Count(c.SessionsRead, "session"), nouns.Form(n, "has", "have")))
	}
	return out
}
