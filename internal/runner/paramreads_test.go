package runner

import (
	"strings"
	"testing"
)

// TestScenarioParamsNoStrategyReads pins that a params key the scenario
// file writes, with a value other than 0 and its default, that no
// strategy of the run reads stops the run, naming its line, each strategy
// and why, and what would make it read (these ran clean, exit 0, changing
// nothing: select_prob or search_exec_ms under eager alone, select_prob
// under exact select, cold_call_well_formed_prob under rejected: retry,
// relist_prob under discovery: cached); while a key one strategy reads,
// zero and default values, and keys every strategy reads stay accepted.
func TestScenarioParamsNoStrategyReads(t *testing.T) {
	const head = "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"
	const eagerWhy = `strategy "eager": its trigger "never" never turns deferred mode on and its discovery is not lazy: it loads no tool`
	cases := []scenarioCase{
		{"select share under eager", "params:\n  select_prob: 0.9\nstrategies: [eager]\n",
			[]string{`test.yaml:4: params.select_prob: 0.9 changes nothing: no strategy of the run reads it: ` + eagerWhy,
				"(remove it, or run a strategy with a ranked search mode and a directory that shows names)"}},
		{"loading params under eager", "params: {search_exec_ms: 40, search_tool_tokens: 900, nudge_prob: 0.2, nudge_tokens: 90, cold_call_prob: 0.1}\nstrategies: [eager]\n",
			[]string{"test.yaml:3: params.search_exec_ms: 40 changes nothing", "test.yaml:3: params.search_tool_tokens: 900 changes nothing",
				"params.nudge_prob: 0.2 changes nothing", "params.nudge_tokens: 90 changes nothing", "params.cold_call_prob: 0.1 changes nothing",
				"run a strategy that loads tools: a trigger that turns deferred mode on, or discovery: lazy"}},
		{"select share under exact select", "params:\n  select_prob: 0.9\nstrategies:\n  - eager\n  - {name: s, base: claude-code-default, search: {mode: select}}\n",
			[]string{`test.yaml:4: params.select_prob: 0.9 changes nothing`, `strategy "s": its search mode "select" asks for every tool by name`}},
		{"select share without a directory", "params:\n  select_prob: 0.9\nstrategies:\n  - {name: d, base: codex-cli, directory: {format: none}}\n",
			[]string{`strategy "d": its directory "none" shows no names`}},
		{"query model under exact select", "params:\n  query_model: name-words\nstrategies:\n  - {name: s, base: claude-code-default, search: {mode: select}}\n",
			[]string{`test.yaml:4: params.query_model: name-words changes nothing`, `its search mode "select" asks for every tool by name: it writes no query`}},
		{"well-formed share under retry", "params: {cold_call_prob: 0.2, cold_call_well_formed_prob: 0.9}\nstrategies: [eager, codex-cli]\n",
			[]string{`params.cold_call_well_formed_prob: 0.9 changes nothing`, `strategy "codex-cli": its rejected is "retry"`, "(remove it, or run a strategy with rejected: execute)"}},
		{"relisting under cached discovery", "params: {relist_prob: 0.5}\nstrategies:\n  - {name: c, base: codex-cli, discovery: cached}\n",
			[]string{`params.relist_prob: 0.5 changes nothing`, `strategy "c": its discovery is "cached": it makes no tools/list call`}},

		{"select share, one strategy reads it", "params:\n  select_prob: 0.9\nstrategies: [eager, claude-code-default]\n", nil},
		{"well-formed share under execute", "params: {cold_call_prob: 0.2, cold_call_well_formed_prob: 0.9}\nstrategies:\n  - {name: x, base: codex-cli, rejected: execute}\n", nil},
		{"search time under never with lazy discovery", "params: {search_exec_ms: 40}\nstrategies:\n  - {name: l, base: eager, discovery: lazy}\n", nil},
		{"defaults and zeros under eager", "params: {select_prob: 0.5, search_exec_ms: 1, query_model: auto, cold_call_prob: 0, nudge_prob: 0}\nstrategies: [eager]\n", nil},
		{"keys every strategy reads", "params: {request_overhead_tokens: 200, user_think_ms: 5000, connect_ms: 100}\nstrategies: [eager]\n", nil},
	}
	runScenarioCases(t, head, cases, func(_ *testing.T, cfg Config) error { return checkReads(cfg) })
	// The run's strategies are checked: --strategies replaces the file's.
	if err := checkReads(testConfig(t, head+"params:\n  select_prob: 0.9\nstrategies: [eager]\n", Overrides{Strategies: []string{"eager", "codex-cli"}})); err != nil {
		t.Errorf("--strategies eager,codex-cli: refused: %v", err)
	}
	// A key the file's own strategies read is not refused when
	// --strategies replaces them with strategies that do not (the file is
	// consistent: `run real-drift.yaml --strategies eager` is a fair
	// question); the run states the key as not read, with the reason.
	const file = head + "params:\n  select_prob: 0.9\nstrategies: [eager, claude-code-default]\n"
	cfg := testConfig(t, file, Overrides{Strategies: []string{"eager"}})
	if err := checkReads(cfg); err != nil {
		t.Errorf("--strategies eager over a file whose strategies read select_prob: refused: %v", err)
	}
	p, err := prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range p.file.Info.Assumptions {
		if a.Name == "select_prob" && (a.Value != notRead || !strings.Contains(a.Source, eagerWhy)) {
			t.Errorf("select_prob stated as %+v, want %q with why: %s", a, notRead, eagerWhy)
		}
	}
}
