package check

import (
	"fmt"

	"github.com/defersim/defersim/report"
)

// partial is true when a run replayed fewer of the sessions it read than
// it did not skip: a shard (`run --shard`) or a selection of them. Its
// results are those of that share only.
func partial(r *report.Results) bool {
	c := r.Run.Counts
	return c.SessionsReplayed+c.SessionsSkipped < c.SessionsRead
}

// sessionsDesc says which sessions a run replayed, as its counts show.
func sessionsDesc(r *report.Results) string {
	c := r.Run.Counts
	s := fmt.Sprintf("%d of the %d sessions it read", r.Sessions, c.SessionsRead)
	if c.SessionsSkipped > 0 {
		s += fmt.Sprintf(" (%d skipped)", c.SessionsSkipped)
	}
	if partial(r) {
		s += " (a shard's share)"
	}
	return s
}

// sessionSetDiff says how the session sets of two runs over the same trace
// files differ ("" when their counts agree). Same traces and seed make the
// comparison paired only if both runs replayed the same sessions: a
// shard's results against the whole run's (or another shard's, or a run
// that skipped sessions) compare different samples.
func sessionSetDiff(base, cur *report.Results) string {
	b, c := base.Run.Counts, cur.Run.Counts
	if base.Sessions == cur.Sessions && b.SessionsRead == c.SessionsRead && b.SessionsSkipped == c.SessionsSkipped &&
		partial(base) == partial(cur) {
		return ""
	}
	return fmt.Sprintf("the runs replayed different sessions of the same trace files: baseline %s, current %s",
		sessionsDesc(base), sessionsDesc(cur))
}
