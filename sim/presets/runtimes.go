package presets

import "github.com/defersim/defersim/sim"

// Other runtimes' documented rules (REFERENCE §2). Where a rule leaves a
// detail open, the preset's Description says what was assumed.

// claudeCodeAutoPercent is Claude Code's default auto:N threshold.
const claudeCodeAutoPercent = 10

// copilotCLICount models Copilot CLI's "at least about 30 tools" as
// count > 29, i.e. 30 tools or more.
const copilotCLICount = 29

// claudeCodeDefault: every MCP tool deferred, inline references.
func claudeCodeDefault() sim.Strategy {
	return sim.Strategy{
		Description: "Claude Code default: every MCP tool deferred, built-ins direct; loaded tools referenced inline " +
			"(prompt prefix kept); search returns 5; loaded tools stay for the session.",
		Source:    "Claude Code, default since about 2026-03: all MCP tools deferred; see docs/presets.md",
		Trigger:   sim.Trigger{Mode: sim.TriggerAlways},
		Scope:     sim.ScopeMCP,
		Warm:      sim.WarmSet{Key: sim.WarmKeyName, Eviction: sim.EvictLRL},
		Injection: sim.InjectInline,
		Search:    sim.Search{Mode: "keyword", K: 5},
		Directory: sim.Directory{Format: sim.DirNames},
		Rejected:  sim.RejectRetry,
	}
}

// claudeCodeAuto10: defer when deferrable definitions reach 10% of the
// context window.
func claudeCodeAuto10() sim.Strategy {
	s := claudeCodeDefault()
	s.Description = "Claude Code auto:10: MCP tools deferred when their definitions take at least 10% of the context " +
		"window (counted with o200k_base, an assumption); otherwise as claude-code-default."
	s.Source = "Claude Code, auto:N setting (default N = 10); see docs/presets.md"
	s.Trigger = sim.Trigger{Mode: sim.TriggerPercent, Percent: claudeCodeAutoPercent, Counter: "o200k_base"}
	return s
}

// anthropicAPIResults is how many tools the Anthropic API's tool search
// returns by default (1 to 10,000 allowed).
const anthropicAPIResults = 5

// The Anthropic API's two tool-search variants (sim/search registers them).
const (
	anthropicBM25  = "bm25-anthropic"
	anthropicRegex = "regex"
)

// anthropicAPIInline: per-tool defer_loading on every MCP tool, tool
// references expanded inline, the API's BM25 variant, 5 results.
func anthropicAPIInline() sim.Strategy {
	return sim.Strategy{
		Description: "Anthropic API tool search, BM25 variant: every MCP tool marked defer_loading, local tools direct; " +
			"BM25 over names, descriptions and arguments, queries cut to 500 characters, 5 results; " +
			"tool references expanded inline (cached prefix untouched).",
		Source:    "Anthropic API tool search (2025-2026 docs): per-tool defer_loading, BM25 variant, inline tool_reference; see docs/presets.md",
		Trigger:   sim.Trigger{Mode: sim.TriggerAlways},
		Scope:     sim.ScopeMCP,
		Warm:      sim.WarmSet{Key: sim.WarmKeyName, Eviction: sim.EvictLRL},
		Injection: sim.InjectInline,
		Search:    sim.Search{Mode: anthropicBM25, K: anthropicAPIResults},
		Rejected:  sim.RejectRetry,
	}
}

// anthropicAPIInlineRegex: as anthropicAPIInline with the API's regex
// variant.
func anthropicAPIInlineRegex() sim.Strategy {
	s := anthropicAPIInline()
	s.Description = "Anthropic API tool search, regex variant: as anthropic-api-inline, but the model searches with a " +
		"regular expression (at most 200 characters) over names, descriptions and argument names and descriptions; 5 results."
	s.Source = "Anthropic API tool search (2025-2026 docs): per-tool defer_loading, regex variant, inline tool_reference; see docs/presets.md"
	s.Search = sim.Search{Mode: anthropicRegex, K: anthropicAPIResults}
	return s
}

// copilotCLI30: about 30 tools or more → defer MCP tools; the first lookup
// of a tool costs one more exchange and changes the tool list.
func copilotCLI30() sim.Strategy {
	return sim.Strategy{
		Description: "GitHub Copilot CLI: MCP tools deferred from about 30 tools (modelled as count > 29); " +
			"a lookup costs one more exchange and rebuilds tools[]; search algorithm undocumented (BM25 top 5 assumed).",
		Source:    "GitHub Copilot CLI (2025-2026 docs): tool count >= ~30; see docs/presets.md",
		Trigger:   sim.Trigger{Mode: sim.TriggerCount, Count: copilotCLICount},
		Scope:     sim.ScopeMCP,
		Warm:      sim.WarmSet{Key: sim.WarmKeyName, Eviction: sim.EvictLRL},
		Injection: sim.InjectToolsArray,
		Search:    sim.Search{Mode: "bm25", K: 5},
		Rejected:  sim.RejectRetry,
	}
}

// codexCLI: all MCP tools deferred, BM25 top 8, name-keyed loaded tools.
func codexCLI() sim.Strategy {
	return sim.Strategy{
		Description: "OpenAI Codex CLI: every MCP tool deferred; BM25 search, 8 results; loaded tools keyed by name " +
			"(stale after upgrades); tools[] rebuilt on load (assumed).",
		Source:    "OpenAI Codex CLI (2025-2026): all MCP deferred, BM25 top 8; see docs/presets.md",
		Trigger:   sim.Trigger{Mode: sim.TriggerAlways},
		Scope:     sim.ScopeMCP,
		Warm:      sim.WarmSet{Key: sim.WarmKeyName, Eviction: sim.EvictLRL},
		Injection: sim.InjectToolsArray,
		Search:    sim.Search{Mode: "bm25", K: 8},
		Rejected:  sim.RejectRetry,
	}
}

// qwenCode: threshold 0 (always defer); the tool list never changes, so a
// load behaves like an inline reference.
func qwenCode() sim.Strategy {
	return sim.Strategy{
		Description: "Qwen Code: always defer (threshold 0); tools are revealed through a search/call bridge, so the " +
			"tool list never changes (modelled as inline); search algorithm undocumented (BM25 top 5 assumed).",
		Source:    "Qwen Code (2025-2026): threshold lowered from 10 to 0 once revealing stopped rewriting the tool list; see docs/presets.md",
		Trigger:   sim.Trigger{Mode: sim.TriggerAlways},
		Scope:     sim.ScopeMCP,
		Warm:      sim.WarmSet{Key: sim.WarmKeyName, Eviction: sim.EvictLRL},
		Injection: sim.InjectInline,
		Search:    sim.Search{Mode: "bm25", K: 5},
		Rejected:  sim.RejectRetry,
	}
}
