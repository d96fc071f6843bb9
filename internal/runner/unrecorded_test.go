package runner

import (
	"context"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces/gen"
)

// TestUnrecordedContentCountedAndMerged pins that a run over sessions
// whose tool calls record neither arguments (args_unrecorded) nor
// results (result_unrecorded), as an OpenTelemetry export without content
// capture writes them, validates none of their stale-warm calls (calls_unchecked equals
// stale_warm_calls; no validation class counts one: they were validated
// as {} before) and counts every call that ran in calls_result_unrecorded,
// and that shards merged and a resumed run give results byte-identical
// to the single run's.
func TestUnrecordedContentCountedAndMerged(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions several times")
	}
	p := gen.Defaults()
	p.Sessions, p.Drift.MidSession = 30, 1 // every session upgraded mid-way: stale-warm calls
	cfg := genConfig(t, []string{"eager", "claude-code-default", "codex-cli-warm-name"}, p)
	cfg.Bootstrap = 50
	calls := 0
	editTrace(t, &cfg, func(ev map[string]any, _ int) []map[string]any {
		if ev["type"] == "tool_call" {
			calls++
			delete(ev, "args")
			delete(ev, "result")
			delete(ev, "result_tokens")
			delete(ev, "result_bytes")
			ev["args_unrecorded"] = true
			ev["result_unrecorded"] = true
		}
		return []map[string]any{ev}
	})
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum := func(s int, m int) float64 { return out.Results.Strategies[s].Metrics[sim.Metrics[m].Name].Sum }
	stale := 0.0
	for i, s := range out.Results.Strategies {
		stale += sum(i, sim.MStaleWarmCalls)
		if got, want := sum(i, sim.MCallsUnchecked), sum(i, sim.MStaleWarmCalls); got != want {
			t.Errorf("%s: calls_unchecked %v, want stale_warm_calls %v", s.Name, got, want)
		}
		for _, m := range []int{sim.MStaleValidCalls, sim.MIgnoredArguments, sim.MMalformedMissingRequired, sim.MMalformedUnknownProperty,
			sim.MMalformedType, sim.MMalformedEnum, sim.MMalformedOther} {
			if v := sum(i, m); v != 0 {
				t.Errorf("%s: %s = %v, want 0 (no call had arguments to check)", s.Name, sim.Metrics[m].Name, v)
			}
		}
		if got, want := sum(i, sim.MCallsResultUnrecorded), float64(calls)-sum(i, sim.MDeniedCalls); got != want {
			t.Errorf("%s: calls_result_unrecorded %v, want every call that ran, %v", s.Name, got, want)
		}
	}
	if stale == 0 {
		t.Fatal("no strategy made a stale-warm call: the test checks nothing")
	}
	checkSplitRuns(t, cfg, resultsBytes(t, out), splitRuns{shards: 3, stopAfter: 10, checkpointEvery: 5})
}
