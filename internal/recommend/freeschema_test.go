package recommend

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestRefusesFreePromptTokens pins that recommend stops, naming why, when
// a schema token costs $0 per session: with input_per_mtok 0 it used to
// propose budget 1 (break-even +Inf: "deferring pays above +Inf
// deferrable schema tokens") and defer every tool, with no note, and
// --format json failed on the +Inf; with every price 0, break-even NaN.
func TestRefusesFreePromptTokens(t *testing.T) {
	trace, cat := planted(t, 60)
	for _, tc := range []struct {
		name string
		edit func(*sim.Model)
		want string // "" = a proposal
	}{
		{"input price 0", func(m *sim.Model) { m.Pricing.InputPerMTok = 0 }, "(pricing.input_per_mtok is 0)"},
		{"every price 0, no cache", func(m *sim.Model) {
			m.Pricing.InputPerMTok, m.Pricing.OutputPerMTok, m.Cache = 0, 0, sim.CacheConfig{Kind: sim.CacheNone}
		}, "(pricing.input_per_mtok is 0)"},
		{"cache multipliers 0", func(m *sim.Model) { m.Cache.WriteMultiplier, m.Cache.ReadMultiplier = 0, 0 },
			"0× the input price on the first request, 0× on the others"},
		{"output price 0", func(m *sim.Model) { m.Pricing.OutputPerMTok = 0 }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := defaultConfig(t, trace, cat)
			cfg.Presets = []string{"eager"}
			tc.edit(&cfg.Model)
			if err := cfg.Model.Validate(); err != nil {
				t.Fatal(err)
			}
			p, err := Run(context.Background(), cfg)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && (p.Budget <= 1 || p.BreakEvenTokens <= 0):
				t.Errorf("budget %d, break-even %v: want a finite proposal", p.Budget, p.BreakEvenTokens)
			case tc.want != "" && err == nil:
				t.Fatalf("proposal with budget %d (break-even %v), want a refusal", p.Budget, p.BreakEvenTokens)
			case tc.want != "":
				for _, s := range []string{"costs $0 per session", tc.want, "sweep --param strategy.trigger.budget"} {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not say %q", err, s)
					}
				}
			}
		})
	}
}
