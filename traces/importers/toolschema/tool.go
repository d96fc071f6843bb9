// Package toolschema reads tool definitions in the shapes recorded sessions
// and tool files use (MCP tools/list results, OpenAI tools arrays, Anthropic
// tools, the tau2 leaderboard listing) and normalises them to MCP tools.
package toolschema

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Tool is one tool definition in MCP tools/list form.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Execution    json.RawMessage `json:"execution,omitempty"`
	Icons        json.RawMessage `json:"icons,omitempty"`
	Meta         json.RawMessage `json:"_meta,omitempty"`
}

// emptySchema is the input schema written for a tool defined without one
// (a tool that takes no arguments).
var emptySchema = json.RawMessage(`{"type":"object"}`)

// ListResult is the body of an MCP tools/list result.
type ListResult struct {
	Tools []Tool `json:"tools"`
}

// Encode returns the tools as an indented MCP tools/list result.
func Encode(tools []Tool) ([]byte, error) {
	if tools == nil {
		tools = []Tool{}
	}
	b, err := json.MarshalIndent(ListResult{Tools: tools}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode tools/list: %w", err)
	}
	return append(b, '\n'), nil
}

// Hash returns a short, stable content hash of tools (in order): the first
// 12 hex digits of the SHA-256 of their compact canonical JSON.
func Hash(tools []Tool) string {
	h := sha256.New()
	for i := range tools {
		b, err := canonical(&tools[i])
		if err != nil {
			// Tools are built from valid JSON; fall back to the name.
			b = []byte(tools[i].Name)
		}
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// canonical returns the compact JSON of t with object keys sorted.
func canonical(t *Tool) ([]byte, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v) // maps marshal with sorted keys
}
