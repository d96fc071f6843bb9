package ingest

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ToolNames is what the catalogs of a session serve: each tool name with
// the servers (sorted) that serve it.
type ToolNames map[string][]string

// Serves reports whether server serves tool.
func (n ToolNames) Serves(server, tool string) bool {
	_, ok := slices.BinarySearch(n[tool], server)
	return ok
}

// ReturnedFrom says where ReturnedTools found the returned tools.
type ReturnedFrom string

// Ways of reading a search result.
const (
	ReturnedJSON ReturnedFrom = "json" // a JSON value listing tools
	ReturnedText ReturnedFrom = "text" // catalog tool names found in text
	ReturnedNone ReturnedFrom = ""     // nothing recognisable
)

// listKeys are members of a JSON search result that hold the list of tools.
var listKeys = []string{"tools", "results", "matches", "candidates", "items", "data", "servers"}

// ReturnedTools reads the tools a search returned from its result text, in
// rank order without repeats, as catalog tool names (without server or
// mcp__ prefixes):
//
//   - a JSON result listing tools: an array of names or of objects naming a
//     tool (tool_name, tool, name) and maybe its server, or an object holding
//     such a list under tools, results, matches, candidates, items, data or
//     servers (lists may nest, as servers holding their tools), or an MCP tools/call
//     result whose text content is one of these or text;
//   - otherwise catalog tool names found in the text: when the text
//     qualifies some of them with a server that serves them
//     (server/tool, server.tool, server:tool, server__tool,
//     mcp__server__tool), only those count; otherwise every catalog tool
//     name found as a whole word counts, except that a name made only of
//     letters (such as "search" or "Read", which prose uses too) counts only
//     at the start of a line or list item, or quoted.
func ReturnedTools(text string, cat ToolNames) ([]string, ReturnedFrom) {
	if names, ok := jsonTools(strings.TrimSpace(text), cat, 0); ok {
		return names, ReturnedJSON
	}
	if names := textTools(text, cat); len(names) > 0 {
		return names, ReturnedText
	}
	return nil, ReturnedNone
}

// maxJSONDepth bounds the nesting jsonTools follows.
const maxJSONDepth = 8

// jsonTools reads a JSON search result; ok is false when text is not JSON
// or lists no tool.
func jsonTools(text string, cat ToolNames, depth int) ([]string, bool) {
	if depth > maxJSONDepth || text == "" || (text[0] != '{' && text[0] != '[') {
		return nil, false
	}
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil, false
	}
	var names []string
	collectTools(v, cat, &names, depth)
	names = dedupe(names)
	return names, len(names) > 0
}

func collectTools(v any, cat ToolNames, out *[]string, depth int) {
	if depth > maxJSONDepth {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			switch e := e.(type) {
			case string:
				if n := qualifiedName(e, cat); n != "" {
					*out = append(*out, n)
				}
			case map[string]any:
				collectObject(e, cat, out, depth+1)
			}
		}
	case map[string]any:
		collectObject(x, cat, out, depth+1)
	}
}

// collectObject reads one object of a JSON search result: a list holder
// (such as a server with its tools), an MCP tools/call result, or one tool.
// Returned tools are recorded by name only, so the server an object names
// needs no tracking.
func collectObject(m map[string]any, cat ToolNames, out *[]string, depth int) {
	for _, k := range listKeys {
		if list, ok := m[k].([]any); ok {
			collectTools(list, cat, out, depth)
			return
		}
	}
	if content, ok := m["content"].([]any); ok { // MCP CallToolResult
		for _, p := range content {
			part, _ := p.(map[string]any)
			if t, _ := part["text"].(string); t != "" {
				if names, ok := jsonTools(strings.TrimSpace(t), cat, depth+1); ok {
					*out = append(*out, names...)
				} else {
					*out = append(*out, textTools(t, cat)...)
				}
			}
		}
		return
	}
	if n := firstString(m, DefaultToolFields...); n != "" {
		if q := qualifiedName(n, cat); q != "" {
			*out = append(*out, q)
		}
	}
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// qualifiedName returns the catalog tool name a listed name stands for:
// without an mcp__<server>__ prefix, or a server prefix (server__tool,
// server/tool, server.tool, server:tool) when that server serves the rest.
// Names the catalogs do not know are kept as listed.
func qualifiedName(name string, cat ToolNames) string {
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " \t\n") {
		return ""
	}
	if tool, srv := SplitMCPName(name); srv != "" {
		return tool
	}
	if _, ok := cat[name]; ok {
		return name
	}
	for _, sep := range []string{"__", "/", ".", ":"} {
		for i := strings.Index(name, sep); i > 0; {
			if tool := name[i+len(sep):]; cat.Serves(name[:i], tool) {
				return tool
			}
			j := strings.Index(name[i+len(sep):], sep)
			if j < 0 {
				break
			}
			i += len(sep) + j
		}
	}
	return name
}

// mention is a catalog tool name found in a text.
type mention struct {
	tool      string
	qualified bool
}

// textTools finds catalog tool names in free text (see ReturnedTools).
func textTools(text string, cat ToolNames) []string {
	if len(cat) == 0 {
		return nil
	}
	var found []mention
	anyQualified := false
	prevEnd, prevTok := -1, ""
	for start := 0; start < len(text); {
		r, size := utf8.DecodeRuneInString(text[start:])
		if !isNameRune(r) {
			start += size
			continue
		}
		end := start
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if !isNameRune(r) {
				break
			}
			end += size
		}
		tok := strings.Trim(text[start:end], ".-")
		if tok != "" {
			off := strings.Index(text[start:end], tok) + start
			if m, ok := lookupToken(tok, cat, text, off, prevTok, text[max(prevEnd, 0):off], prevEnd >= 0); ok {
				found = append(found, m)
				anyQualified = anyQualified || m.qualified
			}
			prevTok, prevEnd = tok, off+len(tok)
		}
		start = end
	}
	var names []string
	for _, m := range found {
		if m.qualified || !anyQualified {
			names = append(names, m.tool)
		}
	}
	return dedupe(names)
}

// isNameRune reports whether r may be part of a tool name in text.
func isNameRune(r rune) bool {
	return r < utf8.RuneSelf && (r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

// lookupToken checks one word of a text against the catalogs. prev is the
// word before it and sep the text between them.
func lookupToken(tok string, cat ToolNames, text string, off int, prev, sep string, hasPrev bool) (mention, bool) {
	if tool, srv := SplitMCPName(tok); srv != "" {
		if cat.Serves(srv, tool) {
			return mention{tool, true}, true
		}
		if _, ok := cat[tool]; ok {
			return mention{tool, false}, true
		}
	}
	for _, sep := range []string{"__", "."} {
		for i := strings.Index(tok, sep); i > 0; {
			if tool := tok[i+len(sep):]; cat.Serves(tok[:i], tool) {
				return mention{tool, true}, true
			}
			j := strings.Index(tok[i+len(sep):], sep)
			if j < 0 {
				break
			}
			i += len(sep) + j
		}
	}
	if _, ok := cat[tok]; !ok {
		return mention{}, false
	}
	if hasPrev && (sep == "/" || sep == ":" || sep == "::") && cat.Serves(prev, tok) {
		return mention{tok, true}, true
	}
	if onlyLetters(tok) && !listed(text, off, len(tok)) {
		return mention{}, false
	}
	return mention{tok, false}, true
}

func onlyLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// listed reports whether the word at text[off:off+n] starts a line or list
// item (after white space, bullets or a number) or is quoted.
func listed(text string, off, n int) bool {
	if off > 0 && off+n < len(text) {
		if q := text[off-1]; (q == '`' || q == '"' || q == '\'') && text[off+n] == q {
			return true
		}
	}
	line := text[:off]
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	return strings.TrimLeft(line, " \t-*•#>0123456789.)") == ""
}

func dedupe(names []string) []string {
	seen := map[string]bool{}
	out := names[:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
