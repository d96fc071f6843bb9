package main

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
)

// TestRecommendStrategyFlagsOfferTheNameMeant pins recommend's --current
// and --base naming neither a strategy of the scenario nor a preset: the
// error named no candidate (--current) or only the presets (--base); both
// now list the presets and end with the name most likely meant among the
// scenario's strategies and the presets.
func TestRecommendStrategyFlagsOfferTheNameMeant(t *testing.T) {
	sc, err := scenarios.Parse([]byte("name: mine\nstrategies:\n  - {name: my-rule, base: claude-code-default}\n"), "mine.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ flag, name, want string }{
		{"--current", "claude-code-defualt", `--current: "claude-code-defualt" is neither a strategy of scenario mine nor a preset (presets: eager, `},
		{"--current", "claude-code-defualt", `; did you mean "claude-code-default"?`},
		{"--base", "my-rul", `; did you mean "my-rule"?`},
		{"--base", "EAGER", `; did you mean "eager" (the same name in another case)?`},
	} {
		if _, err := strategyOrPreset(sc, tc.flag, tc.name); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v\nwant it to hold %q", tc.flag, tc.name, err, tc.want)
		}
	}
	for _, name := range []string{"my-rule", "eager"} {
		if st, err := strategyOrPreset(sc, "--base", name); err != nil || st.Name != name {
			t.Errorf("%s: %+v, %v", name, st.Name, err)
		}
	}
}
