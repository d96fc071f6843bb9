package scenarios

import (
	"strings"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/tokens"
)

// searchToolTokens counts defersim's tool_search definition with the
// scenario's tokenizer when it is an estimate (bytes/N) and the file
// writes no params.search_tool_tokens: the default is the definition's
// o200k_base count, which every tiktoken encoding gives too (sim/presets
// TestDefaultParams), so only bytes/N counts it otherwise; loading an
// encoding's ranks here would only slow the load (the fuzzer's inputs
// timed out on it).
func (d *decoder) searchToolTokens(p *sim.Params) {
	if _, wrote := d.lines["params.search_tool_tokens"]; wrote || !strings.HasPrefix(p.Tokenizer, "bytes/") {
		return
	}
	if c, err := tokens.ByName(p.Tokenizer); err == nil { // validated: bytes/N with N > 0
		p.SearchToolTokens = c.Count(presets.SearchToolDefinition())
	}
}
