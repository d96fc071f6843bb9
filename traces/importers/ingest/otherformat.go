package ingest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// OtherFormat is the error of an importer that finds, at pos of an input
// it was told is of format, the distinguishing structure of another format
// that carries something the import would drop (a tool call, a tool
// result, the system prompt). Importing on with exit status 0 would give a
// clean-looking trace of an input the importer did not understand; found
// says what was found and what would be lost.
func OtherFormat(pos, format, other, found string) error {
	return fmt.Errorf("%s: not %s: looks like %s (%s); use --from %s", posOrTop(pos), format, other, found, other)
}

// UsageCounts returns the integer members of a usage object (raw), by
// name; members that are not integers, and a usage that is not an object,
// give none.
func UsageCounts(raw []byte) map[string]int64 {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	out := map[string]int64{}
	for k, v := range m {
		if n, err := ParseInt(v); err == nil {
			out[k] = n
		}
	}
	return out
}

// AnthropicToolBlock says what a content block of type typ is when only
// Anthropic Messages have it: "a tool call" (tool_use, server_tool_use,
// mcp_tool_use), "a tool result" (tool_result, *_tool_result), else "".
// The openai-messages importer refuses such blocks and the format sniffer
// recognises Anthropic Messages by them: one rule for both.
func AnthropicToolBlock(typ string) string {
	switch {
	case typ == "tool_use" || typ == "server_tool_use" || typ == "mcp_tool_use":
		return "a tool call"
	case strings.HasSuffix(typ, "tool_result"):
		return "a tool result"
	}
	return ""
}

// OpenAIToolCalls counts the tool calls of an assistant message in the
// structures only OpenAI's chat messages have: its tool_calls array, or
// a legacy function_call object (legacy true, calls 1). The
// anthropic-messages importer refuses them and the format sniffer
// recognises OpenAI messages by them.
func OpenAIToolCalls(toolCalls, functionCall json.RawMessage) (calls int, legacy bool) {
	var cs []json.RawMessage
	if json.Unmarshal(toolCalls, &cs) == nil && len(cs) > 0 {
		return len(cs), false
	}
	if FirstByte(functionCall) == '{' {
		return 1, true
	}
	return 0, false
}

// OpenAIOnlyRole reports whether a message role is one only OpenAI's chat
// messages use: tool and function (results), system and developer (the
// system prompt, which Anthropic Messages give as a top-level member).
func OpenAIOnlyRole(role string) bool {
	return role == "tool" || role == "function" || role == "system" || role == "developer"
}
