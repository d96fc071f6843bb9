package presets

import "github.com/defersim/defersim/sim"

// The anchor runtime's rules, one preset per dated era (REFERENCE §1).

// allMatches is the search k used for the anchor's early substring and
// keyword searches, which returned every match: the largest k allowed.
const allMatches = sim.MaxSearchK

// anchorBudgetTokens is the anchor's schema-token budget (E1 onwards):
// deferred mode when the bytes/3.5 estimate of all registry tools is
// strictly greater than this.
const anchorBudgetTokens = 8000

// anchorEstimator is the anchor runtime's token estimator: compact JSON of
// the wire tool in the OpenAI function form, bytes / 3.5 rounded up per
// tool. It counts the budget (E1 on) and the warm cap (E9).
const anchorEstimator = "bytes/3.5"

// anchorCountThreshold is the anchor's first trigger (E0): deferred mode
// when the registry holds more than this many tools.
const anchorCountThreshold = 30

// Anchor warm-set caps from E9.
const (
	anchorWarmMaxTools  = 16
	anchorWarmMaxTokens = 8000
)

// anchorAlwaysDefer returns the anchor's always-defer list (E4–E6): local
// desktop, process and scheduling tools by name, and every browser_ tool.
func anchorAlwaysDefer() []string {
	return []string{
		"computer", "screenshot", "applescript", "accessibility", "computer_use",
		"wait_for", "ghostty", "process",
		"schedule_create", "schedule_list", "schedule_remove", "schedule_update",
		"browser_*",
	}
}

// anchorNeverDefer returns the session openers the anchor keeps direct
// from E6 on.
func anchorNeverDefer() []string { return []string{"web_search", "web_fetch"} }

// browserFamily returns the prefix family whose members expand on load.
func browserFamily() []string { return []string{"browser_*"} }

// browserCoreTools returns the family core loaded with any browser_ tool
// under family expansion. REFERENCE §1 says seven core tools are loaded but
// does not name them; these are the seven most common browser tool names in
// the published browser MCP servers of the real-data catalogs. A scenario
// can replace the list (search.family_core).
func browserCoreTools() []string {
	return []string{
		"browser_navigate", "browser_snapshot", "browser_click", "browser_type",
		"browser_press_key", "browser_take_screenshot", "browser_wait_for",
	}
}

// anchorE0: more than 30 tools → defer every MCP tool; substring search
// returning all matches; tools[] rebuilt; no warm set.
func anchorE0() sim.Strategy {
	return sim.Strategy{
		Description: "Anchor E0: defer MCP tools when the registry holds more than 30 tools; " +
			"substring search, every match loaded; no warm set (a schema serves one request); tools[] rebuilt.",
		Source:     "anchor runtime, era E0 (2026-04-01): count > 30; see docs/presets.md",
		Trigger:    sim.Trigger{Mode: sim.TriggerCount, Count: anchorCountThreshold},
		Scope:      sim.ScopeMCP,
		Warm:       sim.WarmSet{Disabled: true},
		Injection:  sim.InjectToolsArray,
		Search:     sim.Search{Mode: "substring", K: allMatches},
		Rejected:   sim.RejectExecute,
		EchoSchema: true,
		// The runtime's four cache breakpoints: system, last tool, current
		// user message, second-to-last message (every era).
		CacheLayout: sim.LayoutCurrentUser,
	}
}

// anchorE1: budget of 8,000 bytes/3.5 tokens over all registry tools,
// session warm set keyed by name.
func anchorE1() sim.Strategy {
	s := anchorE0()
	s.Description = "Anchor E1: defer MCP tools when the bytes/3.5 estimate of all registry schemas exceeds 8,000 tokens; " +
		"unbounded name-keyed session warm set, emptied at a run start when the registry's fingerprint changed; " +
		"tools[] rebuilt; loaded schema echoed in the search result."
	s.Source = "anchor runtime, era E1 (2026-04-02): estimated tokens > 8,000 (strict); see docs/presets.md"
	s.Trigger = sim.Trigger{Mode: sim.TriggerTokens, Budget: anchorBudgetTokens, Counter: anchorEstimator}
	s.Warm = sim.WarmSet{Key: sim.WarmKeyName, Eviction: sim.EvictLRL, Clear: sim.WarmClearRegistryChange}
	return s
}

// anchorE4: E1 OR any cold tool in the always-defer categories.
func anchorE4() sim.Strategy {
	s := anchorE1()
	s.Description = "Anchor E4: E1's budget OR any cold always-defer tool (desktop, process, scheduling, browser_*) " +
		"turns deferred mode on; those local tools become deferrable too."
	s.Source = "anchor runtime, era E4 (2026-04-30): budget OR categorical; see docs/presets.md"
	s.Trigger.Categorical = true
	s.AlwaysDefer = anchorAlwaysDefer()
	return s
}

// anchorE6: E4 with the session openers kept direct and keyword search.
func anchorE6() sim.Strategy {
	s := anchorE4()
	s.Description = "Anchor E6: E4, but web_search and web_fetch are never deferred (openers); keyword-term search."
	s.Source = "anchor runtime, era E6 (2026-07-21): never-defer openers; see docs/presets.md"
	s.NeverDefer = anchorNeverDefer()
	s.Search = sim.Search{Mode: "keyword", K: allMatches}
	return s
}

// anchorE7: per-tool exposure: every MCP tool deferred; deferred mode
// while any deferred tool is cold; BM25 top 8.
func anchorE7() sim.Strategy {
	s := anchorE6()
	s.Description = "Anchor E7: per-tool exposure: MCP tools always deferred, local tools direct unless listed; " +
		"deferred mode (tool_search and the directory) while any deferred tool is cold; BM25 search, top 8."
	s.Source = "anchor runtime, era E7 (2026-07-27): per-tool, any cold deferred tool; see docs/presets.md"
	s.Trigger = sim.Trigger{Mode: sim.TriggerAnyCold, Counter: anchorEstimator}
	s.Search = sim.Search{Mode: "bm25", K: 8}
	return s
}

// anchorE9: E7 with a capped warm set, browser family expansion, and
// rejected cold calls (from Aug 1).
func anchorE9() sim.Strategy {
	s := anchorE7()
	s.Description = "Anchor E9: E7 with the warm set capped at 16 schemas / 8,000 tokens (the bytes/3.5 estimate; evict least " +
		"recently loaded, never the newest), browser family expansion, and cold calls rejected."
	s.Source = "anchor runtime, era E9 (2026-08-07 to 08-12): warm cap 16 / 8,000; cold calls rejected since 2026-08-01; see docs/presets.md"
	s.Warm.MaxTools, s.Warm.MaxTokens, s.Warm.Counter = anchorWarmMaxTools, anchorWarmMaxTokens, anchorEstimator
	s.Search.Family = browserFamily()
	s.Search.FamilyCore = browserCoreTools()
	s.Rejected = sim.RejectRetry
	return s
}
