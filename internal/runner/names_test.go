package runner

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// TestScenarioNamesMustMatchTheCatalogs pins that a scenario's defer
// lists, families, permissions and local servers that match nothing in
// the run's catalogs stop the run with the entry named (they used to be
// accepted and change nothing: `always_defer: [no_such_tool]` ran clean),
// while entries a preset brings and entries that match stay accepted. An
// entry the file writes is checked even when a preset writes the same one
// (they used to be exempt by value).
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
	t.Run("catalogs not the scenario's", func(t *testing.T) {
		if err := checkScenarioNames(t, testConfig(t, head+cases[0].yaml, Overrides{Catalogs: []string{"embedded:catalog"}})); err != nil {
			t.Errorf("refused with --catalogs: %v", err)
		}
	})
	runScenarioCases(t, head, cases, checkScenarioNames)
	// A list the file writes is checked even when it holds a preset's own
	// entry (web_fetch, anchor-e6's), here over a catalog without it.
	one := t.TempDir()
	data, err := fs.ReadFile(defaultdata.FS(), "catalog/browser@0.9.3.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(one, "browser@0.9.3.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	runScenarioCases(t, "traces: [embedded:trace.jsonl.gz]\ncatalogs: ["+one+"]\n", []scenarioCase{
		{"a preset's entry written by the file", "strategies:\n  - {name: a, base: anchor-e6-never-defer-openers, never_defer: [web_fetch]}\n",
			[]string{`strategy a: never_defer[0]: "web_fetch": matches no tool`}},
		{"the same entry brought by the preset", "strategies: [anchor-e6-never-defer-openers]\n", nil},
	}, checkScenarioNames)
	// And Run itself stops.
	cfg := testConfig(t, head+cases[0].yaml, Overrides{})
	cfg.Bootstrap = -1
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "screenshott") {
		t.Fatalf("Run: %v", err)
	}
}

// TestUpgradedServerMustBeInTheCatalogs pins that a servers: entry whose
// upgrades name a server the scenario's catalogs do not have stops the run
// naming the entry and the servers there are, as a local server does: it
// stopped with "upgrade of slack to 2025.4.25: no such server version in
// the catalogs (have )". Under catalogs that are not the scenario's the
// engine says the server is missing.
func TestUpgradedServerMustBeInTheCatalogs(t *testing.T) {
	const head = "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\n"
	runScenarioCases(t, head, []scenarioCase{
		{"unknown server", "servers:\n  ghost: {upgrades: [{to: \"2.0\", after_session: 10}]}\n",
			[]string{`test.yaml:5: servers.ghost.upgrades[0]: no server "ghost" in the scenario's catalogs (have `, "browser"}},
		{"known server", "servers:\n  kb: {upgrades: [{to: \"3.0.0\", after_session: 10}]}\n", nil},
	}, checkScenarioNames)
	cfg := testConfig(t, head+"servers:\n  ghost: {upgrades: [{to: \"2.0\", after_session: 10}]}\n", Overrides{Catalogs: []string{"embedded:catalog"}})
	cfg.Bootstrap = -1
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), `test.yaml:5: servers.ghost.upgrades[0]: the catalogs have no server "ghost"`) {
		t.Fatalf("Run under --catalogs: %v", err)
	}
}

// TestUpgradeToAVersionTheCatalogsLack pins that an upgrade whose to names
// a version the catalogs do not hold stops the run at the scenario's file,
// line and entry, naming the versions they do hold, under the scenario's
// catalogs and under --catalogs alike: it said only "upgrade of kb to
// 9.9.9: no such server version in the catalogs (have …)", without the
// file and line scenario errors carry.
func TestUpgradeToAVersionTheCatalogsLack(t *testing.T) {
	const yaml = "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\nservers:\n" +
		"  kb:\n    upgrades:\n      - {to: \"3.0.0\", after_session: 5}\n      - {to: \"9.9.9\", after_session: 10}\n"
	for _, c := range []struct {
		name string
		ov   Overrides
	}{
		{"the scenario's catalogs", Overrides{}},
		{"--catalogs", Overrides{Catalogs: []string{"embedded:catalog"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig(t, yaml, c.ov)
			cfg.Bootstrap = -1
			_, err := Run(context.Background(), cfg)
			if err == nil {
				t.Fatal("Run accepted an upgrade to a version the catalogs lack")
			}
			for _, w := range []string{`test.yaml:8: servers.kb.upgrades[1]: to "9.9.9": the catalogs have no such version of server "kb" (have `, "3.0.0"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}
