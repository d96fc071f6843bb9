package scenarios

import (
	"testing"

	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/tokens"
)

// TestSearchToolTokensFollowTheTokenizer pins that a scenario naming a
// tokenizer counts the tool_search definition with it: the default
// search_tool_tokens, its o200k_base count (87), was kept under
// cl100k_base and bytes/N, mixing one tokenizer's count into a replay
// counting every other definition with another. A value the file writes
// is kept.
func TestSearchToolTokensFollowTheTokenizer(t *testing.T) {
	def := presets.SearchToolDefinition()
	count := func(name string) int64 {
		c, err := tokens.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		return c.Count(def)
	}
	const head = "strategies: [eager]\nparams:\n"
	for _, tc := range []struct {
		name, params string
		want         int64
	}{
		{"default tokenizer", "  token_scale: 1\n", presets.DefaultParams().SearchToolTokens},
		{"o200k_base written", "  tokenizer: o200k_base\n", presets.DefaultParams().SearchToolTokens},
		{"cl100k_base", "  tokenizer: cl100k_base\n", count("cl100k_base")},
		{"bytes/3.5", "  tokenizer: bytes/3.5\n", count("bytes/3.5")},
		{"bytes/3.5 with a written count", "  tokenizer: bytes/3.5\n  search_tool_tokens: 50\n", 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, head+tc.params)
			if got := s.Params.SearchToolTokens; got != tc.want {
				t.Errorf("search_tool_tokens = %d, want %d", got, tc.want)
			}
		})
	}
	// The test would pass vacuously if the tokenizers agreed.
	if count("bytes/3.5") == presets.DefaultParams().SearchToolTokens {
		t.Fatal("bytes/3.5 counts the definition as o200k_base does: pick another tokenizer")
	}
}
