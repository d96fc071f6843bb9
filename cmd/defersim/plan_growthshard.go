package main

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/plan"
	"github.com/defersim/defersim/report"
)

// growthShardWarning is the line plan --growth gives results of one shard
// of a run (run.shard, or fewer sessions replayed and skipped than read):
// the growth runs replay every session of the traces (at1, the ×1 point's
// results), so the growth table said "same 350 sessions" under a
// projection of shard 0/2's 175 without a word of the difference.
func growthShardWarning(res, at1 *report.Results) (plan.Line, bool) {
	c := res.Run.Counts
	if at1 == nil || (res.Run.Shard == nil && c.SessionsReplayed+c.SessionsSkipped >= c.SessionsRead) {
		return plan.Line{}, false
	}
	which := "a shard"
	if res.Run.Shard != nil {
		which = "shard " + res.Run.Shard.String()
	}
	return plan.Line{Warning: true, Text: fmt.Sprintf("the growth runs replay every session of the traces, %d, where the results are of %s of a run, %s: "+
		"the growth table is of the whole run, the projection above of the shard; merge the shards (defersim merge) and plan the merged results",
		at1.Sessions, which, nouns.Count(res.Sessions, "session"))}, true
}
