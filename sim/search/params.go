package search

import (
	"encoding/json"
	"slices"
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

// schemaParams reads parameter names and descriptions from a JSON Schema.
// A schema that is not valid JSON contributes nothing. Object keys are
// visited in sorted order so the output is deterministic; "$ref" is not
// followed (definitions under "$defs"/"definitions" are read in place).
func schemaParams(schema json.RawMessage) params {
	var p params
	if len(schema) == 0 {
		return p
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return p
	}
	p.visit(root, 0)
	return p
}

func (p *params) visit(node any, depth int) {
	if depth > MaxParamDepth {
		return
	}
	obj, ok := node.(map[string]any)
	if !ok {
		return
	}
	if d, ok := obj["description"].(string); ok && depth > 0 {
		p.descs = append(p.descs, d)
	}
	if props, ok := obj["properties"].(map[string]any); ok && depth < MaxParamDepth {
		for _, name := range sortedKeys(props) {
			p.names = append(p.names, name)
			p.visit(props[name], depth+1)
		}
	}
	for _, key := range []string{"$defs", "definitions", "patternProperties"} {
		if defs, ok := obj[key].(map[string]any); ok {
			for _, name := range sortedKeys(defs) {
				p.visit(defs[name], depth+1)
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties", "not", "if", "then", "else", "contains"} {
		p.visit(obj[key], depth+1)
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems", "items"} {
		if list, ok := obj[key].([]any); ok {
			for _, sub := range list {
				p.visit(sub, depth+1)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
