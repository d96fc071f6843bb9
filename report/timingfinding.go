package report

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
)

// TimingNote says how many of the sessions read record no times (session_start
// meta timing=synthetic, as importers mark sources without timestamps):
// the replay paused params.user_think_ms before each of their user
// messages after the first, so the metrics that depend on pauses rest on
// that parameter for them. "" when no session is synthetic, and for
// results of earlier builds (which did not count sessions by timing).
func TimingNote(res *Results) string {
	c := res.Run.Counts
	t := c.SessionsByTiming
	if t.Synthetic <= 0 {
		return ""
	}
	think := "params.user_think_ms"
	for _, a := range res.Run.Assumptions {
		if a.Name == "user_think_ms" {
			think += " (" + a.Value + " ms)"
		}
	}
	s := fmt.Sprintf("%s of %s %s read record no times (session_start meta timing=synthetic): the replay took %s as the pause before each of their user messages after the first, not a recorded pause, so their session_ms, and through cache expiry their cache reads and writes, cost_usd and cache_hit_ratio, rest on that parameter",
		fmtInt(float64(t.Synthetic)), fmtInt(float64(c.SessionsRead)), nouns.Form(c.SessionsRead, "session", "sessions"), think)
	if rest := c.SessionsRead - t.Synthetic; rest > 0 {
		s += fmt.Sprintf(", mixed into the figures with the %s %s whose pauses were read from their times", fmtInt(float64(rest)), nouns.Form(rest, "session", "sessions"))
	}
	return s
}

// timingFindings are the findings on the sessions' times: TimingNote,
// and sessions whose meta timing names no known value.
func timingFindings(res *Results) []string {
	var out []string
	if n := TimingNote(res); n != "" {
		out = append(out, n+".")
	}
	t := res.Run.Counts.SessionsByTiming
	out = nOf(out, t.Other, res.Run.Counts.SessionsRead, "session", agree("has", "have"), "%s of %s read %s a session_start meta timing other than recorded, partial or synthetic: the replay read their times as recorded.")
	return out
}
