package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestRecommendedForFindingByNameSaysSo pins that results of an earlier
// build, which record recommended_for's model but not how the run
// compared its model with it (no run_model), are compared by name with a
// visible note, also when the names match: before, a match was silent
// and a renamed preset read as another model without a word on why.
// Results recording run_model say what the run said, with no such note.
func TestRecommendedForFindingByNameSaysSo(t *testing.T) {
	const note = "do not record how the run compared its model with it (strategy.a.recommended_for.run_model): only the names were compared here"
	tests := []struct {
		name, model string
		assumptions []sim.Assumption
		want        string // a prefix of the finding; "": none
		noted       bool
	}{
		{"earlier build, same name", "claude-sonnet-4.5", []sim.Assumption{{Name: "strategy.a.recommended_for.model", Value: "claude-sonnet-4.5"}},
			"Strategy a was recommended for model claude-sonnet-4.5 (its recommended_for) and this run replays it with model claude-sonnet-4.5, the same model by name.", true},
		{"earlier build, a spelling", "anthropic/claude-sonnet-4.5", []sim.Assumption{{Name: "strategy.a.recommended_for.model", Value: "claude-sonnet-4.5"}},
			"Strategy a was recommended for model claude-sonnet-4.5 (its recommended_for) and this run replays it with model anthropic/claude-sonnet-4.5, the same model by name.", true},
		{"earlier build, another name", "my-sonnet", []sim.Assumption{{Name: "strategy.a.recommended_for.model", Value: "claude-sonnet-4.5"}},
			"Strategy a was recommended for model claude-sonnet-4.5 (its recommended_for) and this run replays it with model my-sonnet:", true},
		{"recorded: the same model", "my-sonnet", []sim.Assumption{{Name: "strategy.a.recommended_for.model", Value: "claude-sonnet-4.5"},
			{Name: "strategy.a.recommended_for.model_values", Value: "0123456789ab"}, {Name: "strategy.a.recommended_for.run_model", Value: RecommendedForSameModel}}, "", false},
		{"recorded: another model", "gpt-4o", []sim.Assumption{{Name: "strategy.a.recommended_for.model", Value: "claude-sonnet-4.5"},
			{Name: "strategy.a.recommended_for.model_values", Value: "0123456789ab"}, {Name: "strategy.a.recommended_for.run_model", Value: "model gpt-4o"}},
			"Strategy a was recommended for model claude-sonnet-4.5 (its recommended_for) and this run replays it with model gpt-4o:", false},
		{"no recommended_for", "gpt-4o", nil, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := &Results{Run: sim.RunInfo{Model: tc.model, Tokenizer: "o200k_base", Assumptions: tc.assumptions},
				Strategies: []StrategyResult{{Name: "eager"}, {Name: "a"}}}
			got := RecommendedForFindings(res)
			if tc.want == "" {
				if len(got) != 0 {
					t.Errorf("findings %q, want none", got)
				}
				return
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
				t.Fatalf("findings %q, want one starting %q", got, tc.want)
			}
			if strings.Contains(got[0], note) != tc.noted {
				t.Errorf("finding %q says it compared names only: %v, want %v", got[0], !tc.noted, tc.noted)
			}
			if tc.noted && strings.Contains(got[0], "a snippet of an earlier defersim") {
				t.Errorf("finding %q blames the snippet for what the results do not record", got[0])
			}
		})
	}
}
