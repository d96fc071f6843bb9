package scenarios

import (
	"strings"
	"testing"
)

// TestInlineStrategyMissingPartSaysBase pins that a strategy written with
// a name and some parts but neither preset: nor base: is told that such a
// strategy defines every part itself, and how to start from a preset: it
// got only "strategies[1].trigger.mode: missing (want never|always|…)".
// A strategy with a base never gets the hint.
func TestInlineStrategyMissingPartSaysBase(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		hint       bool
	}{
		{"inline without trigger", "strategies:\n  - eager\n  - name: mine\n    warm: {max_tools: 4}\n", true},
		{"based on a preset, bad trigger mode", "strategies:\n  - eager\n  - name: mine\n    base: claude-code-default\n    trigger: {mode: sometimes}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse(t, tc.yaml)
			if err == nil {
				t.Fatal("parsed, want an error")
			}
			if got := strings.Contains(err.Error(), "add base: PRESET"); got != tc.hint {
				t.Errorf("hint %v, want %v: %v", got, tc.hint, err)
			}
			if tc.hint && !strings.Contains(err.Error(), "scen.yaml:3: strategies[1].trigger.mode: missing") {
				t.Errorf("lost the field and line: %v", err)
			}
		})
	}
}
