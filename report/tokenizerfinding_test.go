package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestTokenizerOtherThanTheModelsOwnIsAFinding pins that a run under an
// OpenAI preset whose prompt content was counted with another counter
// than the model's own o200k_base (params.tokenizer cl100k_base or
// bytes/N) says so among the findings: the summary line stated the
// tokenizer, but nothing said it was not the model's, though every token
// figure and the cache's 1,024-token minimum and 128-token steps depend on
// it. The model's own counter and a model without a preset get no finding.
// A Claude preset (whose tokenizer is unpublished: every counter stands
// in, docs/presets.md) gets the stand-in finding, with the factor when the
// results state params.token_scale, and so does a model renamed from a
// Claude preset.
func TestTokenizerOtherThanTheModelsOwnIsAFinding(t *testing.T) {
	for _, tc := range []struct {
		model, tokenizer string
		preset, scale    string // ModelPreset, the token_scale assumption ("": none)
		want             string // "" for no finding
	}{
		{"gpt-4o", "cl100k_base", "", "", "Prompt content was counted with cl100k_base (params.tokenizer), not with gpt-4o's own o200k_base"},
		{"gpt-4.1", "bytes/3.5", "", "", "counted with bytes/3.5 (params.tokenizer), not with gpt-4.1's own o200k_base"},
		{"gpt-4o", "o200k_base", "", "1", ""},
		{"openai/gpt-4o-2024-08-06", "o200k_base", "", "", ""},
		{"claude-sonnet-4.5", "o200k_base", "", "1",
			"Prompt content was counted with o200k_base (params.tokenizer) × 1 (params.token_scale), a stand-in: claude-sonnet-4.5's tokenizer is not published"},
		{"claude-opus-4-5-20251101", "cl100k_base", "", "1.3", "counted with cl100k_base (params.tokenizer) × 1.3 (params.token_scale), a stand-in: claude-opus-4.5's tokenizer"},
		{"claude-haiku-4.5", "o200k_base", "", "", "counted with o200k_base (params.tokenizer), a stand-in: claude-haiku-4.5's"},
		{"my-claude", "o200k_base", "claude-sonnet-4.5", "1", "sweep params.token_scale to see the effect"},
		{"local-llm", "cl100k_base", "", "1", ""},
		// Renamed from gpt-4o: its preset's own tokenizer, no stand-in.
		{"claude-sonnet-4.5", "o200k_base", "gpt-4o", "1", ""},
	} {
		t.Run(tc.model+" "+tc.tokenizer, func(t *testing.T) {
			res := &Results{}
			res.Run.Model, res.Run.ModelPreset = tc.model, tc.preset
			res.Run.Assumptions = []sim.Assumption{{Name: "tokenizer", Value: tc.tokenizer, Source: "scenario params.tokenizer"}}
			if tc.scale != "" {
				res.Run.Assumptions = append(res.Run.Assumptions, sim.Assumption{Name: "token_scale", Value: tc.scale, Source: "params"})
			}
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

// TestRunLineSaysTokenizerIsAStandIn pins that the run line of report.md,
// report.html and the terminal summary, and every plot's caption, say when
// the model's tokenizer is a stand-in, with params.token_scale, in the
// words the tokenizer assumption of results.json gives
// (presets.TokenizerStandIn): they said "tokenizer o200k_base" alone, as
// if a Claude run's counts were Claude's.
func TestRunLineSaysTokenizerIsAStandIn(t *testing.T) {
	for _, tc := range []struct {
		name          string
		model, preset string
		scale         string // the token_scale assumption ("": none)
		want          string // after "tokenizer "
	}{
		{"claude preset", "claude-sonnet-4.5", "", "1", "o200k_base × 1 (a stand-in: claude-sonnet-4.5's tokenizer is not published)"},
		{"claude, scaled", "claude-opus-4-5-20251101", "", "1.3", "o200k_base × 1.3 (a stand-in: claude-opus-4.5's tokenizer is not published)"},
		{"renamed claude preset", "my-claude", "claude-haiku-4.5", "1", "o200k_base × 1 (a stand-in: claude-haiku-4.5's tokenizer is not published)"},
		{"results without token_scale", "claude-sonnet-4.5", "", "", "o200k_base × 1 (a stand-in: claude-sonnet-4.5's tokenizer is not published)"},
		{"the model's own tokenizer", "gpt-4o", "", "1", "o200k_base"},
		{"own tokenizer, scaled", "gpt-4o", "", "1.1", "o200k_base × 1.1"},
		{"no preset", "local-llm", "", "1", "o200k_base"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &Results{}
			res.Run.Model, res.Run.ModelPreset, res.Run.Tokenizer = tc.model, tc.preset, "o200k_base"
			if tc.scale != "" {
				res.Run.Assumptions = []sim.Assumption{{Name: "token_scale", Value: tc.scale, Source: "params"}}
			}
			want := "tokenizer " + tc.want
			line, caption := runLine(res), subtitle(res)
			if !strings.HasSuffix(line, "; "+want) { // no cache model: the tokenizer ends the line
				t.Errorf("run line %q, want %q", line, want)
			}
			if !strings.Contains(caption, " · "+want+" · ") {
				t.Errorf("caption %q, want %q", caption, want)
			}
			name := tc.preset
			if name == "" {
				name = tc.model
			}
			_, note, stand := strings.Cut(tc.want, "(")
			if full := presets.TokenizerStandIn(name); stand != (full != "") || stand && !strings.HasPrefix(full, strings.TrimSuffix(note, ")")) {
				t.Errorf("%q is not the start of the tokenizer assumption's %q", note, full)
			}
		})
	}
}
