package runner

import (
	"testing"
)

// TestScenarioKeysNoComponentReads pins that a strategy key a scenario
// file writes, with a value other than its zero or default, on a strategy
// none of whose components reads it stops the run, naming the strategy,
// the key, its value, the components selected and what they read (these
// ran clean, exit 0, changing nothing: search.k under exact select,
// trigger.budget under a count trigger, search and warm-set keys under the
// never trigger, which never turns deferred mode on, …), keys no component
// declares that the engine reads itself included (search.mode or
// never_defer under the never trigger, warm.eviction on a warm set without
// a cap); while zero and default values
// (recommend's snippet writes count: 0, percent: 0 under mode tokens),
// keys a preset or base brings, and keys a component reads stay accepted.
func TestScenarioKeysNoComponentReads(t *testing.T) {
	const head = "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"
	cases := []scenarioCase{
		{"search.k under select", "strategies:\n  - name: s\n    trigger: {mode: always}\n    search: {mode: select, k: 9}\n",
			[]string{`test.yaml:6: strategies[0].search.k: strategy "s" sets search.k to 9, which none of its components reads: its ranker "select" reads no strategy key; search.k is read by ranker "bm25"`}},
		{"keyword_retries under select", "strategies:\n  - {name: s, base: claude-code-default, search: {mode: select, keyword_retries: 2}}\n",
			[]string{`test.yaml:4: strategies[0].search.keyword_retries: strategy "s" sets search.keyword_retries to 2`, `ranker "select" reads no strategy key`}},
		{"budget under count", "strategies:\n  - {name: c, trigger: {mode: count, count: 30, budget: 8000}}\n",
			[]string{`strategies[0].trigger.budget: strategy "c" sets trigger.budget to 8000, which none of its components reads: its trigger "count" reads trigger.count; trigger.budget is read by trigger "tokens"`}},
		{"count under percent", "strategies:\n  - {name: p, trigger: {mode: percent, percent: 5, count: 3}}\n",
			[]string{`strategies[0].trigger.count: strategy "p" sets trigger.count to 3`, `its trigger "percent" reads trigger.percent, trigger.counter`}},
		{"counter under count", "strategies:\n  - {name: c, trigger: {mode: count, count: 3, counter: o200k_base}}\n",
			[]string{`strategies[0].trigger.counter: strategy "c" sets trigger.counter to o200k_base`}},
		{"always_defer under never", "strategies:\n  - {name: n, trigger: {mode: never}, always_defer: [screenshot]}\n",
			[]string{`strategies[0].always_defer: strategy "n" sets always_defer to [screenshot], which none of its components reads: its trigger "never" reads no strategy key`}},
		{"search and warm keys under never", "strategies:\n  - {name: e, base: eager, search: {mode: bm25, k: 9}, warm: {max_tools: 4}}\n",
			[]string{`strategies[0].search.k: strategy "e" sets search.k to 9, which changes nothing: its trigger "never" never turns deferred mode on`,
				`strategy "e" sets warm.max_tools to 4`, "give the strategy a trigger that turns deferred mode on"}},
		{"desc_chars under names", "strategies:\n  - {name: d, trigger: {mode: always}, directory: {format: names, desc_chars: 40}}\n",
			[]string{`strategies[0].directory.desc_chars: strategy "d" sets directory.desc_chars to 40`, `its directory "names" reads no strategy key; directory.desc_chars is read by directory "names-desc"`}},
		{"echo_schema under inline", "strategies:\n  - {name: e, base: claude-code-default, echo_schema: true}\n",
			[]string{`strategies[0].echo_schema: strategy "e" sets echo_schema to true`, `its injection "inline" reads no strategy key`}},
		{"every key named", "strategies:\n  - {name: a, trigger: {mode: count, count: 3, budget: 9}}\n  - {name: b, trigger: {mode: always}, search: {k: 7}}\n",
			[]string{`strategy "a" sets trigger.budget to 9`, `strategy "b" sets search.k to 7`}},
		{"matrix combination", "strategies: [eager]\nmatrix:\n  base: claude-code-default\n  vary:\n    search.mode: [select, bm25]\n    search.k: [5, 9]\n",
			[]string{`test.yaml:8: matrix.vary.search.k[1]: matrix combination "claude-code-default-select-9" sets search.k to 9`, "vary it in a matrix entry of its own"}},
		{"matrix mapping value", "strategies: [eager]\nmatrix:\n  base: claude-code-default\n  name: \"cc-{trigger}\"\n  vary:\n    trigger: [{mode: count, count: 30}, {mode: count, budget: 100}]\n",
			[]string{`matrix.vary.trigger[1].budget: matrix combination "cc-2" sets trigger.budget to 100`}},

		{"engine keys under never", "strategies:\n  - {name: e, base: eager, search: {mode: bm25}, injection: inline, never_defer: [web_search], warm: {key: fingerprint}}\n",
			[]string{`strategies[0].search.mode: strategy "e" sets search.mode to bm25, which changes nothing: its trigger "never" never turns deferred mode on`,
				`strategy "e" sets injection to inline`, `strategy "e" sets never_defer to [web_search]`, `strategy "e" sets warm.key to fingerprint`,
				"give the strategy a trigger that turns deferred mode on"}},
		{"eviction without a cap", "strategies:\n  - {name: c, base: claude-code-default, warm: {eviction: lru}}\n",
			[]string{`strategies[0].warm.eviction: strategy "c" sets warm.eviction to lru, which changes nothing: its warm set has no cap`, "(remove it, or set warm.max_tools or warm.max_tokens)"}},
		{"keying of a disabled warm set", "strategies:\n  - {name: d, base: claude-code-default, warm: {disabled: true, key: fingerprint}}\n",
			[]string{`strategies[0].warm.key: strategy "d" sets warm.key to fingerprint, which changes nothing: its warm set is disabled`, "(remove it, or remove warm.disabled)"}},

		{"search keys under never with lazy discovery", "strategies:\n  - {name: l, base: eager, discovery: lazy, search: {mode: bm25, k: 9}, injection: inline, never_defer: [web_search], warm: {max_tools: 3, eviction: lru}}\n", nil},
		{"engine keys' defaults written", "strategies:\n  - {name: e, base: eager, scope: mcp, injection: tools-array, search: {mode: select}, warm: {key: name, eviction: lrl, disabled: false}, rejected: retry, directory: {format: names, notice: false}, transport: eager, discovery: eager}\n", nil},
		{"eviction of a capped warm set, keying of an enabled one", "strategies:\n  - {name: c, base: claude-code-default, warm: {eviction: lru, max_tools: 4, key: fingerprint}}\n", nil},
		{"loading layers under never", "strategies:\n  - {name: e, base: eager, transport: lazy, discovery: cached, cache_layout: current-user}\n", nil},
		{"recommend's trigger block, mode tokens", "strategies:\n  - {name: r, base: claude-code-default, trigger: {mode: tokens, count: 0, budget: 1500, counter: bytes/3.5, percent: 0, categorical: false}, scope: mcp, never_defer: [], always_defer: [screenshot]}\n", nil},
		{"recommend's trigger block, mode always", "strategies:\n  - {name: r, base: claude-code-default, trigger: {mode: always, count: 0, budget: 0, counter: bytes/3.5, percent: 0, categorical: false}, scope: always-defer-only, always_defer: [screenshot]}\n", nil},
		{"defaults written", "strategies:\n  - {name: s, trigger: {mode: count, count: 3}, search: {mode: select, k: 5, keyword_retries: 0}, directory: {format: names, desc_chars: 80}, echo_schema: false}\n", nil},
		{"inherited from a preset", "strategies:\n  - {name: c, base: anchor-e1-budget8k, trigger: {mode: count, count: 30}, search: {mode: select}}\n", nil},
		{"inherited from a strategy of the file", "strategies:\n  - {name: a, trigger: {mode: tokens, budget: 9000}}\n  - {name: b, base: a, trigger: {mode: count, count: 3}}\n", nil},
		{"presets", "strategies: [eager, anchor-e0-count30, anchor-e9-warm-capped, claude-code-auto10, codex-cli]\n", nil},
		{"keys their components read", "strategies:\n  - {name: a, trigger: {mode: tokens, budget: 9000, counter: o200k_base}, search: {mode: bm25, k: 9, keyword_retries: 2}, directory: {format: names-desc, desc_chars: 40}, echo_schema: true}\n  - {name: r, trigger: {mode: always}, search: {mode: routed, k: 3, keyword_retries: 1}}\n", nil},
		{"search keys under never with categorical", "strategies:\n  - {name: n, trigger: {mode: never, categorical: true}, always_defer: [screenshot], search: {mode: bm25, k: 9}}\n", nil},
		{"always_defer under always, and under never with categorical", "strategies:\n  - {name: a, trigger: {mode: always}, always_defer: [screenshot]}\n  - {name: n, trigger: {mode: never, categorical: true}, always_defer: [screenshot]}\n", nil},
		{"matrix whose every combination reads its keys", "strategies: [eager]\nmatrix:\n  - {base: claude-code-default, vary: {search.mode: [bm25, keyword], search.k: [5, 9]}}\n  - {base: claude-code-default, vary: {search.mode: [select]}}\n", nil},
		{"an unregistered search mode is left to the engine", "strategies:\n  - {name: s, trigger: {mode: always}, search: {mode: nosuch, k: 9}}\n", nil},
	}
	runScenarioCases(t, head, cases, func(_ *testing.T, cfg Config) error { return checkReads(cfg) })
	// Only the strategies the run replays are checked (--strategies).
	t.Run("strategies not selected", func(t *testing.T) {
		cfg := testConfig(t, head+cases[0].yaml+"  - eager\n", Overrides{Strategies: []string{"eager"}})
		if err := checkReads(cfg); err != nil {
			t.Errorf("refused a strategy the run does not replay: %v", err)
		}
	})
}
