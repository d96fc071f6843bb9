package pipeline

import (
	"strings"
	"testing"
)

// TestSpecModelIsRunsModelFlag pins that defersim-beam takes run's
// --model: `defersim run --model NAME` was added and defersim-beam had no
// such flag, so a job moved from run could not price its sessions as the
// run did. The spec's model replaces the scenario's as run's flag does,
// and an unknown name is refused with run's hint.
func TestSpecModelIsRunsModelFlag(t *testing.T) {
	for _, tc := range []struct {
		model, want, err string
	}{
		{"", "claude-sonnet-4.5", ""},
		{"gpt-4o", "gpt-4o", ""},
		{"gpt4o", "", `did you mean "gpt-4o"?`},
	} {
		cfg, err := Spec{Model: tc.model, Out: t.TempDir()}.Config()
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("--model %q: error %v, want one containing %q", tc.model, err, tc.err)
			}
		case err != nil:
			t.Errorf("--model %q: %v", tc.model, err)
		case cfg.Model.Name != tc.want:
			t.Errorf("--model %q: the run's model is %q, want %q", tc.model, cfg.Model.Name, tc.want)
		}
	}
}
