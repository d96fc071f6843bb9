package runner

import "testing"

// TestStrategyCacheLayoutUnderACacheWithoutBreakpoints pins that a
// strategy's cache_layout written in a scenario whose model cache marks no
// breakpoints (openai: every prefix is cached; none) stops the run, as
// model.cache.layout there does: the replay ran clean, exit 0, with the
// layout silently ignored (a gpt-4o scenario copying the anchor runtime's
// current-user layout). Under an anthropic cache the key is read, and a
// layout a preset or base brings (the anchor presets' current-user) is not
// checked: results.json states cache.layout "not read" for such a run.
func TestStrategyCacheLayoutUnderACacheWithoutBreakpoints(t *testing.T) {
	const head = "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"
	cases := []scenarioCase{
		{"openai cache", "model: gpt-4o\nstrategies:\n  - {name: c, base: codex-cli, cache_layout: current-user}\n",
			[]string{`test.yaml:5: strategies[0].cache_layout: strategy "c" sets cache_layout to current-user, which changes nothing: the model's cache marks no breakpoints`,
				`cache "openai" reads cache.ttl_s`, "(remove it, or choose a model whose cache.kind reads cache.layout)"}},
		{"no cache", "model: {preset: gpt-4o, cache: {kind: none}}\nstrategies:\n  - {name: c, base: codex-cli, cache_layout: last-message}\n",
			[]string{`strategy "c" sets cache_layout to last-message, which changes nothing`, `cache "none" reads no cache key`}},
		{"anthropic cache", "model: claude-sonnet-4.5\nstrategies:\n  - {name: c, base: codex-cli, cache_layout: current-user}\n", nil},
		{"a preset's layout under an openai cache", "model: gpt-4o\nstrategies: [anchor-e9-warm-capped]\n", nil},
	}
	runScenarioCases(t, head, cases, func(_ *testing.T, cfg Config) error { return checkReads(cfg) })
}
