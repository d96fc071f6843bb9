package check

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
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
	s := fmt.Sprintf("%d of the %s it read", r.Sessions, nouns.Count(c.SessionsRead, "session"))
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

// shardDesc names the share of the sessions a run replayed: its shard, as
// results.json records it (run.shard), or the whole run.
func shardDesc(r *report.Results) string {
	if sh := r.Run.Shard; sh != nil {
		return fmt.Sprintf("shard %s (%d of the %s it read)", sh, r.Sessions, nouns.Count(r.Run.Counts.SessionsRead, "session"))
	}
	return fmt.Sprintf("the whole run (%d of the %s it read)", r.Sessions, nouns.Count(r.Run.Counts.SessionsRead, "session"))
}

// shardDiff says how the shards of two runs over the same trace files
// differ ("" when they are the same shard, both whole runs, or a file
// replayed a share of its sessions without recording which: a shard
// written by an earlier build, whose counts alone sessionSetDiff judges).
// Shard I/N holds the same sessions in every run of the same traces, so
// different shards, or a shard and a whole run, replayed different
// sessions even when their counts agree.
func shardDiff(base, cur *report.Results) string {
	bs, cs := base.Run.Shard, cur.Run.Shard
	if bs == nil && cs == nil || bs != nil && cs != nil && *bs == *cs {
		return ""
	}
	if bs == nil && partial(base) || cs == nil && partial(cur) {
		return ""
	}
	return fmt.Sprintf("the runs replayed different shares of the same trace files: baseline %s, current %s",
		shardDesc(base), shardDesc(cur))
}

// sessionsDiff says how the sessions two runs over the same trace files
// replayed differ: by their shards, else by their counts ("" when they
// replayed the same sessions as far as the files tell).
func sessionsDiff(base, cur *report.Results) string {
	if d := shardDiff(base, cur); d != "" {
		return d
	}
	return sessionSetDiff(base, cur)
}
