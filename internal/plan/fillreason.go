package plan

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// Fills counts, over a point's replay, what the traces record and what a
// fill-in parameter stood in for (sim.RunState): the user messages after
// each session's first and those with no recorded pause, which took
// params.user_think_ms; the tool calls and those with no recorded
// duration, which took params.default_tool_ms.
type Fills struct {
	UserPauses, UserPausesFromParams int64
	ToolCalls, UntimedToolCalls      int64
}

// fillsOf reads a run state's counts.
func fillsOf(st *sim.RunState) Fills {
	return Fills{UserPauses: st.UserPauses, UserPausesFromParams: st.UserPausesFromParams,
		ToolCalls: st.ToolCalls, UntimedToolCalls: st.UntimedToolCalls}
}

// fillParam is a parameter that stands in only for what a trace does not
// record: what it fills, counted in Fills.
type fillParam struct {
	key string // sweep path
	// count returns how many things the parameter could fill and how many
	// it did.
	count func(Fills) (all, filled int64)
	// recorded says that the trace records all n things it could fill.
	recorded func(n int64) string
	// none says why it changes nothing when there is nothing to fill.
	none string
}

// fillParams are the sweepable keys read only where the traces lack a
// value.
var fillParams = []fillParam{
	{"params.user_think_ms", func(f Fills) (int64, int64) { return f.UserPauses, f.UserPausesFromParams },
		func(n int64) string {
			return fmt.Sprintf("%s after the first %s recorded in the trace", allOf(n, "user pause"), nouns.Form(n, "is", "are"))
		}, "no replayed session has a user message after its first, so there is no pause for it to fill"},
	{"params.default_tool_ms", func(f Fills) (int64, int64) { return f.ToolCalls, f.UntimedToolCalls },
		func(n int64) string {
			return fmt.Sprintf("%s %s duration recorded in the trace", allOf(n, "tool call"), nouns.Form(n, "has its", "have their"))
		}, "the replayed sessions make no tool call, so there is no call time for it to fill"},
}

// fillReason says why a sweep of a key that only fills in what the traces
// do not record changed nothing: the traces recorded every value it would
// have filled at every point. "" for any other key, or when some point
// took a value from it.
func fillReason(param string, points []Point) string {
	var fp *fillParam
	for i := range fillParams {
		if fillParams[i].key == param {
			fp = &fillParams[i]
		}
	}
	if fp == nil || len(points) == 0 {
		return ""
	}
	all, _ := fp.count(points[0].Fills)
	for _, p := range points {
		if a, filled := fp.count(p.Fills); filled != 0 || a != all {
			return ""
		}
	}
	name := param[len("params."):]
	if all == 0 {
		return name + " changes nothing: " + fp.none
	}
	return fmt.Sprintf("%s changes nothing: %s (it fills only what the trace does not record)", name, fp.recorded(all))
}

// allOf is "the 1 user pause" or "all 12 user pauses".
func allOf(n int64, noun string) string {
	if n == 1 {
		return "the 1 " + noun
	}
	return "all " + nouns.Count(n, noun)
}
