package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestTokenizerOtherThanTheModelsOwnIsAFinding pins that a run under an
// OpenAI preset whose prompt content was counted with another counter
// than the model's own o200k_base (params.tokenizer cl100k_base or
// bytes/N) says so among the findings: the summary line stated the
// tokenizer, but nothing said it was not the model's, though every token
// figure and the cache's 1,024-token minimum and 128-token steps depend on
// it. The model's own counter, a model without a preset and Claude (whose
// tokenizer is unpublished: every counter stands in, docs/presets.md) get
// no finding.
func TestTokenizerOtherThanTheModelsOwnIsAFinding(t *testing.T) {
	for _, tc := range []struct {
		model, tokenizer string
		want             string // "" for no finding
	}{
		{"gpt-4o", "cl100k_base", "Prompt content was counted with cl100k_base (params.tokenizer), not with gpt-4o's own o200k_base"},
		{"gpt-4.1", "bytes/3.5", "counted with bytes/3.5 (params.tokenizer), not with gpt-4.1's own o200k_base"},
		{"gpt-4o", "o200k_base", ""},
		{"openai/gpt-4o-2024-08-06", "o200k_base", ""},
		{"claude-sonnet-4.5", "cl100k_base", ""},
		{"local-llm", "cl100k_base", ""},
	} {
		t.Run(tc.model+" "+tc.tokenizer, func(t *testing.T) {
			res := &Results{}
			res.Run.Model = tc.model
			res.Run.Assumptions = []sim.Assumption{{Name: "tokenizer", Value: tc.tokenizer, Source: "scenario params.tokenizer"}}
			got := strings.Join(Findings(res), "\n")
			if tc.want == "" {
				if strings.Contains(got, "Prompt content was counted with") {
					t.Errorf("a finding for %s under %s:\n%s", tc.tokenizer, tc.model, got)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("findings lack %q:\n%s", tc.want, got)
			}
		})
	}
}
