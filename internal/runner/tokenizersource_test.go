package runner

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestTokenizerSourceSaysStandIn pins that the tokenizer assumption of a
// run under a Claude preset (whose tokenizer Anthropic does not publish)
// says the counter is a stand-in and names params.token_scale, while a
// preset counted with its own tokenizer and a model without a preset
// keep the plain source. A model renamed from a preset is judged by the
// preset it was built from.
func TestTokenizerSourceSaysStandIn(t *testing.T) {
	const plain = "scenario params.tokenizer"
	for _, tc := range []struct {
		model, preset string
		want          string // the source's prefix; plain alone when it must equal it
	}{
		{"claude-sonnet-4.5", "", plain + "; a stand-in: claude-sonnet-4.5's tokenizer is not published (newer Claude models count ~30% more tokens for the same text: sweep params.token_scale to see the effect, or let calibrate fit it to recorded usage)"},
		{"anthropic.claude-haiku-4-5-20251001-v1:0", "", plain + "; a stand-in: claude-haiku-4.5's tokenizer is not published"},
		{"my-claude", "claude-opus-4.5-1h", plain + "; a stand-in: claude-opus-4.5-1h's tokenizer is not published"},
		{"gpt-4o", "", plain},
		{"my-gpt", "gpt-5", plain},
		{"local-llm", "", plain},
	} {
		got := tokenizerSource(sim.Model{Name: tc.model}, tc.preset)
		if tc.want == plain && got != plain || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s (preset %q): source %q, want %q", tc.model, tc.preset, got, tc.want)
		}
	}
}
