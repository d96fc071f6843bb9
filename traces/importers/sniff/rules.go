package sniff

import (
	"encoding/json"

	"github.com/defersim/defersim/traces/importers/anthropicmsg"
	"github.com/defersim/defersim/traces/importers/claudecode"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/openaimsg"
	"github.com/defersim/defersim/traces/importers/otel"
	"github.com/defersim/defersim/traces/importers/sweagent"
	"github.com/defersim/defersim/traces/importers/tau2"
	"github.com/defersim/defersim/traces/importers/taubench"
	"github.com/defersim/defersim/traces/importers/toolbench"
)

// rule recognises one format's distinguishing structure in a record: match
// returns what it found, or "" when the record does not have it.
type rule struct {
	format string
	match  func(r record) string
}

// rules are the formats' distinguishing structures, one rule per format
// (docs/importers.md lists them). Each names members only that format
// writes at that place; the structures two formats share (a conversation
// of text messages) match no rule.
var rules = []rule{
	// tau-bench: runs {task_id, trial, reward, info, traj}.
	{taubench.Format, func(r record) string {
		if isArray(r.obj["traj"]) && r.obj["task_id"] != nil {
			return `runs with "task_id" and "traj"`
		}
		return ""
	}},
	// tau2: one results object {timestamp, info, tasks, simulations}.
	{tau2.Format, func(r record) string {
		if !isArray(r.obj["simulations"]) {
			return ""
		}
		switch {
		case isArray(r.obj["tasks"]):
			return `an object with "tasks" and "simulations"`
		case isObject(r.obj["info"]):
			return `an object with "info" and "simulations"`
		}
		return ""
	}},
	// openai-messages: a conversation ("messages", or a bare array of
	// messages) with an assistant message's tool_calls or function_call,
	// or a message of role tool, function, system or developer.
	{openaimsg.Format, func(r record) string { return openAIMessages(conversation(r)) }},
	// anthropic-messages: a conversation with a content block of type
	// tool_use, server_tool_use, mcp_tool_use or *tool_result, or a
	// top-level "system" while no message has role system or developer.
	{anthropicmsg.Format, func(r record) string {
		msgs := conversation(r)
		if msgs == nil {
			return ""
		}
		if w := anthropicBlocks(msgs); w != "" {
			return w
		}
		if s := r.obj["system"]; s != nil && !ingest.IsEmpty(s) && !hasSystemMessage(msgs) {
			return `a conversation with a top-level "system" and no system message`
		}
		return ""
	}},
	// otel: OTLP JSON exports {resourceSpans: […]}.
	{otel.Format, func(r record) string {
		if isArray(r.obj["resourceSpans"]) {
			return `an OTLP export with "resourceSpans"`
		}
		return ""
	}},
	// claude-code: JSON Lines records {type, sessionId, uuid, …}, or a
	// summary record {type: summary, leafUuid}.
	{claudecode.Format, func(r record) string {
		if isString(r.obj["type"]) && isString(r.obj["sessionId"]) && isString(r.obj["uuid"]) {
			return `records with "type", "sessionId" and "uuid"`
		}
		if str(r.obj["type"]) == "summary" && isString(r.obj["leafUuid"]) {
			return `a summary record with "leafUuid"`
		}
		return ""
	}},
	// swe-agent: a trajectory object {trajectory, history, info, …}, or
	// one with a "history" only (demonstrations) whose first message names
	// its "agent".
	{sweagent.Format, func(r record) string {
		switch traj := isArray(r.obj["trajectory"]); {
		case traj && isArray(r.obj["history"]):
			return `an object with "trajectory" and "history"`
		case traj && isObject(r.obj["info"]):
			return `an object with "trajectory" and "info"`
		case !traj && agentMessage(r.obj["history"]):
			return `an object with "history" of messages with "agent"`
		}
		return ""
	}},
	// toolbench: an answer object {answer_generation: {…}, tree, …}.
	{toolbench.Format, func(r record) string {
		if isObject(r.obj["answer_generation"]) {
			return `an object with "answer_generation"`
		}
		return ""
	}},
}

// conversation returns the messages of a record that is a conversation:
// an object's "messages" array or a bare array of messages; nil otherwise.
func conversation(r record) []json.RawMessage {
	if r.msgs != nil {
		return r.msgs
	}
	var msgs []json.RawMessage
	if json.Unmarshal(r.obj["messages"], &msgs) != nil {
		return nil
	}
	return msgs
}

// openAIMessages finds the first structure of msgs only OpenAI's
// chat-completions messages have.
func openAIMessages(msgs []json.RawMessage) string {
	for _, raw := range msgs {
		m := object(raw)
		role := str(m["role"])
		if role == "assistant" {
			switch n, legacy := ingest.OpenAIToolCalls(m["tool_calls"], m["function_call"]); {
			case legacy:
				return `an assistant message with "function_call"`
			case n > 0:
				return `an assistant message with "tool_calls"`
			}
		}
		if ingest.OpenAIOnlyRole(role) {
			return "a message with role " + role
		}
	}
	return ""
}

// anthropicBlocks finds the first content block of msgs of a type only
// Anthropic Messages have.
func anthropicBlocks(msgs []json.RawMessage) string {
	for _, raw := range msgs {
		var parts []json.RawMessage
		if json.Unmarshal(object(raw)["content"], &parts) != nil {
			continue
		}
		for _, p := range parts {
			switch typ := str(object(p)["type"]); ingest.AnthropicToolBlock(typ) {
			case "a tool call":
				return "a content block of type " + typ
			case "a tool result":
				return "a content block of type tool_result"
			}
		}
	}
	return ""
}

// agentMessage reports whether raw is an array whose first element is a
// message (an object with a "role") with an "agent" member.
func agentMessage(raw json.RawMessage) bool {
	var msgs []json.RawMessage
	if json.Unmarshal(raw, &msgs) != nil || len(msgs) == 0 {
		return false
	}
	m := object(msgs[0])
	return m["role"] != nil && m["agent"] != nil
}

func hasSystemMessage(msgs []json.RawMessage) bool {
	for _, raw := range msgs {
		if role := str(object(raw)["role"]); role == "system" || role == "developer" {
			return true
		}
	}
	return false
}

func isArray(raw json.RawMessage) bool  { return ingest.FirstByte(raw) == '[' }
func isObject(raw json.RawMessage) bool { return ingest.FirstByte(raw) == '{' }
func isString(raw json.RawMessage) bool { return ingest.FirstByte(raw) == '"' }

// str returns raw as a string, or "" when it is not one.
func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}
