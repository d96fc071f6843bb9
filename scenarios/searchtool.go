package scenarios

import (
	"strings"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/tokens"
)

// searchToolTokens counts defersim's tool_search definition with the
// scenario's tokenizer when the file names a tokenizer other than the
// default and writes no params.search_tool_tokens: the default is the
// definition's o200k_base count, which a replay counting every other
// definition with another tokenizer would mix in. Only bytes/N counts it
// otherwise. A tokenizer the tokens package does not know (a counter
// registered by a program embedding the engine) keeps the default; the
// engine resolves its name.
func (d *decoder) searchToolTokens(p *sim.Params) {
	if _, wrote := d.lines["params.search_tool_tokens"]; wrote {
		return
	}
	if p.Tokenizer == presets.DefaultParams().Tokenizer || !strings.HasPrefix(p.Tokenizer, "bytes/") {
		// Every tiktoken encoding counts the definition as the default
		// does (sim/presets TestDefaultParams): loading its ranks here
		// would only slow the load (the fuzzer's inputs timed out on it).
		return
	}
	c, err := tokens.ByName(p.Tokenizer)
	if err != nil {
		return
	}
	p.SearchToolTokens = c.Count(presets.SearchToolDefinition())
}
