package otel

import (
	"encoding/json"
	"strings"
)

// message is one GenAI semantic-conventions message: a role and parts.
type message struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

// part is one message part: text, a tool call, a tool call response, …
type part struct {
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func (p part) text() string {
	var s string
	if json.Unmarshal(p.Content, &s) == nil {
		return s
	}
	return ""
}

// partsText joins the text parts of system instructions (an array of parts
// or a plain string).
func partsText(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.text())
		}
	}
	return strings.Join(texts, "\n")
}

// newUserTexts returns the texts of user messages in an input that earlier
// inputs did not hold (inputs repeat the history, so only the user messages
// beyond the count seen so far are new).
func (c *converter) newUserTexts(raw json.RawMessage) []string {
	if raw == nil {
		return nil
	}
	var msgs []message
	if json.Unmarshal(raw, &msgs) != nil {
		c.rep.Unmap("gen_ai.input.messages (unreadable)")
		return nil
	}
	var users []string
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		var texts []string
		for _, p := range m.Parts {
			if p.Type == "text" {
				texts = append(texts, p.text())
			}
		}
		if len(texts) > 0 {
			users = append(users, strings.Join(texts, "\n"))
		}
	}
	if len(users) <= c.users {
		return nil
	}
	fresh := users[c.users:]
	c.users = len(users)
	return fresh
}

// namedCall is a tool call named in an output message.
type namedCall struct {
	outputCall
	id string
}

// outputParts returns the assistant text and the tool calls of output messages.
func outputParts(raw json.RawMessage) (string, []namedCall) {
	if raw == nil {
		return "", nil
	}
	var msgs []message
	if json.Unmarshal(raw, &msgs) != nil {
		return "", nil
	}
	var texts []string
	var calls []namedCall
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch p.Type {
			case "text":
				texts = append(texts, p.text())
			case "tool_call":
				if p.Name != "" {
					calls = append(calls, namedCall{outputCall: outputCall{name: p.Name, args: p.Arguments}, id: p.ID})
				}
			}
		}
	}
	return strings.Join(texts, "\n"), calls
}
