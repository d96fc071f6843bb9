package runner

import (
	"fmt"
	"strings"
	"testing"
)

// TestContextWindowStatedNotReadUnlessAStrategyReadsIt pins that
// run.assumptions states context_window "not read", with the table's
// reason, when no strategy of the run compares tokens with it (it stated
// the value as if in force), and its value when one (percent) does.
func TestContextWindowStatedNotReadUnlessAStrategyReadsIt(t *testing.T) {
	const head = "name: a\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"
	for _, tc := range []struct {
		name, strategies string
		read             bool
		says             []string // in the source of a "not read"
	}{
		{"eager", "[eager]", false, []string{`strategy "eager": its trigger "never"`, "trigger.mode percent"}},
		{"budget and count", "[anchor-e1-budget8k, anchor-e0-count30]", false,
			[]string{`strategy "anchor-e1-budget8k": its trigger "tokens"`, `strategy "anchor-e0-count30": its trigger "count"`}},
		{"one percent trigger", "[eager, claude-code-auto10]", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, p := prepareYAML(t, head+"strategies: "+tc.strategies+"\n")
			var value, source string
			n := 0
			for _, a := range p.file.Info.Assumptions {
				if a.Name == "context_window" {
					value, source = a.Value, a.Source
					n++
				}
			}
			if n != 1 {
				t.Fatalf("%d context_window assumptions, want 1", n)
			}
			if tc.read {
				if want := fmt.Sprint(cfg.Model.ContextWindow); value != want || source != "model" {
					t.Errorf("context_window = %q (%s), want %q from the model", value, source, want)
				}
				return
			}
			if value != notRead {
				t.Errorf("context_window = %q, want %q", value, notRead)
			}
			for _, s := range append(tc.says, "no strategy of the run reads it") {
				if !strings.Contains(source, s) {
					t.Errorf("source %q does not say %q", source, s)
				}
			}
		})
	}
}
