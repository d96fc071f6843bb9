package recommend

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
)

// TestRunOnlyWarns pins that recommend warns of what its scenario sets
// that a run of it applies and recommend does not (local servers the
// catalogs hold, upgrades, permissions, srd): a scenario marking the
// generator's desktop server local (as the embedded default does), which
// the rules and the validation ignored, replayed the snippet pasted into
// it over the held-out sessions to another cost than the validation's,
// with no word of it. A local server the catalogs
// do not hold changes nothing and is not named.
func TestRunOnlyWarns(t *testing.T) {
	trace, cat := planted(t, 200)
	for _, tc := range []struct {
		name    string
		runOnly RunOnly
		want    string // "" no warning
	}{
		{"nothing a run applies alone", RunOnly{Scenario: "s"}, ""},
		{"a local server the catalogs lack", RunOnly{Scenario: "s", LocalServers: []string{"absent"}}, ""},
		{"a local server the catalogs hold", RunOnly{Scenario: "default", LocalServers: []string{"absent", "desktop"}}, "scenario default sets servers.desktop.local, which a run of it applies and recommend does not"},
		{"upgrades and permissions", RunOnly{Scenario: "s", Keys: []string{"servers.web.upgrades", "permissions"}}, "scenario s sets permissions, servers.web.upgrades, which"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := defaultConfig(t, trace, cat)
			cfg.RunOnly = tc.runOnly
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(p.Warnings, "\n")
			if tc.want == "" {
				if strings.Contains(all, " which a run of it applies") {
					t.Errorf("warnings %q: want none of run-only settings", p.Warnings)
				}
				return
			}
			if !strings.Contains(all, tc.want) || strings.Contains(all, "absent") {
				t.Errorf("warnings %q: want %q, and no server the catalogs lack", p.Warnings, tc.want)
			}
			if !strings.Contains(string(Snippet(p)), "# warning: "+tc.want) {
				t.Errorf("snippet lacks the warning %q", tc.want)
			}
		})
	}
	// What the warning is about: the snippet pasted into a scenario
	// marking desktop local replays the held-out sessions to another cost
	// than the validation's.
	cfg := defaultConfig(t, trace, cat)
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
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
	run, val := out.Results.Strategy(proposalName).Metrics["cost_usd"].Mean, p.Validation.Results.Strategy(proposalName).Metrics["cost_usd"].Mean
	if run == val {
		t.Errorf("with desktop local the run costs %v per session, as the validation: the warning is about nothing", run)
	}
}
