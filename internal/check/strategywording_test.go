package check

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestStrategyWordingIsNoChangeOfAssumptions pins that a change of a
// strategy's trigger mode that rewords the source of an assumption no
// strategy reads (context_window: "its trigger "always" does not compare
// tokens …" → "its trigger "count" …"), its value "not read" on both
// sides, is not listed as changed beyond metrics: check printed the two
// sources, several hundred characters, as a change of assumptions beside
// the trigger.mode line that said it. A changed value (not read → 128000,
// a percent trigger) and a changed source of an assumption the strategies
// do not explain (a latency from a preset's defaults → calibrated) are
// still listed.
func TestStrategyWordingIsNoChangeOfAssumptions(t *testing.T) {
	const (
		notRead = "model: no strategy of the run reads it: strategy \"eager\": its trigger \"never\" does not compare tokens with the context window, and nothing else reads it; "
		always  = notRead + "strategy \"ours\": its trigger \"always\" does not compare tokens with the context window, and nothing else reads it"
		count   = notRead + "strategy \"ours\": its trigger \"count\" does not compare tokens with the context window, and nothing else reads it"
	)
	results := func(as ...sim.Assumption) *report.Results {
		r := &report.Results{}
		r.Run.Assumptions = as
		return r
	}
	cw := func(value, source string) sim.Assumption {
		return sim.Assumption{Name: "context_window", Value: value, Source: source}
	}
	lat := func(source string) sim.Assumption {
		return sim.Assumption{Name: "latency.overhead_ms", Value: "400", Source: source}
	}
	for _, tc := range []struct {
		name      string
		base, cur *report.Results
		want      []string
	}{
		{"trigger mode reworded, value not read on both sides",
			results(cw("not read", always), lat("model preset gpt-4o's defaults")),
			results(cw("not read", count), lat("model preset gpt-4o's defaults")), nil},
		{"the value changes: now read",
			results(cw("not read", always)), results(cw("128000", "scenario model")),
			[]string{"run.assumptions[context_window].source: " + always + " → scenario model",
				"run.assumptions[context_window].value: not read → 128000"}},
		{"the source of another assumption changes",
			results(cw("not read", always), lat("model preset gpt-4o's defaults")),
			results(cw("not read", count), lat("scenario (calibrated)")),
			[]string{"run.assumptions[latency.overhead_ms].source: model preset gpt-4o's defaults → scenario (calibrated)"}},
		{"an assumption only in current",
			results(lat("model preset gpt-4o's defaults")), results(lat("model preset gpt-4o's defaults"), cw("not read", count)),
			[]string{`run.assumptions[context_window]: only in current`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := structuralDiff(tc.base, tc.cur); !slices.Equal(got, tc.want) {
				t.Errorf("structuralDiff:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
