package recommend

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
)

// TestRecommendLocalServersAsARun pins that a scenario's local servers are
// priced and replayed as a run of it replays them: recommend counted the
// generator's desktop tools (local in the embedded default) as deferrable
// in the rules and the budget and replayed them as MCP tools in the
// validation, so the snippet pasted into a scenario marking desktop local
// cost another figure per held-out session than the validation said. Now
// a desktop tool is always-deferred or local and direct, the budget counts
// the direct ones, a note says so, and the pasted snippet replays the
// held-out sessions to the validation's figures, every metric; a local
// server the catalogs lack is not named.
func TestRecommendLocalServersAsARun(t *testing.T) {
	trace, cat := planted(t, 200)
	plain := defaultConfig(t, trace, cat)
	mcp, err := Run(context.Background(), plain)
	if err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig(t, trace, cat)
	cfg.RunOnly, cfg.LocalServers = RunOnly{Scenario: "local"}, []string{"desktop", "absent"}
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.LocalServers, []string{"desktop"}) {
		t.Errorf("local servers %q: want [desktop], the one the catalogs hold", p.LocalServers)
	}
	var desktop, direct int
	for _, a := range p.Tools {
		if a.Key.Server != "desktop" {
			if a.Decision == localDirect {
				t.Errorf("%s: %s, on a server not local", toolLabel(a.Key), a.Decision)
			}
			continue
		}
		desktop++
		switch a.Decision {
		case localDirect:
			direct++
			if !strings.HasPrefix(a.Why, "server desktop is local (servers.desktop.local): a run sends its schema whatever the budget") {
				t.Errorf("%s: why %q", toolLabel(a.Key), a.Why)
			}
		case alwaysDefer:
		default:
			t.Errorf("%s: decision %q: a local tool is always-deferred or direct", toolLabel(a.Key), a.Decision)
		}
	}
	if desktop == 0 || direct == 0 {
		t.Fatalf("%d desktop tools, %d local and direct: want some of each", desktop, direct)
	}
	if !slices.ContainsFunc(p.Notes, func(n string) bool {
		return strings.HasPrefix(n, "scenario local sets servers.desktop.local: as a run of it does") && !strings.Contains(n, "absent")
	}) {
		t.Errorf("notes %q: want the local server's", p.Notes)
	}
	if p.Budget == mcp.Budget {
		t.Errorf("budget %d with desktop local, as without: the direct local tools are not counted", p.Budget)
	}
	// The pasted snippet in a scenario marking desktop local replays the
	// held-out sessions to the validation's figures; without the local
	// servers applied, recommend's validation said another cost.
	run := func(p *Proposal) map[string]float64 {
		t.Helper()
		doc := fmt.Sprintf("name: local\nseed: %d\ntraces: [%q]\ncatalogs: [%q]\nmodel: %s\nstrategies:\n%sservers:\n  desktop: {local: true}\n",
			p.Seed, trace, cat, cfg.Model.Name, indent(string(Snippet(p))))
		sc, err := scenarios.Parse([]byte(doc), "local.yaml", "")
		if err != nil {
			t.Fatalf("%v\n%s", err, doc)
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
		means := map[string]float64{}
		for name, m := range out.Results.Strategy(proposalName).Metrics {
			means[name] = m.Mean
		}
		return means
	}
	got := run(p)
	val := p.Validation.Results.Strategy(proposalName).Metrics
	if len(got) == 0 || len(got) != len(val) {
		t.Fatalf("metrics: run %d, validation %d", len(got), len(val))
	}
	for name, m := range val {
		if got[name] != m.Mean {
			t.Errorf("%s: the pasted proposal's run %v, the validation %v", name, got[name], m.Mean)
		}
	}
	if old := run(mcp); old["cost_usd"] == mcp.Validation.Results.Strategy(proposalName).Metrics["cost_usd"].Mean {
		t.Errorf("without the local servers applied the validation's cost %v is the run's: the test shows nothing", old["cost_usd"])
	}
}

// TestResolverPrefersLocalServers pins that a call naming no server is
// counted for the server a run resolves it to (sim.AmbiguousRule): a local
// server's tool before another server's of the same name, then by name.
func TestResolverPrefersLocalServers(t *testing.T) {
	s := schemas{{Server: "alpha", Tool: "shot"}: {}, {Server: "zeta", Tool: "shot"}: {}, {Server: "zeta", Tool: "other"}: {}}
	for _, tc := range []struct {
		local []string
		want  string
	}{{nil, "alpha"}, {[]string{"zeta"}, "zeta"}, {[]string{"absent"}, "alpha"}} {
		if got := s.Resolver(tc.local)("shot"); got != tc.want {
			t.Errorf("local %q: shot resolves to %q, want %q", tc.local, got, tc.want)
		}
	}
}
