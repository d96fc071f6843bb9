package sim

// Strategy is one deferral rule, as data. The zero value of each component
// is documented; Normalize fills defaults. Strategies are written in scenario
// files (docs/scenarios.md) or taken from presets (docs/presets.md).
type Strategy struct {
	Name        string `yaml:"name" json:"name"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
	// Source names the documented rule a preset reproduces (runtime and date).
	Source string `yaml:"source,omitempty" json:"source,omitempty"`

	Trigger Trigger `yaml:"trigger" json:"trigger"`
	// Scope says which tools are deferrable: "mcp" (every catalog tool; local
	// tools only when always-deferred) or "always-defer-only".
	Scope string `yaml:"scope,omitempty" json:"scope,omitempty"`
	// AlwaysDefer lists tool names or prefixes ("browser_*") deferred whenever
	// deferred mode is on, whatever the scope.
	AlwaysDefer []string `yaml:"always_defer,omitempty" json:"always_defer,omitempty"`
	// NeverDefer lists tool names or prefixes that always stay direct.
	NeverDefer []string `yaml:"never_defer,omitempty" json:"never_defer,omitempty"`

	Warm      WarmSet   `yaml:"warm" json:"warm"`
	Injection string    `yaml:"injection,omitempty" json:"injection,omitempty"` // tools-array | inline
	Search    Search    `yaml:"search" json:"search"`
	Directory Directory `yaml:"directory" json:"directory"`
	// Rejected is what happens to a call to a cold, unloaded tool: "retry"
	// (rejected; the model searches and calls again) or "execute" (executed
	// when its arguments validate).
	Rejected string `yaml:"rejected,omitempty" json:"rejected,omitempty"`
	// Transport is "eager" (connect every server at session start) or
	// "lazy" (connect a server on first use); see docs/engine.md §6.
	Transport string `yaml:"transport,omitempty" json:"transport,omitempty"`
	// Discovery is "eager" (list tools on connect), "cached" (tools known
	// from an earlier session's catalog) or "lazy" (list on first need).
	Discovery string `yaml:"discovery,omitempty" json:"discovery,omitempty"`
	// EchoSchema: a loaded schema is also returned as pretty-printed JSON in
	// the tool_search result (the anchor runtime does this).
	EchoSchema bool `yaml:"echo_schema,omitempty" json:"echo_schema,omitempty"`
	// CacheLayout is where the runtime marks cache breakpoints
	// (BreakpointLayouts), overriding the model's cache.layout; "" keeps
	// the model's. Caches without breakpoints (openai, none) ignore it.
	CacheLayout string `yaml:"cache_layout,omitempty" json:"cache_layout,omitempty"`
}

// Trigger is the rule that turns deferred mode on. Mode is one of never,
// always, count, tokens, percent; Categorical ORs "any cold tool is in an
// always-defer category" with it.
type Trigger struct {
	Mode string `yaml:"mode" json:"mode"`
	// Count: deferred mode when the registry holds more than Count tools.
	Count int `yaml:"count,omitempty" json:"count,omitempty"`
	// Budget: deferred mode when the estimated schema tokens of all registry
	// tools exceed Budget (strictly), counted with Counter.
	Budget  int64  `yaml:"budget,omitempty" json:"budget,omitempty"`
	Counter string `yaml:"counter,omitempty" json:"counter,omitempty"`
	// Percent: deferred mode when deferrable schema tokens are at least
	// Percent% of the model's context window.
	Percent     float64 `yaml:"percent,omitempty" json:"percent,omitempty"`
	Categorical bool    `yaml:"categorical,omitempty" json:"categorical,omitempty"`
}

// WarmSet configures the session-scoped memory of loaded schemas.
type WarmSet struct {
	// Key is "name" or "fingerprint".
	Key string `yaml:"key,omitempty" json:"key,omitempty"`
	// MaxTools and MaxTokens bound the set (0 = unbounded).
	MaxTools  int   `yaml:"max_tools,omitempty" json:"max_tools,omitempty"`
	MaxTokens int64 `yaml:"max_tokens,omitempty" json:"max_tokens,omitempty"`
	// Counter counts a schema for MaxTokens: a registered counter applied
	// to the tool's OpenAI function form ("bytes/3.5": the anchor runtime's
	// estimator), or "" for the tokens of its definition in tools[] (the
	// content counter plus tool_overhead_tokens).
	Counter string `yaml:"counter,omitempty" json:"counter,omitempty"`
	// Eviction is "lrl" (least recently loaded, never the newest) or "lru".
	Eviction string `yaml:"eviction,omitempty" json:"eviction,omitempty"`
	// Disabled: no warm set at all; a loaded schema serves only the request
	// right after the load (the anchor's first era).
	Disabled bool `yaml:"disabled,omitempty" json:"disabled,omitempty"`
	// Clear says when the whole set is emptied: "" or "never" (the keying
	// alone decides what survives a registry change), or "registry-change":
	// at the start of each run (a user message), when the registry's
	// fingerprint (every tool's server, name and definition) differs from
	// the one at the previous run start — the anchor runtime's rule.
	Clear string `yaml:"clear,omitempty" json:"clear,omitempty"`
}

// Search configures how the model loads a cold tool.
type Search struct {
	// Mode is a registered search mode: select (exact names, always a hit),
	// and the ranked modes registered by sim/search.
	Mode string `yaml:"mode,omitempty" json:"mode,omitempty"`
	// K is the number of results a ranked search returns.
	K int `yaml:"k,omitempty" json:"k,omitempty"`
	// Family lists prefix families: loading one member ("browser_*") also
	// loads the family core tools named in FamilyCore.
	Family     []string `yaml:"family,omitempty" json:"family,omitempty"`
	FamilyCore []string `yaml:"family_core,omitempty" json:"family_core,omitempty"`
	// KeywordRetries: keyword searches tried before falling back to select.
	KeywordRetries int `yaml:"keyword_retries,omitempty" json:"keyword_retries,omitempty"`
}

// Directory configures what the model is shown of deferred tools.
type Directory struct {
	// Format: none, names, names-desc (name plus description cut to
	// DescChars), by-server (names grouped under server headings),
	// by-domain (grouped by routing-description domain with each domain's
	// summary; docs/srd.md).
	Format    string `yaml:"format,omitempty" json:"format,omitempty"`
	DescChars int    `yaml:"desc_chars,omitempty" json:"desc_chars,omitempty"`
	// Notice: when the first tool of a domain is loaded, the runtime adds
	// the domain's activation notice to the conversation.
	Notice bool `yaml:"notice,omitempty" json:"notice,omitempty"`
}
