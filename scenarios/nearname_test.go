package scenarios

import (
	"strings"
	"testing"
)

// TestScenarioNamesOfferTheNameMeant pins the close name (catalog.NearName)
// a scenario's misspelt key, component, preset, check metric or selected
// strategy is offered after the list of what it may be: the messages
// listed every name (up to eighteen) and left the user to spot the one
// meant. A name close to none is offered nothing.
func TestScenarioNamesOfferTheNameMeant(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, hint string // hint "": the message offers no name
	}{
		{"top key", "strategis: [eager]\n", `; did you mean "strategies"?`},
		{"strategy key", "strategies:\n  - {name: a, base: eager, never_defr: [x]}\n", `; did you mean "never_defer"?`},
		{"component", "strategies:\n  - {name: a, base: eager, trigger: {mode: cuont}}\n", `; did you mean "count"?`},
		{"component case", "strategies:\n  - {name: a, base: eager, trigger: {mode: Count}}\n", `; did you mean "count" (the same name in another case)?`},
		{"model preset", "strategies: [eager]\nmodel: claude-sonet-4.5\n", `; did you mean "claude-sonnet-4.5"?`},
		{"strategy preset", "strategies: [claude-code-defualt]\n", `; did you mean "claude-code-default"?`},
		{"check metric", "strategies: [eager]\ncheck:\n  metrics: {cost_ud: 0.05}\n", `; did you mean "cost_usd"?`},
		{"params key", "params:\n  user_thinkms: 2\nstrategies: [eager]\n", `; did you mean "user_think_ms"?`},
		{"nothing close", "strategies: [eager]\nmodel: sonet\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse(t, tc.yaml)
			if err == nil {
				t.Fatal("accepted")
			}
			if tc.hint == "" {
				if strings.Contains(err.Error(), "did you mean") {
					t.Errorf("offers a name: %v", err)
				}
				return
			}
			if !strings.HasSuffix(err.Error(), tc.hint) {
				t.Errorf("%v\nwant it to end %q", err, tc.hint)
			}
		})
	}
}
