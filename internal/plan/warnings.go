package plan

import (
	"fmt"

	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
)

// resultsWarnings says what in res makes its per-session means a doubtful
// basis for a fleet's: calls the run replayed although more of them than
// its limit did not resolve against the catalogs (--allow-unresolved),
// sessions that failed to replay, sessions without a user message (whose
// first reply is not one), sessions whose pauses are not recorded times
// (timingWarnings), sessions recorded with another model
// than the run's (priced as the run's), a shard's share of the sessions
// read.
// Nil for the results of a clean, whole run.
func resultsWarnings(res *report.Results) []string {
	var out []string
	c := res.Run.Counts
	if w := report.UnresolvedPastLimit(res); w != "" {
		out = append(out, w+", so the projection does not count what they cost")
	}
	if c.SessionsSkipped > 0 {
		out = append(out, fmt.Sprintf("%d of the %s read failed to replay and %s skipped: the projection is of the others",
			c.SessionsSkipped, nouns.Count(c.SessionsRead, "session"), nouns.Form(c.SessionsSkipped, "was", "were")))
	}
	if n := c.SessionsWithoutUser; n > 0 {
		out = append(out, inputnotes.NoUserText(n, c.SessionsRead)+"; the projection's first reply carries them")
	}
	out = append(out, timingWarnings(res)...)
	if other, total, list := report.OtherModels(res.Run.RecordedModels, res.Run.OtherModels); other > 0 {
		out = append(out, fmt.Sprintf("%d of %s %s recorded with another model than the run's (%s); the projection prices and times them as %s, the run's model, not as recorded",
			other, nouns.Count(total, "session"), nouns.Form(other, "was", "were"), list, res.Run.Model))
	} else if none := report.WithoutModel(res.Run.RecordedModels); none > 0 {
		out = append(out, fmt.Sprintf("%d of %s %s no model; the projection prices and times them as %s, the run's model, which they do not name",
			none, nouns.Count(total, "session"), nouns.Form(none, "records", "record"), res.Run.Model))
	}
	switch sh := res.Run.Shard; {
	case sh != nil:
		// results.json names the shard (run.shard).
		out = append(out, fmt.Sprintf("the results are of shard %s of a run (run --shard): %d of the %s read; merge the shards (defersim merge) to project the whole run",
			sh, c.SessionsReplayed, nouns.Count(c.SessionsRead, "session")))
	case c.SessionsReplayed+c.SessionsSkipped < c.SessionsRead:
		// Results of a build that did not record run.shard.
		out = append(out, fmt.Sprintf("the results are of a shard: %d of the %s read (run --shard); merge the shards (defersim merge) to project the whole run",
			c.SessionsReplayed, nouns.Count(c.SessionsRead, "session")))
	}
	return out
}
