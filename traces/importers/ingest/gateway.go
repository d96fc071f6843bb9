package ingest

import (
	"encoding/json"
	"slices"
	"strings"
)

// Default argument fields of gateway meta-tools; the first present wins.
var (
	DefaultQueryFields  = []string{"query", "pattern", "regex", "q"}
	DefaultServerFields = []string{"server_name", "server"}
	DefaultToolFields   = []string{"tool_name", "tool", "name"}
	DefaultParamsFields = []string{"params", "arguments", "args"}
)

// Gateway describes the meta-tools of an MCP gateway a session was recorded
// through: a search tool that returns candidate tools, and an execute tool
// whose arguments name the server, the tool and the parameters of the real
// call. The zero value knows no meta-tools.
type Gateway struct {
	// SearchTools and ExecuteTools are the meta-tools' names. A name matches
	// a call of that name, also when MCP-qualified (mcp__<server>__<name>).
	SearchTools, ExecuteTools []string
	// QueryFields name the argument holding a search's query; ServerFields,
	// ToolFields and ParamsFields the arguments of an execute call. Empty
	// means the defaults (DefaultQueryFields, …).
	QueryFields, ServerFields, ToolFields, ParamsFields []string
}

// IsSearch reports whether a call of name is a call of a gateway search tool.
func (g *Gateway) IsSearch(name string) bool { return g != nil && matchName(g.SearchTools, name) }

// IsExecute reports whether a call of name is a call of a gateway execute tool.
func (g *Gateway) IsExecute(name string) bool { return g != nil && matchName(g.ExecuteTools, name) }

func matchName(names []string, name string) bool {
	if slices.Contains(names, name) {
		return true
	}
	if tool, server := SplitMCPName(name); server != "" {
		return slices.Contains(names, tool)
	}
	return false
}

// SplitMCPName splits an MCP-qualified tool name mcp__<server>__<tool> at
// the first "__" after the prefix; other names come back whole with server "".
func SplitMCPName(name string) (tool, server string) {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if srv, tool, ok := strings.Cut(rest, "__"); ok && srv != "" && tool != "" {
			return tool, srv
		}
	}
	return name, ""
}

func orDefault(fields, def []string) []string {
	if len(fields) == 0 {
		return def
	}
	return fields
}

// Query returns the query of a search call: the first of the query fields
// that holds a non-empty string, else the arguments as compact JSON, else
// "(no query recorded)" (trace v1 requires a query).
func (g *Gateway) Query(args json.RawMessage) string {
	var fields []string
	if g != nil {
		fields = g.QueryFields
	}
	m := argsObject(args)
	for _, k := range orDefault(fields, DefaultQueryFields) {
		var s string
		if json.Unmarshal(m[k], &s) == nil && s != "" {
			return s
		}
	}
	if q := string(Compact(args)); !IsNull(args) && q != "" {
		return q
	}
	return "(no query recorded)"
}

// ExecuteCall is what the arguments of a gateway execute call name.
type ExecuteCall struct {
	Server string
	Tool   string
	// Params are the inner call's arguments (raw JSON; nil when absent).
	Params json.RawMessage
	// Rest lists argument members that are none of the three, sorted.
	Rest []string
}

// Execute reads the arguments of an execute call. ok is false when they
// name no tool (the call then stays a call of the execute tool). A params
// value held as a JSON string is kept raw: Args unwraps it.
func (g *Gateway) Execute(args json.RawMessage) (ExecuteCall, bool) {
	m := argsObject(args)
	var ec ExecuteCall
	used := map[string]bool{}
	str := func(fields []string) string {
		for _, k := range fields {
			var s string
			if json.Unmarshal(m[k], &s) == nil && strings.TrimSpace(s) != "" {
				used[k] = true
				return strings.TrimSpace(s)
			}
		}
		return ""
	}
	ec.Tool = str(orDefault(g.ToolFields, DefaultToolFields))
	if ec.Tool == "" {
		return ExecuteCall{}, false
	}
	ec.Server = str(orDefault(g.ServerFields, DefaultServerFields))
	for _, k := range orDefault(g.ParamsFields, DefaultParamsFields) {
		if v, ok := m[k]; ok && !IsNull(v) {
			used[k] = true
			ec.Params = v
			break
		}
	}
	for k, v := range m {
		if !used[k] && !IsEmpty(v) {
			ec.Rest = append(ec.Rest, k)
		}
	}
	slices.Sort(ec.Rest)
	return ec, true
}

// argsObject decodes call arguments as an object, also when they are a JSON
// string holding one (nil when they are neither).
func argsObject(args json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) == nil {
		return m
	}
	var s string
	if json.Unmarshal(args, &s) == nil && json.Unmarshal([]byte(s), &m) == nil {
		return m
	}
	return nil
}
