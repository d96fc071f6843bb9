package runner

import (
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// checkScenarioNames is checkNames over cfg's catalogs.
func checkScenarioNames(t *testing.T, cfg Config) error {
	t.Helper()
	cat, err := loadCatalogs(cfg.Catalogs)
	if err != nil {
		t.Fatal(err)
	}
	return checkNames(cfg, cat)
}

// TestScenarioNamesOfferTheNameMeant pins the close name a scenario entry
// that matches nothing in its catalogs is offered (catalog.NearName): the
// run stopped saying only `"screenshott": matches no tool of any server
// version`, though the fix was a letter, a case or a server away. A
// scoped entry is offered scoped again.
func TestScenarioNamesOfferTheNameMeant(t *testing.T) {
	const head = "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"
	runScenarioCases(t, head, []scenarioCase{
		{"always_defer typo", "strategies:\n  - {name: a, base: claude-code-default, always_defer: [screenshott]}\n",
			[]string{`always_defer[0]: "screenshott": matches no tool of any server version in the scenario's catalogs; did you mean "screenshot"?`}},
		{"never_defer case", "strategies:\n  - {name: a, base: claude-code-default, never_defer: [Web_Search]}\n",
			[]string{`never_defer[0]: "Web_Search": matches no tool of any server version in the scenario's catalogs; did you mean "web_search" (the same name in another case)?`}},
		{"never_defer mcp prefix", "strategies:\n  - {name: a, base: claude-code-default, never_defer: [mcp__web__web_search]}\n",
			[]string{`did you mean "web_search" (the name without its prefix "mcp__web__")?`}},
		{"scoped server typo", "strategies:\n  - {name: a, base: claude-code-default, never_defer: [\"memroy:memory_recall\"]}\n",
			[]string{`never_defer[0]: "memroy:memory_recall": no server "memroy" in the scenario's catalogs; did you mean "memory:memory_recall"?`}},
		{"scoped tool typo", "strategies:\n  - {name: a, base: claude-code-default, never_defer: [\"memory:memory_recal\"]}\n",
			[]string{`did you mean "memory:memory_recall"?`}},
		{"permissions", "strategies: [eager]\npermissions: {allow: [web_serch]}\n",
			[]string{`permissions.allow[0]: "web_serch": matches no tool of any server version in the scenario's catalogs; did you mean "web_search"?`}},
		{"local server", "strategies: [eager]\nservers: {desktp: {local: true}}\n",
			[]string{`servers.desktp: no server "desktp" in the scenario's catalogs (have `, `; did you mean "desktop"?`}},
		{"upgraded server", "strategies: [eager]\nservers:\n  kbb: {upgrades: [{to: \"3.0.0\", after_session: 10}]}\n",
			[]string{`servers.kbb.upgrades[0]: no server "kbb"`, `; did you mean "kb"?`}},
	}, checkScenarioNames)
}

// TestBaselineFlagOffersTheNameMeant pins --baseline naming no strategy of
// the run: it said only `--baseline "eagr" is not a strategy of this run`,
// naming neither the run's strategies nor the one meant.
func TestBaselineFlagOffersTheNameMeant(t *testing.T) {
	for _, tc := range []struct{ strategies, baseline, want string }{
		{"eager,claude-code-default", "eagr", `--baseline "eagr" is not a strategy of this run (its strategies: eager, claude-code-default); did you mean "eager"?`},
		{"eager,claude-code-default", "Claude-Code-Default", `did you mean "claude-code-default" (the same name in another case)?`},
		{"eager,claude-code-default", "copilot-cli-30", `--baseline "copilot-cli-30" is not a strategy of this run (its strategies: eager, claude-code-default)`},
	} {
		sc, err := scenarios.Parse([]byte("traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\n"), "test.yaml", "")
		if err != nil {
			t.Fatal(err)
		}
		_, err = FromScenario(sc, Overrides{Strategies: strings.Split(tc.strategies, ","), Baseline: tc.baseline}, defaultdata.FS())
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("--baseline %s: %v\nwant it to end %q", tc.baseline, err, tc.want)
		}
	}
}

// TestUnmatchedNamesFlaggedUnderOtherCatalogs pins the warning of a
// scenario entry that matches nothing in catalogs that are not the
// scenario's (--catalogs, or the traces' own): checkNames passes them (the
// scenario may have been written for other catalogs), and the run went on
// without a word, so a misspelt never_defer changed nothing silently. A
// scenario whose catalogs are all embedded (the default, a template for a
// user's data) is not flagged.
func TestUnmatchedNamesFlaggedUnderOtherCatalogs(t *testing.T) {
	const list = "strategies:\n  - {name: a, base: claude-code-default, never_defer: [screenshott, web_search]}\n"
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"scenario without catalogs", "traces: [embedded:trace.jsonl.gz]\n" + list,
			[]string{`strategy a: never_defer[0]: "screenshott": matches no tool of any server version in the catalogs (--catalogs); did you mean "screenshot"?`}},
		{"scenario of embedded catalogs", "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n" + list, nil},
		{"nothing unmatched", "traces: [embedded:trace.jsonl.gz]\nstrategies:\n  - {name: a, base: claude-code-default, never_defer: [web_search]}\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, tc.yaml, Overrides{Catalogs: []string{"embedded:catalog"}})
			p, err := prepare(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.file.Info.UnmatchedEntries; !slices.Equal(got, tc.want) {
				t.Errorf("unmatched %q, want %q", got, tc.want)
			}
		})
	}
}
