package search

import (
	"encoding/json"
	"unicode/utf8"
)

// MaxParamDepth is how deep into an input schema parameter names and
// descriptions are indexed: the schema root is depth 0, its properties
// depth 1, their properties (or array items, or anyOf branches) depth 2,
// and so on; nodes deeper than this are not read.
const MaxParamDepth = 16

// params is what a tool's input schema contributes to its search document.
type params struct {
	names []string // property names, every depth
	descs []string // descriptions of every subschema below the root
}

// schemaParams reads parameter names and descriptions from a JSON Schema,
// in document order. A schema that is not valid JSON contributes nothing.
// These keywords lead to subschemas (each one level deeper): "properties"
// (whose keys are the parameter names), "$defs", "definitions",
// "patternProperties", "items", "prefixItems", "anyOf", "oneOf", "allOf",
// "additionalProperties", "not", "if", "then", "else", "contains".
// "$ref" is not followed. A "description" that is not a string, and the
// root's own description, are not read.
func schemaParams(schema json.RawMessage) params {
	if len(schema) == 0 || !json.Valid(schema) {
		return params{}
	}
	w := paramWalker{b: schema}
	w.ws()
	w.node(0)
	return w.p
}

// paramWalker reads a JSON text known to be valid.
type paramWalker struct {
	b []byte
	i int
	p params
}

func (w *paramWalker) ws() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *paramWalker) peek() byte {
	if w.i < len(w.b) {
		return w.b[w.i]
	}
	return 0
}

// node reads the value at w.i as a schema at depth.
func (w *paramWalker) node(depth int) {
	if w.peek() != '{' || depth > MaxParamDepth {
		w.skip()
		return
	}
	w.members(func(key string) {
		switch key {
		case "description":
			if w.peek() == '"' && depth > 0 {
				w.p.descs = append(w.p.descs, w.str())
				return
			}
			w.skip()
		case "properties":
			w.schemaMap(depth, depth < MaxParamDepth)
		case "$defs", "definitions", "patternProperties":
			w.schemaMap(depth, false)
		case "items", "additionalProperties", "not", "if", "then", "else", "contains",
			"anyOf", "oneOf", "allOf", "prefixItems":
			if w.peek() == '[' {
				w.elements(func() { w.node(depth + 1) })
				return
			}
			w.node(depth + 1)
		default:
			w.skip()
		}
	})
}

// schemaMap reads an object of subschemas; with names, its keys are
// parameter names.
func (w *paramWalker) schemaMap(depth int, names bool) {
	if w.peek() != '{' {
		w.skip()
		return
	}
	w.members(func(key string) {
		if names {
			w.p.names = append(w.p.names, key)
		}
		w.node(depth + 1)
	})
}

// members calls f with each key of the object at w.i, positioned at the
// member's value; f must consume the value.
func (w *paramWalker) members(f func(key string)) {
	w.i++ // {
	for {
		w.ws()
		switch w.peek() {
		case '}':
			w.i++
			return
		case ',':
			w.i++
			continue
		case '"':
		default:
			w.i = len(w.b) // unreachable for valid JSON
			return
		}
		key := w.str()
		w.ws()
		w.i++ // :
		w.ws()
		f(key)
	}
}

// elements calls f with each element of the array at w.i.
func (w *paramWalker) elements(f func()) {
	w.i++ // [
	for {
		w.ws()
		switch w.peek() {
		case ']':
			w.i++
			return
		case ',':
			w.i++
		case 0:
			return
		default:
			f()
		}
	}
}

// str reads the string at w.i.
func (w *paramWalker) str() string {
	start := w.i
	escaped := w.skipStr()
	raw := w.b[start:w.i]
	if len(raw) < 2 {
		return ""
	}
	if inner := raw[1 : len(raw)-1]; !escaped && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(raw, &s) // valid JSON: cannot fail; invalid UTF-8 becomes U+FFFD
	return s
}

// skipStr moves past the string at w.i and reports whether it holds an
// escape.
func (w *paramWalker) skipStr() (escaped bool) {
	w.i++ // "
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case '\\':
			escaped = true
			w.i += 2 // the escaped byte; \uXXXX's digits are plain bytes
		case '"':
			w.i++
			return escaped
		default:
			w.i++
		}
	}
	return escaped
}

// skip moves past the value at w.i.
func (w *paramWalker) skip() {
	switch w.peek() {
	case '"':
		w.skipStr()
	case '{', '[':
		depth := 0
		for w.i < len(w.b) {
			switch w.b[w.i] {
			case '"':
				w.skipStr()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					w.i++
					return
				}
			}
			w.i++
		}
	default: // number, true, false, null
		for w.i < len(w.b) {
			switch w.b[w.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			w.i++
		}
	}
}
