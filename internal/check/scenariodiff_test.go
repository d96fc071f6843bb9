package check

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestModelDifferenceListedOnce pins that two results replayed under
// different models list the model once among their scenario differences:
// run.model and the "model" assumption state the same name, and the
// incomparable message listed "model: claude-sonnet-4.5 vs gpt-4o" twice
// (and "the same model, …, model" in what to do). An assumption "model"
// that differs from the run's model (a results file edited by hand) is
// still listed.
func TestModelDifferenceListedOnce(t *testing.T) {
	results := func(runModel, assumed string) *report.Results {
		r := &report.Results{}
		r.Run.Model = runModel
		r.Run.Assumptions = []sim.Assumption{{Name: "model", Value: assumed, Source: "scenario model"},
			{Name: "price.input_per_mtok", Value: map[string]string{"gpt-4o": "2.5", "claude-sonnet-4.5": "3"}[runModel], Source: "model pricing"}}
		return r
	}
	for _, tc := range []struct {
		name      string
		base, cur *report.Results
		want      []string
	}{
		{"two models", results("claude-sonnet-4.5", "claude-sonnet-4.5"), results("gpt-4o", "gpt-4o"),
			[]string{"model claude-sonnet-4.5 vs gpt-4o", "price.input_per_mtok 3 vs 2.5"}},
		{"assumption disagrees with the run", results("gpt-4o", "gpt-4o"), results("gpt-4o", "gpt-4.1"),
			[]string{"model gpt-4o vs gpt-4.1"}},
		{"same model", results("gpt-4o", "gpt-4o"), results("gpt-4o", "gpt-4o"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ScenarioDifferences(tc.base, tc.cur); !slices.Equal(got, tc.want) {
				t.Errorf("ScenarioDifferences:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
