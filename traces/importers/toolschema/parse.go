package toolschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// Set is the tools one schema source gives one server.
type Set struct {
	// Server is the server the tools belong to; "" means the importing
	// format's default server.
	Server string
	// Version is the server version when the source names one; "" means the
	// version is derived from the content (see Hash).
	Version string
	// Domain limits the set to sessions of one domain; "" means any.
	Domain string
	// Source says where the tools came from, for reports.
	Source string
	Tools  []Tool
	// Fidelity says how faithfully the tools reproduce what the recording
	// model saw; Note says why when it is not Exact.
	Fidelity Fidelity
	Note     string
}

// Find returns the tool called name, or nil.
func (s *Set) Find(name string) *Tool {
	for i := range s.Tools {
		if s.Tools[i].Name == name {
			return &s.Tools[i]
		}
	}
	return nil
}

// Dropped counts members of tool definitions that have no place in an MCP
// tool, keyed by a generic path such as "tools[].strict".
type Dropped map[string]int

func (d Dropped) add(path string) { d[path]++ }

// ErrShape is returned for a document that holds no recognisable tool list.
var ErrShape = errors.New("not a tool list: want an MCP tools/list result, an OpenAI or Anthropic tools array, or a tau2 tools-data listing")

// Parse reads tool definitions from data, in any of these shapes:
//
//   - an MCP tools/list result {"tools":[{name, description, inputSchema, …}]},
//     optionally inside a JSON-RPC response {"result":{…}}, optionally with a
//     "domain" member naming the domain the tools serve;
//   - an array of tools, each an OpenAI tool {"type":"function","function":{name,
//     description, parameters}}, a flat function {"type":"function", name,
//     parameters}, an Anthropic tool {name, description, input_schema} or an
//     MCP tool;
//   - the tau2 leaderboard listing {domain: {"tools":[{name, description,
//     parameters:[{name, type, required, description}]}]}}, one set per domain.
//
// source labels the sets. Members that cannot be kept are counted in the
// returned Dropped.
func Parse(source string, data []byte) ([]*Set, Dropped, error) {
	data = bytes.TrimSpace(data)
	dropped := Dropped{}
	if len(data) == 0 {
		return nil, dropped, ErrShape
	}
	switch data[0] {
	case '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(data, &elems); err != nil {
			return nil, dropped, fmt.Errorf("%s: %w", source, err)
		}
		tools, err := convertAll(elems, "[]", dropped)
		if err != nil {
			return nil, dropped, fmt.Errorf("%s: %w", source, err)
		}
		return []*Set{{Source: source, Tools: tools}}, dropped, nil
	case '{':
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, dropped, fmt.Errorf("%s: %w", source, err)
		}
		sets, err := parseObject(source, top, dropped)
		if err != nil {
			return nil, dropped, fmt.Errorf("%s: %w", source, err)
		}
		return sets, dropped, nil
	}
	return nil, dropped, fmt.Errorf("%s: %w", source, ErrShape)
}

func parseObject(source string, top map[string]json.RawMessage, dropped Dropped) ([]*Set, error) {
	if res, ok := top["result"]; ok && !isNull(res) {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(res, &inner); err == nil {
			if _, ok := inner["tools"]; ok {
				for k := range top {
					if k != "result" && k != "jsonrpc" && k != "id" {
						dropped.add(k)
					}
				}
				return parseObject(source, inner, dropped)
			}
		}
	}
	if raw, ok := top["tools"]; ok {
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return nil, fmt.Errorf("tools: %w", err)
		}
		tools, err := convertAll(elems, "tools[]", dropped)
		if err != nil {
			return nil, err
		}
		set := &Set{Source: source, Tools: tools}
		for k, v := range top {
			switch k {
			case "tools":
			case "domain":
				if err := json.Unmarshal(v, &set.Domain); err != nil {
					return nil, fmt.Errorf("domain: %w", err)
				}
			default:
				dropped.add(k)
			}
		}
		return []*Set{set}, nil
	}
	return parseDomains(source, top, dropped)
}

// listingNote says why tools read from the tau2 leaderboard listing are
// approximate.
const listingNote = "tau2 leaderboard listing: parameters as a flat list of declared type names (nested types not given)"

// parseDomains reads the tau2 leaderboard listing: one member per domain.
// Its tools are Approximate: the listing is a simplified description for a
// web page, not the schema an agent is sent.
func parseDomains(source string, top map[string]json.RawMessage, dropped Dropped) ([]*Set, error) {
	domains := make([]string, 0, len(top))
	for k := range top {
		domains = append(domains, k)
	}
	sort.Strings(domains)
	var sets []*Set
	for _, dom := range domains {
		var entry map[string]json.RawMessage
		if err := json.Unmarshal(top[dom], &entry); err != nil {
			return nil, ErrShape
		}
		raw, ok := entry["tools"]
		if !ok {
			return nil, ErrShape
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return nil, fmt.Errorf("%s.tools: %w", dom, err)
		}
		tools, err := convertAll(elems, "<domain>.tools[]", dropped)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dom, err)
		}
		for k := range entry {
			if k != "tools" {
				dropped.add("<domain>." + k)
			}
		}
		sets = append(sets, &Set{Source: source, Domain: dom, Tools: tools, Fidelity: Approximate, Note: listingNote})
	}
	if len(sets) == 0 {
		return nil, ErrShape
	}
	return sets, nil
}

func convertAll(elems []json.RawMessage, path string, dropped Dropped) ([]Tool, error) {
	tools := make([]Tool, 0, len(elems))
	seen := map[string]bool{}
	for i, raw := range elems {
		t, ok, err := Convert(raw, path, dropped)
		if err != nil {
			return nil, fmt.Errorf("tool %d: %w", i, err)
		}
		if !ok {
			continue
		}
		if seen[t.Name] {
			dropped.add(path + " (duplicate name, later definition ignored)")
			continue
		}
		seen[t.Name] = true
		tools = append(tools, t)
	}
	return tools, nil
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}
