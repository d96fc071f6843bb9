package presets

import "testing"

// TestResolveModel pins the vendor spellings that reach a preset and the
// near misses that must not (issue 15: a trace recorded as
// "claude-sonnet-4-5" did not find claude-sonnet-4.5, and other models
// silently fell back to a Sonnet preset).
func TestResolveModel(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"claude-sonnet-4.5", "claude-sonnet-4.5"},
		{"claude-sonnet-4-5", "claude-sonnet-4.5"},
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4.5"},
		{"Claude-Sonnet-4-5", "claude-sonnet-4.5"},
		{"anthropic/claude-sonnet-4-5", "claude-sonnet-4.5"},
		{"openrouter/anthropic/claude-sonnet-4.5", "claude-sonnet-4.5"},
		{"anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4.5"},
		{"us.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4.5"},
		{"claude-opus-4-5@20251101", "claude-opus-4.5"},
		{"claude-opus-4-5-latest", "claude-opus-4.5"},
		{"claude-sonnet-4-5-1h", "claude-sonnet-4.5-1h"},
		{"gpt-4o-2024-08-06", "gpt-4o"},
		{"openai/gpt-4o", "gpt-4o"},
		{"gpt-4.1-2025-04-14", "gpt-4.1"},
		{"gpt-5-2025-08-07", "gpt-5"},
		{" gpt-5 ", "gpt-5"},
		// Other models, generations and sizes resolve to nothing.
		{"claude-opus-4-6", ""},
		{"claude-3-5-sonnet-20241022", ""},
		{"claude-sonnet-4", ""},
		{"gpt-4o-mini", ""},
		{"gpt-5-mini", ""},
		{"openai/gpt-oss-120b", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, ok := ResolveModel(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ResolveModel(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
		m, err := Model(tt.in)
		if (err == nil) != (tt.want != "") || (err == nil && m.Name != tt.want) {
			t.Errorf("Model(%q) = %q, %v", tt.in, m.Name, err)
		}
	}
	// Every preset resolves to itself.
	for _, n := range ModelNames() {
		if got, ok := ResolveModel(n); !ok || got != n {
			t.Errorf("ResolveModel(%q) = %q, %v", n, got, ok)
		}
	}
}
