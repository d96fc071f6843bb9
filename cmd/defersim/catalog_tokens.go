package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/tokens"
)

// tokenFlags are the flags that say how catalog diff and history count
// the tokens of an upgrade. Their defaults are the replay's: its default
// tokenizer, the anthropic wire form it counts in tools[], and the default
// model params' tool_overhead_tokens.
type tokenFlags struct {
	counter  string
	form     string
	overhead int64
}

func addTokenFlags(c *cobra.Command) *tokenFlags {
	p := presets.DefaultParams()
	tf := &tokenFlags{}
	f := c.Flags()
	f.StringVar(&tf.counter, "counter", p.Tokenizer, "counter of each tool's tokens: o200k_base, cl100k_base or bytes/N")
	f.StringVar(&tf.form, "form", string(catalog.FormAnthropic), "bytes counted per tool: anthropic, openai or mcp")
	f.Int64Var(&tf.overhead, "tool-overhead", p.ToolOverheadTokens, "framing tokens a request adds per tool definition (the per-request figure only)")
	return tf
}

// options resolves the flags; the counter is memoised (a history counts
// the unchanged tools of every version).
func (tf *tokenFlags) options(cmd *cobra.Command) (catalog.TokenOptions, error) {
	c, err := tokens.ByName(tf.counter)
	if err != nil {
		return catalog.TokenOptions{}, fmt.Errorf("--counter: %w", err)
	}
	form, err := catalog.ParseWireForm(tf.form)
	if err != nil {
		return catalog.TokenOptions{}, fmt.Errorf("--form: %w", err)
	}
	if tf.overhead < 0 {
		return catalog.TokenOptions{}, fmt.Errorf("--tool-overhead must be 0 or more, not %d", tf.overhead)
	}
	source := "the default model params"
	if cmd.Flags().Changed("tool-overhead") {
		source = "--tool-overhead"
	}
	return catalog.TokenOptions{Counter: tokens.NewMemo(c), Form: form, ToolOverhead: tf.overhead, OverheadSource: source}, nil
}
