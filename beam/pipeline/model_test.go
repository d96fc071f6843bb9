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

// TestSpecNotesModelReplaced pins that defersim-beam notes, in run's words
// (`defersim run --model` on the same file: TestRunModelIsTheScenarioModelKey),
// that the spec's model replaces the model the scenario file writes, and
// only then: it printed no note, so a job moved from run lost it.
func TestSpecNotesModelReplaced(t *testing.T) {
	const rest = "strategies: [eager]\n"
	for _, tc := range []struct {
		name, file, model, want string // file "": the embedded default; want "": no note
	}{
		{"another preset", "model: claude-opus-4.5\n" + rest, "gpt-4.1", "--model gpt-4.1 replaces the scenario's model, claude-opus-4.5 (s.yaml:1: model)"},
		{"an inline model", "model: {preset: gpt-4o, context_window: 64000}\n" + rest, "gpt-4o", "--model gpt-4o replaces the scenario's model, gpt-4o with values of its own (s.yaml:1: model)"},
		{"the same preset otherwise spelt", "model: gpt-4o\n" + rest, "gpt-4o-2024-08-06", ""},
		{"no model in the file", rest, "gpt-4o", ""},
		{"no --model", "model: claude-opus-4.5\n" + rest, "", ""},
		{"the embedded default", "", "gpt-4o", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := Spec{Model: tc.model, Out: t.TempDir()}
			if tc.file != "" {
				spec.Scenario, spec.ScenarioYAML = "s.yaml", []byte(tc.file)
			}
			notes, err := spec.Notes()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range notes {
				if strings.Contains(n, "--model") {
					got = append(got, n)
				}
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("notes %q, want none on --model", got)
			case tc.want != "" && (len(got) != 1 || got[0] != tc.want):
				t.Errorf("notes %q, want %q", got, tc.want)
			}
		})
	}
}
