package validation

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// walkBudget bounds how many schema nodes one collect call visits, so that
// $ref cycles and combinator blow-ups end.
const walkBudget = 512

// resolver reads a decoded schema document (as jsonschema.UnmarshalJSON
// returns it: maps, slices, json.Number).
type resolver struct {
	root    any
	maxHops int
}

// deref follows local "$ref"s ("#", "#/json/pointer") from node and
// returns the first node that is not a bare reference. ok is false when a
// reference cannot be followed (external, anchor, broken, or more than
// maxHops in a row).
func (r resolver) deref(node any) (any, bool) {
	for range r.maxHops + 1 {
		m, isObj := node.(map[string]any)
		if !isObj {
			return node, true
		}
		ref, hasRef := m["$ref"].(string)
		if !hasRef || len(m) > 1 {
			// A node with a $ref beside other keywords is read as it is;
			// its target is reached through refTarget by the walkers that
			// merge keywords.
			return node, true
		}
		next, ok := r.lookup(ref)
		if !ok {
			return nil, false
		}
		node = next
	}
	return nil, false
}

// refTarget returns the node a "$ref" keyword of m points to.
func (r resolver) refTarget(m map[string]any) (any, bool) {
	ref, ok := m["$ref"].(string)
	if !ok {
		return nil, false
	}
	return r.lookup(ref)
}

// lookup resolves a local reference in the root document.
func (r resolver) lookup(ref string) (any, bool) {
	if ref == "#" {
		return r.root, true
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	node := r.root
	for _, tok := range strings.Split(ref[2:], "/") {
		if u, err := url.PathUnescape(tok); err == nil {
			tok = u
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n := node.(type) {
		case map[string]any:
			v, ok := n[tok]
			if !ok {
				return nil, false
			}
			node = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil, false
			}
			node = n[i]
		default:
			return nil, false
		}
	}
	return node, true
}

// jsonType names the JSON type of a decoded value ("integer" for a whole
// json.Number).
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil || isWhole(string(x)) {
			return "integer"
		}
		return "number"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case int, int64:
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

// isWhole reports a number literal with no fractional part ("2", "2.0",
// "1e3").
func isWhole(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f == float64(int64(f))
}

// types returns the "type" keyword of a schema node as a list.
func types(m map[string]any) []string {
	switch t := m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// typeAllows reports whether a "type" list admits value v.
func typeAllows(ts []string, v any) bool {
	if len(ts) == 0 {
		return true
	}
	jt := jsonType(v)
	for _, t := range ts {
		if t == jt || (t == "number" && jt == "integer") {
			return true
		}
	}
	return false
}

// sameJSON compares two decoded values by their JSON encoding.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
