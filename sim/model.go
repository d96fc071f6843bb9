package sim

import "github.com/defersim/defersim/tokens"

// Model describes the model a scenario replays against: prices, prompt
// cache and latency. Every field is a documented scenario key
// (docs/scenarios.md); presets come from REFERENCE figures.
type Model struct {
	Name string `yaml:"name" json:"name"`
	// ContextWindow in tokens: every request over it is counted
	// (ContextOverflow), and percent-of-context triggers compare with it.
	ContextWindow int64       `yaml:"context_window" json:"context_window"`
	Pricing       Pricing     `yaml:"pricing" json:"pricing"`
	Cache         CacheConfig `yaml:"cache" json:"cache"`
	Latency       Latency     `yaml:"latency" json:"latency"`
}

// Pricing is list price in USD per million tokens. Cache writes and reads
// are priced as Input times the cache's multipliers.
type Pricing struct {
	InputPerMTok  float64 `yaml:"input_per_mtok" json:"input_per_mtok"`
	OutputPerMTok float64 `yaml:"output_per_mtok" json:"output_per_mtok"`
}

// CacheConfig parameterises a prompt-cache model.
type CacheConfig struct {
	// Kind is a registered cache model: "anthropic" (explicit breakpoints,
	// prefix match), "openai" (automatic prefix caching) or "none".
	Kind string `yaml:"kind" json:"kind"`
	// TTLSeconds: an entry expires this long after its last write or read.
	TTLSeconds float64 `yaml:"ttl_s" json:"ttl_s"`
	// MinTokens: prefixes shorter than this are not cached.
	MinTokens int64 `yaml:"min_tokens" json:"min_tokens"`
	// Breakpoints (anthropic): at most this many cache breakpoints per request.
	Breakpoints int `yaml:"breakpoints,omitempty" json:"breakpoints,omitempty"`
	// Lookback (anthropic): a breakpoint finds a cached prefix at most this
	// many blocks before it.
	Lookback int `yaml:"lookback,omitempty" json:"lookback,omitempty"`
	// Layout (anthropic): where requests mark breakpoints, unless the
	// strategy says (Strategy.CacheLayout): "last-message" (default) or
	// "current-user" (BreakpointLayouts).
	Layout string `yaml:"layout,omitempty" json:"layout,omitempty"`
	// Step (openai): cached prefixes are counted in steps of this many tokens.
	Step            int64   `yaml:"step,omitempty" json:"step,omitempty"`
	WriteMultiplier float64 `yaml:"write_multiplier" json:"write_multiplier"`
	ReadMultiplier  float64 `yaml:"read_multiplier" json:"read_multiplier"`
}

// Latency parameterises request time: OverheadMs + the request kind's term
// (Kinds) + uncached prompt tokens / PrefillTPS + cached prompt tokens /
// CachedPrefillTPS gives the time to first token; output tokens / DecodeTPS
// is added for the request's duration.
type Latency struct {
	OverheadMs       float64 `yaml:"overhead_ms" json:"overhead_ms"`
	PrefillTPS       float64 `yaml:"prefill_tps" json:"prefill_tps"`
	CachedPrefillTPS float64 `yaml:"cached_prefill_tps" json:"cached_prefill_tps"`
	DecodeTPS        float64 `yaml:"decode_tps" json:"decode_tps"`
	// JitterCV is the coefficient of variation of a multiplicative lognormal
	// noise on each request's time (0 = deterministic constants).
	JitterCV float64 `yaml:"jitter_cv,omitempty" json:"jitter_cv,omitempty"`
	// Kinds adds time to first token by request kind (requestkind.go):
	// the first request of a user turn or one after tool results,
	// returning text or tool calls, or repeating the previous request's
	// calls. All zero by default.
	Kinds KindMs `yaml:"kind_ms,omitempty" json:"kind_ms,omitzero"`
}

// Params are the replay's named assumptions: behaviours that cannot be
// derived from a trace. Each is a scenario key and can be swept.
type Params struct {
	// Tokenizer names the token counter for prompt content ("o200k_base",
	// "cl100k_base", "bytes/3.5").
	Tokenizer string `yaml:"tokenizer" json:"tokenizer"`
	// TokenScale multiplies every count of Tokenizer (schemas, directories,
	// system prompts, message text, arguments, results), each item rounded
	// to a whole token: the model's own tokenizer may count the same text
	// differently (Claude's is not published, docs/presets.md). 1 (the
	// default) keeps the counts as the tokenizer gives them; counts a trace
	// records, sizes converted by BytesPerToken, the overheads below (but
	// SearchToolTokens, a count of Tokenizer) and a strategy's own estimate
	// counter are not scaled.
	TokenScale float64 `yaml:"token_scale" json:"token_scale,omitzero"`
	// MessageOverheadTokens: framing tokens the provider adds per message.
	MessageOverheadTokens int64 `yaml:"message_overhead_tokens" json:"message_overhead_tokens"`
	// ToolOverheadTokens: framing tokens per tool definition in tools[].
	ToolOverheadTokens int64 `yaml:"tool_overhead_tokens" json:"tool_overhead_tokens"`
	// RequestOverheadTokens: fixed tokens per request (tool-use system preamble).
	RequestOverheadTokens int64 `yaml:"request_overhead_tokens" json:"request_overhead_tokens"`
	// SearchToolTokens: tokens of the tool_search tool's own definition,
	// counted by Tokenizer (the default is o200k_base's count of
	// defersim's definition), so scaled by TokenScale like every other
	// definition: SearchToolCount.
	SearchToolTokens int64 `yaml:"search_tool_tokens" json:"search_tool_tokens"`
	// DefaultToolMs: a tool call's time when the trace does not record it.
	DefaultToolMs float64 `yaml:"default_tool_ms" json:"default_tool_ms"`
	// SearchExecMs: execution time of one tool_search call.
	SearchExecMs float64 `yaml:"search_exec_ms" json:"search_exec_ms"`
	// UserThinkMs: pause before a user message when the trace has no timestamps.
	UserThinkMs float64 `yaml:"user_think_ms" json:"user_think_ms"`
	// NudgeProb: probability that the model answers with text only after a
	// load, costing a continuation nudge (one more request).
	NudgeProb float64 `yaml:"nudge_prob" json:"nudge_prob"`
	// ColdCallProb: probability that the model calls a cold tool directly,
	// without searching first (it guesses the schema from the directory).
	ColdCallProb float64 `yaml:"cold_call_prob" json:"cold_call_prob"`
	// ColdCallWellFormedProb: probability such a guessed call is well formed.
	ColdCallWellFormedProb float64 `yaml:"cold_call_well_formed_prob" json:"cold_call_well_formed_prob"`
	// NudgeTokens: tokens of a continuation nudge round trip (the model's
	// text-only reply plus the runtime's nudge message).
	NudgeTokens int64 `yaml:"nudge_tokens" json:"nudge_tokens"`
	// BytesPerToken converts a recorded size to tokens when the trace keeps
	// only sizes (result_bytes) and no text or token count.
	BytesPerToken float64 `yaml:"bytes_per_token" json:"bytes_per_token"`
	// QueryModel says what keyword query the model writes for a needed tool
	// when the trace recorded none: "auto" (bm25 modes: the user's text;
	// keyword mode: its content words; substring and regex modes: the
	// longest word of the tool's name when the directory shows names, else a
	// content word of the user's text), "user-text" or "name-words".
	QueryModel string `yaml:"query_model" json:"query_model"`
	// CacheWarmStart: probability that a session starts with its static
	// prefix (tools, system prompt, directory) already in the prompt cache,
	// written by other sessions of the fleet within the TTL (0 = every
	// session starts cold).
	CacheWarmStart float64 `yaml:"cache_warm_start" json:"cache_warm_start"`
	// ConnectMs and ListMs: a server's connection (process start to
	// initialize answered) and tools/list times when its catalog metadata
	// does not record them.
	ConnectMs float64 `yaml:"connect_ms" json:"connect_ms"`
	ListMs    float64 `yaml:"list_ms" json:"list_ms"`
	// RelistProb: probability that a version change of a server the
	// session has listed (by a tools/list call: not under discovery
	// cached) makes the client list it again, as an MCP client does on
	// notifications/tools/list_changed; the list time delays the next
	// request. 0 (the default): a version change lists nothing.
	RelistProb float64 `yaml:"relist_prob" json:"relist_prob,omitempty"`
	// SelectProb: probability the model asks for a tool it can name exactly
	// (shown in the directory) with select: rather than a keyword query.
	SelectProb float64 `yaml:"select_prob" json:"select_prob"`
}

// SearchToolCount is the tokens the tool_search definition costs in a
// request: SearchToolTokens, a count of Tokenizer, times TokenScale
// (rounded as each counted item is), as every other tool definition.
func (p Params) SearchToolCount() int64 { return tokens.Scale(p.SearchToolTokens, p.TokenScale) }
