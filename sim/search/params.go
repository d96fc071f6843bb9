package search

import (
	"bytes"
	"encoding/json"
	"errors"
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

// node is the part of a JSON Schema the indexer reads. Decoding into it
// skips every other keyword without building values for it.
type node struct {
	Description       any              `json:"description"`
	Properties        map[string]*node `json:"properties"`
	PatternProperties map[string]*node `json:"patternProperties"`
	Defs              map[string]*node `json:"$defs"`
	Definitions       map[string]*node `json:"definitions"`
	AnyOf             []*node          `json:"anyOf"`
	OneOf             []*node          `json:"oneOf"`
	AllOf             []*node          `json:"allOf"`
	PrefixItems       []*node          `json:"prefixItems"`
	Items             subs             `json:"items"`
	Additional        subs             `json:"additionalProperties"`
	Not               subs             `json:"not"`
	If                subs             `json:"if"`
	Then              subs             `json:"then"`
	Else              subs             `json:"else"`
	Contains          subs             `json:"contains"`
}

// subs holds the schema (or, for "items", the list of schemas) under a
// keyword that may also hold a boolean; booleans hold nothing to index.
type subs []*node

func (s *subs) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '{':
		var n node
		err := json.Unmarshal(b, &n)
		*s = subs{&n}
		return tolerateTypes(err)
	case len(b) > 0 && b[0] == '[':
		var list []*node
		err := json.Unmarshal(b, &list)
		*s = list
		return tolerateTypes(err)
	}
	return nil
}

// tolerateTypes drops errors about a keyword holding an unexpected JSON
// type (the decoder skips such keywords and goes on).
func tolerateTypes(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// schemaParams reads parameter names and descriptions from a JSON Schema.
// A schema that is not valid JSON contributes nothing; keywords holding an
// unexpected type are skipped. Object keys are visited in sorted order so
// the output is deterministic; "$ref" is not followed (definitions under
// "$defs"/"definitions" are read in place).
func schemaParams(schema json.RawMessage) params {
	var p params
	if len(schema) == 0 {
		return p
	}
	var root node
	if err := tolerateTypes(json.Unmarshal(schema, &root)); err != nil {
		return params{}
	}
	p.visit(&root, 0)
	return p
}

func (p *params) visit(n *node, depth int) {
	if n == nil || depth > MaxParamDepth {
		return
	}
	if d, ok := n.Description.(string); ok && depth > 0 {
		p.descs = append(p.descs, d)
	}
	if depth < MaxParamDepth {
		for _, name := range sortedKeys(n.Properties) {
			p.names = append(p.names, name)
			p.visit(n.Properties[name], depth+1)
		}
	}
	for _, m := range []map[string]*node{n.Defs, n.Definitions, n.PatternProperties} {
		for _, name := range sortedKeys(m) {
			p.visit(m[name], depth+1)
		}
	}
	for _, list := range [][]*node{n.Items, n.Additional, n.Not, n.If, n.Then, n.Else, n.Contains,
		n.AnyOf, n.OneOf, n.AllOf, n.PrefixItems} {
		for _, sub := range list {
			p.visit(sub, depth+1)
		}
	}
}

func sortedKeys(m map[string]*node) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
