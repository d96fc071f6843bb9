package sim

import "testing"

// TestSearchToolTokensScaleWithTheTokenizer pins that params.token_scale
// scales the tool_search definition's tokens as it scales every other
// definition: search_tool_tokens is a count of params.tokenizer (the
// default, 87, is o200k_base's count of defersim's definition), not of the
// model's own tokens. A Claude run at token_scale 1.3 counted its schemas
// ×1.3 and its tool_search definition as o200k counted it.
func TestSearchToolTokensScaleWithTheTokenizer(t *testing.T) {
	n := &Need{SessionID: "s1", SystemTokens: 1000, Steps: []Step{user(10), call("y"), reply()}}
	tests := []struct {
		scale  float64
		search int64 // the tool_search definition's tokens in a request
	}{
		{1, 50},
		{1.3, 65},
		{1.01, 51}, // 50.5 rounds away from zero, as a counted item
		{0.5, 25},
	}
	var base Outcome
	for i, tc := range tests {
		p := testParams()
		p.TokenScale = tc.scale
		if got := p.SearchToolCount(); got != tc.search {
			t.Errorf("token_scale %v: SearchToolCount %d, want %d", tc.scale, got, tc.search)
		}
		e := newTestEngine(t, []Strategy{{Name: "defer", Trigger: Trigger{Mode: "always"}}}, []testTool{{"x", 100, 0}, {"y", 200, 0}})
		e.params = p
		out := e.ReplayNeed(n)[0]
		if i == 0 {
			base = out
			continue
		}
		// The content counter is left unscaled here, so only the
		// definition's tokens move: in each of the 3 requests.
		want := base.Values[MInputTokens] + float64(3*(tc.search-50))
		if got := out.Values[MInputTokens]; out.Values[MRequests] != 3 || got != want {
			t.Errorf("token_scale %v: %v input tokens over %v requests, want %v (3 × %d for tool_search)", tc.scale, got, out.Values[MRequests], want, tc.search)
		}
	}
}
