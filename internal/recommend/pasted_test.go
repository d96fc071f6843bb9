package recommend

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
)

// TestPastedProposalReplaysAsValidated pins that the snippet, pasted into
// a scenario of the same model with the seed its header names, replays the
// held-out sessions to exactly the validation's figures (every metric's
// mean of the strategy "recommended"), and that the header names that
// seed: at another seed (a scenario without one runs at seed 1) the
// searches' queries draw otherwise and the figures move, where the docs
// said the seed mattered only for params.cold_call_prob.
func TestPastedProposalReplaysAsValidated(t *testing.T) {
	trace, cat := planted(t, 200)
	cfg := defaultConfig(t, trace, cat)
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p.Validation == nil || p.Validation.Results == nil || p.Seed != cfg.Seed {
		t.Fatalf("validation %v, seed %d: want a validation at seed %d", p.Validation, p.Seed, cfg.Seed)
	}
	snippet := string(Snippet(p))
	header := fmt.Sprintf("; seed %d.\n# the validation replayed the held-out sessions with seed %d ", cfg.Seed, cfg.Seed)
	if !strings.Contains(snippet, header) {
		t.Errorf("snippet header does not name the seed (%q):\n%.400s", header, snippet)
	}
	doc := fmt.Sprintf("name: pasted\nseed: %d\ntraces: [%q]\ncatalogs: [%q]\nmodel: %s\nstrategies:\n%s", p.Seed, trace, cat, cfg.Model.Name, indent(snippet))
	sc, err := scenarios.Parse([]byte(doc), "pasted.yaml", "")
	if err != nil {
		t.Fatalf("snippet does not load: %v\n%s", err, doc)
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
	if got, want := out.Results.Sessions, p.Validation.Sessions; got != want || got == 0 {
		t.Fatalf("the run replayed %d sessions, the validation %d", got, want)
	}
	val := p.Validation.Results.Strategy(proposalName)
	run := out.Results.Strategy(proposalName)
	if val == nil || run == nil {
		t.Fatalf("strategy %q: validation %v, run %v", proposalName, val, run)
	}
	if len(run.Metrics) == 0 || len(run.Metrics) != len(val.Metrics) {
		t.Fatalf("metrics: run %d, validation %d", len(run.Metrics), len(val.Metrics))
	}
	for name, m := range val.Metrics {
		if got := run.Metrics[name].Mean; got != m.Mean {
			t.Errorf("%s: the pasted proposal's run %v, the validation %v", name, got, m.Mean)
		}
	}
	// At another seed the searches' queries draw otherwise: the figures
	// move, which is why the header names the seed.
	rc.Seed = p.Seed + 1
	other, err := runner.Run(context.Background(), rc)
	if err != nil {
		t.Fatal(err)
	}
	if o := other.Results.Strategy(proposalName); o.Metrics["search_misses"].Mean == val.Metrics["search_misses"].Mean {
		t.Errorf("seed %d: %v search misses per session, as at the validation's seed %d: the seed no longer moves the searches",
			rc.Seed, o.Metrics["search_misses"].Mean, p.Seed)
	}
	if run.Metrics["cost_usd"].Mean <= 0 || run.Metrics["first_reply_ms"].Mean <= 0 {
		t.Errorf("cost %v, first reply %v: want figures to compare", run.Metrics["cost_usd"].Mean, run.Metrics["first_reply_ms"].Mean)
	}
}
