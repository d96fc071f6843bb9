package report

import "fmt"

// ShardText says, for the results of a shard (run --shard I/N, N > 1),
// which shard they are ("I/N of the run …", after a "Shard:" label) and what share of the sessions read they hold,
// and that the whole run is the shards merged: the summary, report.md and
// report.html show it, so a shard's numbers are not taken for the run's.
// "" for a whole run, merged shards, and results of earlier builds.
func ShardText(res *Results) string {
	sh := res.Run.Shard
	if sh == nil {
		return ""
	}
	c := res.Run.Counts
	return fmt.Sprintf("%s of the run (run --shard: the sessions split by a hash of their id): %s of the %s sessions read; merge the shards (defersim merge) for the whole run",
		sh, fmtInt(float64(c.SessionsReplayed+c.SessionsSkipped)), fmtInt(float64(c.SessionsRead)))
}
