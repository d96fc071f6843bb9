package presets

import "testing"

// TestPresetNotNamed pins what results.json records of a model's preset
// (sim.RunInfo.ModelPreset): the preset only when the model's name does
// not resolve to it, so that a renamed preset's tokenizer is known from
// the file and a preset called by its name or a spelling of it adds
// nothing; and OwnTokenizerFor, which reads the preset first.
func TestPresetNotNamed(t *testing.T) {
	tests := []struct {
		preset, name string
		want         string // PresetNotNamed
		own          string // OwnTokenizerFor's tokenizer
		ownOK        bool
	}{
		{"claude-sonnet-4.5", "claude-sonnet-4.5", "", "", true},
		{"claude-sonnet-4.5", "anthropic/claude-sonnet-4.5", "", "", true},
		{"claude-sonnet-4.5", "my-sonnet", "claude-sonnet-4.5", "", true},
		{"gpt-4o", "my-gpt", "gpt-4o", "o200k_base", true},
		{"gpt-4o", "claude-sonnet-4.5", "gpt-4o", "o200k_base", true},
		{"", "my-model", "", "", false},
		{"", "gpt-4o", "", "o200k_base", true},
	}
	for _, tc := range tests {
		if got := PresetNotNamed(tc.preset, tc.name); got != tc.want {
			t.Errorf("PresetNotNamed(%q, %q) = %q, want %q", tc.preset, tc.name, got, tc.want)
		}
		if own, ok := OwnTokenizerFor(tc.preset, tc.name); own != tc.own || ok != tc.ownOK {
			t.Errorf("OwnTokenizerFor(%q, %q) = %q, %v, want %q, %v", tc.preset, tc.name, own, ok, tc.own, tc.ownOK)
		}
	}
}
