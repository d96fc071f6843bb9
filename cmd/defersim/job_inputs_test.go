package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobInputsRecordedModel pins issue 15: a trace's recorded model in a
// vendor spelling finds its preset, and one with no preset leaves the
// scenario's (it silently became Sonnet before; recommend now notes every
// session of another model: TestRecommendNamesEveryRecordedModel), and
// the preset the model was built from is returned.
func TestJobInputsRecordedModel(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		recorded, model, preset string
	}{
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4.5", "claude-sonnet-4-5-20250929"},
		{"gpt-4o-2024-08-06", "gpt-4o", "gpt-4o-2024-08-06"},
		{"claude-opus-4-6", "claude-sonnet-4.5", "claude-sonnet-4.5"},
	}
	for i, tc := range tests {
		trace := filepath.Join(dir, tc.recorded+".jsonl")
		line := `{"v":1,"type":"session_start","session":"s` + string(rune('0'+i)) + `","t":"2026-01-01T00:00:00Z","model":"` + tc.recorded + `"}` + "\n"
		if err := os.WriteFile(trace, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		in, err := jobInputs(&stderr, "", "", []string{dir}, []string{trace})
		if err != nil {
			t.Fatal(err)
		}
		if m, preset := in.sc.Model, in.sc.ModelPreset; m.Name != tc.model || !in.useRecorded || preset != tc.preset {
			t.Errorf("%s: model %s, preset %q, want %s, %q", tc.recorded, m.Name, preset, tc.model, tc.preset)
		}
		if in.own.Name != "claude-sonnet-4.5" {
			t.Errorf("%s: the scenario's own model %s, want the default's", tc.recorded, in.own.Name)
		}
		if stderr.Len() > 0 {
			t.Errorf("%s: the recorded model noted as a --model:\n%s", tc.recorded, stderr.String())
		}
	}
}
