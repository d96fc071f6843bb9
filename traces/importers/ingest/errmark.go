package ingest

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ContentMarksError reports whether a tool result's text marks the call as
// failed by itself: a JSON object whose isError or is_error is true (an MCP
// tools/call result, as gateways pass it on), or whose top-level error
// member is true, a non-empty string or a non-empty object (as ToolBench's
// {"error": …, "response": …}).
func ContentMarksError(text string) bool {
	if FirstByte([]byte(text)) != '{' {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return false
	}
	for _, k := range []string{"isError", "is_error"} {
		var b bool
		if json.Unmarshal(m[k], &b) == nil && b {
			return true
		}
	}
	e := m["error"]
	if t := string(bytes.TrimSpace(e)); IsEmpty(e) || t == "false" || t == "0" {
		return false
	}
	var s string
	if json.Unmarshal(e, &s) == nil {
		return strings.TrimSpace(s) != ""
	}
	return true
}
