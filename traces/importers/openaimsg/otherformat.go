package openaimsg

import (
	"encoding/json"
	"fmt"

	"github.com/defersim/defersim/internal/termsafe"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// anthropicSystem refuses a conversation object whose system prompt is
// Anthropic's top-level "system" member while no message carries one:
// openai-messages reads the system prompt from messages only, so the
// import would drop it. A conversation with a system message keeps that
// one (the member is then counted as not mapped).
func anthropicSystem(conv *ingest.Object, msgs []json.RawMessage) error {
	raw := conv.Peek("system")
	if raw == nil || string(ingest.Compact(raw)) == `""` || string(ingest.Compact(raw)) == `[]` {
		return nil
	}
	for _, m := range msgs {
		var msg struct {
			Role string `json:"role"`
		}
		if json.Unmarshal(m, &msg) == nil && (msg.Role == "system" || msg.Role == "developer") {
			return nil
		}
	}
	return ingest.OtherFormat(conv.Pos, Format, "anthropic-messages",
		`top-level "system" member, a system prompt openai-messages would drop: it reads messages with role system`)
}

// anthropicBlocks refuses a message whose content holds Anthropic's tool
// blocks (tool_use, server_tool_use, mcp_tool_use, tool_result,
// *_tool_result; the type is printed terminal-safe, as it comes from the
// input): openai-messages reads tool calls from tool_calls and
// results from role "tool" messages, so the import would drop them.
func anthropicBlocks(m *ingest.Object) error {
	var parts []json.RawMessage
	if json.Unmarshal(m.Peek("content"), &parts) != nil {
		return nil
	}
	for i, p := range parts {
		var part struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(p, &part) != nil {
			continue
		}
		what := ingest.AnthropicToolBlock(part.Type)
		if what == "" {
			continue
		}
		return ingest.OtherFormat(fmt.Sprintf("%s.content[%d]", m.Pos, i), Format, "anthropic-messages",
			fmt.Sprintf("content block of type %s, %s openai-messages would drop", termsafe.String(part.Type), what))
	}
	return nil
}

// anthropicUsage refuses a message whose usage is Anthropic's split of the
// prompt: cache_read_input_tokens or cache_creation_input_tokens above 0
// and no prompt_tokens. openai-messages reads the cached part from
// prompt_tokens_details.cached_tokens, so the import would drop it (a
// chat-completions usage that also names them, as proxies write it, has
// prompt_tokens and is read as before).
func anthropicUsage(m *ingest.Object) error {
	u := ingest.UsageCounts(m.Peek("usage"))
	if _, ok := u["prompt_tokens"]; ok {
		return nil
	}
	for _, k := range []string{"cache_read_input_tokens", "cache_creation_input_tokens"} {
		if u[k] > 0 {
			return ingest.OtherFormat(m.Pos+".usage", Format, "anthropic-messages",
				"usage with "+k+" and no prompt_tokens, cached prompt tokens openai-messages would drop")
		}
	}
	return nil
}
