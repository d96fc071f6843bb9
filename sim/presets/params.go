package presets

import "github.com/defersim/defersim/sim"

// searchToolDefinition is defersim's own tool_search definition, in the
// Anthropic wire form. Its o200k_base token count is searchToolTokens
// (pinned by a test).
const searchToolDefinition = `{"name":"tool_search","description":"Load the full definitions of deferred tools so they can be called. ` +
	`Pass select:name1,name2 to load tools by exact name, or a few keywords to search tool names and descriptions. ` +
	`Loaded tools are callable from the next turn on.","input_schema":{"type":"object","properties":{"query":{"type":"string",` +
	`"description":"select:<tool names> or search keywords"}},"required":["query"]}}`

// searchToolTokens is the o200k_base token count of searchToolDefinition.
const searchToolTokens = 87

// SearchToolDefinition returns the wire JSON of the tool_search tool the
// simulator adds in deferred mode: the text params.search_tool_tokens
// counts (a scenario naming another tokenizer counts it with that one).
func SearchToolDefinition() []byte { return []byte(searchToolDefinition) }

// DefaultParams returns the replay's default assumptions. Each value and
// its source is listed in docs/presets.md.
func DefaultParams() sim.Params {
	return sim.Params{
		Tokenizer:              "o200k_base",
		TokenScale:             1,
		MessageOverheadTokens:  4,
		ToolOverheadTokens:     8,
		RequestOverheadTokens:  346,
		SearchToolTokens:       searchToolTokens,
		DefaultToolMs:          500,
		SearchExecMs:           1,
		UserThinkMs:            10000,
		NudgeProb:              0,
		ColdCallProb:           0,
		ColdCallWellFormedProb: 0.5,
		NudgeTokens:            40,
		BytesPerToken:          4.5,
		SelectProb:             0.5,
		QueryModel:             "auto",
		CacheWarmStart:         0,
		ConnectMs:              300,
		ListMs:                 10,
		RelistProb:             0,
	}
}
