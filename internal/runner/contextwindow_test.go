package runner

import (
	"strings"
	"testing"
)

// TestContextWindowStatedUnderEveryStrategy pins that run.assumptions
// states context_window with the value in force, and a source saying what
// reads it (every strategy's count of requests over it, and a percent
// trigger), whatever the run's strategies: a run without a percent
// trigger stated it "not read … nothing else reads it", although its
// strategies[].context_overflow was counted against it. The source does
// not depend on the strategies (a trigger-mode change would reword it),
// and a scenario's own window (a 1M-token long-context option) is the one
// stated.
func TestContextWindowStatedUnderEveryStrategy(t *testing.T) {
	const head = "name: a\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"eager", "strategies: [eager]\n", "200000"},
		{"budget and count", "strategies: [anchor-e1-budget8k, anchor-e0-count30]\n", "200000"},
		{"one percent trigger", "strategies: [eager, claude-code-auto10]\n", "200000"},
		{"the scenario's window", "model: {preset: claude-sonnet-4.5, context_window: 1000000}\nstrategies: [eager]\n", "1000000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, p := prepareYAML(t, head+tc.yaml)
			var got []string
			for _, a := range p.file.Info.Assumptions {
				if a.Name == "context_window" {
					got = append(got, a.Value, a.Source)
				}
			}
			if len(got) != 2 {
				t.Fatalf("context_window assumptions %q, want one", got)
			}
			if got[0] != tc.want || got[1] != contextWindowSource {
				t.Errorf("context_window = %q (%s), want %q (%s)", got[0], got[1], tc.want, contextWindowSource)
			}
			for _, s := range []string{"context_overflow", "percent"} {
				if !strings.Contains(got[1], s) {
					t.Errorf("source %q does not name %q", got[1], s)
				}
			}
		})
	}
}
