package traces

import (
	"encoding/json"
	"slices"
	"strings"
)

// The importers of chat-completions logs (docs/importers.md), named in the
// advice a chat-log line gets. The traces package cannot import them (they
// import it), so their names are spelled here; traces/importers
// TestChatLogImportersExist checks them against the registry.
const (
	openAIMessages    = "openai-messages"
	anthropicMessages = "anthropic-messages"
)

// ChatLogImporters are the importers a chat-log line's advice can name.
func ChatLogImporters() []string { return []string{openAIMessages, anthropicMessages} }

// chatShape is what a line of a chat-completions log looks like and the
// importers that take the file it comes from.
type chatShape struct {
	what string   // "an OpenAI chat-completions response (…)"
	from []string // importers, one when the line shows which API wrote it
	// note says what the importers read, when the line is only part of it.
	note string
}

// chatMessage is what the shape rules read of a chat message.
type chatMessage struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	ToolCalls    json.RawMessage `json:"tool_calls"`
	FunctionCall json.RawMessage `json:"function_call"`
}

// chatLog says whether top, the members of a line's JSON object, is a line
// of a chat-completions log that an importer takes rather than a trace
// event: a conversation ({"model", "messages": […]}, a request log, with
// a message naming its role), a
// response ({"choices": […]} from OpenAI; {"type": "message", "role",
// "content"} from Anthropic) or a message on its own ({"role", "content"}).
// The importer is told apart as docs/importers.md tells the two formats
// apart: OpenAI's tool_calls, function_call and roles tool, function,
// system and developer; Anthropic's tool blocks and top-level "system".
// A line showing neither (or both) names both importers.
func chatLog(line []byte, top map[string]json.RawMessage) (chatShape, bool) {
	var msgs []chatMessage
	switch {
	case isJSONArray(top["messages"]):
		if json.Unmarshal(top["messages"], &msgs) != nil || !slices.ContainsFunc(msgs, func(m chatMessage) bool { return m.Role != "" }) {
			return chatShape{}, false // not messages, or none with a role: the generic advice
		}
		return chatShape{what: `a chat-completions conversation ("messages")`, from: chatImporters(msgs, top["system"])}, true
	case isJSONArray(top["choices"]):
		return chatShape{what: `an OpenAI chat-completions response ("choices")`, from: []string{openAIMessages},
			note: `it reads conversations ({"messages": […]} per line): log each request's messages with the response's message appended`}, true
	case top["role"] != nil && top["content"] != nil:
		var m chatMessage
		if json.Unmarshal(line, &m) != nil || m.Role == "" {
			return chatShape{}, false
		}
		what := `a chat message on its own ("role", "content")`
		if string(top["type"]) == `"message"` {
			what = `an Anthropic Messages response ("type": "message", "role", "content")`
		}
		return chatShape{what: what, from: chatImporters([]chatMessage{m}, nil),
			note: `it reads whole conversations ({"messages": […]} per line), not one message per line`}, true
	}
	return chatShape{}, false
}

// chatImporters names the importer msgs (with a conversation's top-level
// system) show was written by one API, or both when they show neither or
// both.
func chatImporters(msgs []chatMessage, system json.RawMessage) []string {
	openAI, anthropic := false, false
	hasSystem := false
	for _, m := range msgs {
		switch m.Role {
		case "tool", "function", "developer":
			openAI = true
		case "system":
			openAI, hasSystem = true, true
		}
		if nonEmptyJSON(m.ToolCalls) || nonEmptyJSON(m.FunctionCall) {
			openAI = true
		}
		if hasToolBlock(m.Content) {
			anthropic = true
		}
	}
	if nonEmptyJSON(system) && !hasSystem {
		anthropic = true
	}
	switch {
	case openAI && !anthropic:
		return []string{openAIMessages}
	case anthropic && !openAI:
		return []string{anthropicMessages}
	}
	return []string{openAIMessages, anthropicMessages}
}

// hasToolBlock says whether content, a message's content, holds an
// Anthropic tool block: tool_use, server_tool_use, mcp_tool_use,
// tool_result or *_tool_result.
func hasToolBlock(content json.RawMessage) bool {
	var blocks []struct {
		Type string `json:"type"`
	}
	if !isJSONArray(content) || json.Unmarshal(content, &blocks) != nil {
		return false
	}
	return slices.ContainsFunc(blocks, func(b struct {
		Type string `json:"type"`
	}) bool {
		switch b.Type {
		case "tool_use", "server_tool_use", "mcp_tool_use", "tool_result":
			return true
		}
		return strings.HasSuffix(b.Type, "_tool_result")
	})
}

// chatAdvice is the reason's advice for a chat-log line: the import that
// converts its file.
func chatAdvice(c chatShape) string {
	froms := make([]string, len(c.from))
	for i, f := range c.from {
		froms[i] = "--from " + f
	}
	s := "a trace holds one event per line (docs/trace-format.md); convert the chat log: " + importHint +
		strings.TrimPrefix(strings.Join(froms, " or "), "--from ") + " FILE -o trace.jsonl.gz"
	if len(c.from) > 1 {
		s += " (whichever API wrote it: the line shows neither's tool calls)"
	}
	if c.note != "" {
		s += "; " + c.note
	}
	return s + " (docs/importers.md)"
}

func isJSONArray(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return strings.HasPrefix(t, "[")
}

// nonEmptyJSON says whether raw holds something: not absent, null, "",
// [] or {}.
func nonEmptyJSON(raw json.RawMessage) bool {
	switch strings.TrimSpace(string(raw)) {
	case "", "null", `""`, "[]", "{}":
		return false
	}
	return true
}
