package anthropicmsg

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// openAIMessage refuses a message of role role that is OpenAI's structure
// for what Anthropic Messages express otherwise, which anthropic-messages
// would drop: an assistant message's tool_calls or legacy function_call
// (Anthropic: tool_use blocks), a role "tool" or "function" result
// (Anthropic: tool_result blocks in a user message), a role "system" or
// "developer" message (Anthropic: the top-level "system" member).
func openAIMessage(m *ingest.Object, role string) error {
	found := ""
	switch role {
	case "assistant":
		switch n, legacy := ingest.OpenAIToolCalls(m.Peek("tool_calls"), m.Peek("function_call")); {
		case legacy:
			found = "assistant message with function_call, a tool call anthropic-messages would drop"
		case n > 0:
			found = fmt.Sprintf("assistant message with tool_calls, %s anthropic-messages would drop", nouns.Count(n, "tool call"))
		}
	case "tool", "function":
		found = "message with role " + role + ", a tool result anthropic-messages would drop"
	case "system", "developer":
		found = "message with role " + role + `, a system prompt anthropic-messages would drop: it reads the top-level "system" member`
	}
	if found == "" {
		return openAIUsage(m)
	}
	return ingest.OtherFormat(m.Pos, Format, "openai-messages", found)
}

// openAIUsage refuses a message whose usage counts tokens in OpenAI's
// members only (prompt_tokens above 0 without input_tokens, or
// completion_tokens above 0 without output_tokens): anthropic-messages
// reads input_tokens and output_tokens, so the import would drop them.
func openAIUsage(m *ingest.Object) error {
	u := ingest.UsageCounts(m.Peek("usage"))
	for _, k := range [][2]string{{"prompt_tokens", "input_tokens"}, {"completion_tokens", "output_tokens"}} {
		if _, ok := u[k[1]]; !ok && u[k[0]] > 0 {
			return ingest.OtherFormat(m.Pos+".usage", Format, "openai-messages",
				"usage with "+k[0]+" and no "+k[1]+", token counts anthropic-messages would drop")
		}
	}
	return nil
}
