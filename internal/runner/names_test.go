package runner

import (
	"context"
	"strings"
	"testing"
)

// TestScenarioNamesMustMatchTheCatalogs pins that a scenario's defer
// lists, families, permissions and local servers that match nothing in
// the run's catalogs stop the run with the entry named (they used to be
// accepted and change nothing: `always_defer: [no_such_tool]` ran clean),
// while entries a preset brings and entries that match stay accepted.
func TestScenarioNamesMustMatchTheCatalogs(t *testing.T) {
	const head = "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"
	cases := []scenarioCase{
		{"always_defer typo", "strategies:\n  - {name: a, base: claude-code-default, always_defer: [screenshott]}\n",
			[]string{`strategy a: always_defer[0]: "screenshott": matches no tool`}},
		{"never_defer unknown server", "strategies:\n  - {name: a, base: claude-code-default, never_defer: [\"websrv:web_search\"]}\n",
			[]string{`strategy a: never_defer[0]: "websrv:web_search": no server "websrv"`}},
		{"family", "strategies:\n  - {name: a, base: claude-code-default, search: {family: [\"zzz_*\"], family_core: [zzz_one]}}\n",
			[]string{`search.family[0]: "zzz_*"`, `search.family_core[0]: "zzz_one"`}},
		{"permissions", "strategies: [eager]\npermissions: {deny: [\"ghost:*\"], allow: [\"web_*\", nosuch]}\n",
			[]string{`permissions.allow[1]: "nosuch"`, `permissions.deny[0]: "ghost:*": no server "ghost"`}},
		{"local server", "strategies: [eager]\nservers: {ghost: {local: true}}\n",
			[]string{`servers.ghost: no server "ghost"`}},
		{"matching entries", "strategies:\n  - {name: a, base: claude-code-default, always_defer: [\"desktop:*\", screenshot], never_defer: [web_search, \"memory:memory_recall\"]}\npermissions: {deny: [\"shop:delete_*\"]}\nservers: {desktop: {local: true}}\n",
			nil},
		{"preset entries are not checked", "strategies: [anchor-e9-warm-capped, anchor-e6-never-defer-openers]\n", nil},
	}
	// Catalogs from --catalogs (or the traces' own): the scenario was
	// written for others (the embedded default's desktop on a user's
	// catalogs), so nothing is checked.
	check := func(t *testing.T, cfg Config) error {
		cat, err := loadCatalogs(cfg.Catalogs)
		if err != nil {
			t.Fatal(err)
		}
		return checkNames(cfg, cat)
	}
	t.Run("catalogs not the scenario's", func(t *testing.T) {
		if err := check(t, testConfig(t, head+cases[0].yaml, Overrides{Catalogs: []string{"embedded:catalog"}})); err != nil {
			t.Errorf("refused with --catalogs: %v", err)
		}
	})
	runScenarioCases(t, head, cases, check)
	// And Run itself stops.
	cfg := testConfig(t, head+cases[0].yaml, Overrides{})
	cfg.Bootstrap = -1
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "screenshott") {
		t.Fatalf("Run: %v", err)
	}
}
