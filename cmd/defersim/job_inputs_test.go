package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobInputsRecordedModel pins issue 15: a trace's recorded model in a
// vendor spelling finds its preset, and one with no preset is a warning
// naming the preset used instead (it silently became Sonnet before).
func TestJobInputsRecordedModel(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		recorded, model, warning string
	}{
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4.5", ""},
		{"gpt-4o-2024-08-06", "gpt-4o", ""},
		{"claude-opus-4-6", "claude-sonnet-4.5", `"claude-opus-4-6", which has no preset: using the claude-sonnet-4.5 preset`},
	}
	for i, tc := range tests {
		trace := filepath.Join(dir, tc.recorded+".jsonl")
		line := `{"v":1,"type":"session_start","session":"s` + string(rune('0'+i)) + `","t":"2026-01-01T00:00:00Z","model":"` + tc.recorded + `"}` + "\n"
		if err := os.WriteFile(trace, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		_, m, _, useRecorded, warning, err := jobInputs("", "", []string{dir}, []string{trace})
		if err != nil {
			t.Fatal(err)
		}
		if m.Name != tc.model || !useRecorded || (tc.warning == "") != (warning == "") || !strings.Contains(warning, tc.warning) {
			t.Errorf("%s: model %s, warning %q", tc.recorded, m.Name, warning)
		}
	}
}
