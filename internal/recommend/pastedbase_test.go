package recommend

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestPastedProposalOfEachDirectoryFormat pins recommend's end-to-end claim
// for a --base of each directory format, a strategy of the user's scenario:
// the snippet, pasted below that strategy, replays the held-out sessions to
// the validation's figures, every metric's mean; and it says where to paste
// it, since a strategy's base must come earlier in strategies: pasted at
// the top, as for a preset base, the scenario did not load ("no earlier
// strategy and no preset is called …") and the snippet did not say why.
func TestPastedProposalOfEachDirectoryFormat(t *testing.T) {
	trace, cat := planted(t, 200)
	for _, format := range []string{"none", "names", "names-desc", "by-server", "by-domain"} {
		t.Run(format, func(t *testing.T) {
			base, err := presets.Strategy("claude-code-default")
			if err != nil {
				t.Fatal(err)
			}
			base.Name, base.Directory = "mine", sim.Directory{Format: format}
			cfg := defaultConfig(t, trace, cat)
			cfg.Base = &base
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			snippet := string(Snippet(p))
			if !strings.Contains(snippet, "# base mine is a strategy of your scenario, not a preset: paste this entry below it") {
				t.Errorf("the snippet does not say where to paste it:\n%.600s", snippet)
			}
			mine := fmt.Sprintf("  - {name: mine, base: claude-code-default, directory: {format: %s}}\n", format)
			head := fmt.Sprintf("name: pasted\nseed: %d\ntraces: [%q]\ncatalogs: [%q]\nmodel: %s\nstrategies:\n", p.Seed, trace, cat, cfg.Model.Name)
			if _, err := scenarios.Parse([]byte(head+indent(snippet)+mine), "above.yaml", ""); err == nil || !strings.Contains(err.Error(), "no earlier strategy") {
				t.Errorf("pasted above its base: %v, want no earlier strategy", err)
			}
			sc, err := scenarios.Parse([]byte(head+mine+indent(snippet)), "pasted.yaml", "")
			if err != nil {
				t.Fatalf("snippet does not load below its base: %v", err)
			}
			rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			rc.Bootstrap = -1
			rc.Select = func(id string) bool { return isHeldOut(p.Seed, id, p.TestShare) }
			out, err := runner.Run(context.Background(), rc)
			if err != nil {
				t.Fatal(err)
			}
			val, run := p.Validation.Results.Strategy(proposalName), out.Results.Strategy(proposalName)
			if val == nil || run == nil || len(run.Metrics) == 0 || len(run.Metrics) != len(val.Metrics) {
				t.Fatalf("strategy %q: validation %v, run %v", proposalName, val, run)
			}
			for name, m := range val.Metrics {
				if got := run.Metrics[name].Mean; got != m.Mean {
					t.Errorf("%s: the pasted proposal's run %v, the validation %v", name, got, m.Mean)
				}
			}
		})
	}
}
