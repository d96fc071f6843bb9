package recommend

import (
	"context"
	"strings"
	"testing"
)

// TestRunOnlyWarns pins that recommend warns of what its scenario sets
// that a run of it applies and recommend does not (upgrades, permissions,
// srd), in the warnings and the snippet's comments; local servers it
// applies (TestRecommendLocalServersAsARun) and no longer names.
func TestRunOnlyWarns(t *testing.T) {
	trace, cat := planted(t, 200)
	for _, tc := range []struct {
		name    string
		runOnly RunOnly
		local   []string
		want    string // "" no warning
	}{
		{"nothing a run applies alone", RunOnly{Scenario: "s"}, nil, ""},
		{"a local server, applied", RunOnly{Scenario: "default"}, []string{"desktop"}, ""},
		{"upgrades and permissions", RunOnly{Scenario: "s", Keys: []string{"servers.web.upgrades", "permissions"}}, nil, "scenario s sets permissions, servers.web.upgrades, which"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := defaultConfig(t, trace, cat)
			cfg.RunOnly, cfg.LocalServers = tc.runOnly, tc.local
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
			if !strings.Contains(all, tc.want) || strings.Contains(all, ".local") {
				t.Errorf("warnings %q: want %q, and no local server", p.Warnings, tc.want)
			}
			if !strings.Contains(string(Snippet(p)), "# warning: "+tc.want) {
				t.Errorf("snippet lacks the warning %q", tc.want)
			}
		})
	}
}
