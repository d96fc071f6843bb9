package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// onode is a JSON value with object members in document order.
type onode struct {
	str     *string
	keys    []string
	vals    []*onode // object member values, by keys
	items   []*onode // array elements
	isObj   bool
	isArray bool
}

func decodeOrdered(dec *json.Decoder) (*onode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &onode{isObj: t == '{', isArray: t == '['}
		for dec.More() {
			if n.isObj {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			if n.isObj {
				n.vals = append(n.vals, v)
			} else {
				n.items = append(n.items, v)
			}
		}
		_, err := dec.Token() // closing delimiter
		return n, err
	case string:
		return &onode{str: &t}, nil
	}
	return &onode{}, nil
}

// refParams is a slow reference for schemaParams built on encoding/json's
// tokenizer.
func refParams(schema []byte) params {
	var p params
	if !json.Valid(schema) {
		return p
	}
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	root, err := decodeOrdered(dec)
	if err != nil && !errors.Is(err, io.EOF) {
		return params{}
	}
	var visit func(n *onode, depth int)
	visit = func(n *onode, depth int) {
		if n == nil || !n.isObj || depth > MaxParamDepth {
			return
		}
		for i, key := range n.keys {
			v := n.vals[i]
			switch key {
			case "description":
				if v.str != nil && depth > 0 {
					p.descs = append(p.descs, *v.str)
				}
			case "properties", "$defs", "definitions", "patternProperties":
				if v.isObj {
					for j, name := range v.keys {
						if key == "properties" && depth < MaxParamDepth {
							p.names = append(p.names, name)
						}
						visit(v.vals[j], depth+1)
					}
				}
			case "items", "additionalProperties", "not", "if", "then", "else", "contains",
				"anyOf", "oneOf", "allOf", "prefixItems":
				if v.isArray {
					for _, it := range v.items {
						visit(it, depth+1)
					}
				} else {
					visit(v, depth+1)
				}
			}
		}
	}
	visit(root, 0)
	return p
}

func TestSchemaParamsCases(t *testing.T) {
	tests := []struct {
		schema string
		want   params
	}{
		{``, params{}},
		{`{not json`, params{}},
		{`[1,2]`, params{}},
		{`{"description":"root only"}`, params{}},
		{`{"properties":{"b":{"description":"x\n\"y\" \u00e9"},"a":{"description":7}}}`,
			params{names: []string{"b", "a"}, descs: []string{"x\n\"y\" é"}}},
		{`{"properties":{"a":{}},"properties":{"b":{}}}`, params{names: []string{"a", "b"}}}, // every occurrence
		{` { "items" : [ {"properties":{"x":{}}} , true , {"description":"d"} ] , "n" : -1.5e3 } `,
			params{names: []string{"x"}, descs: []string{"d"}}},
		{`{"properties":{"a":{"type":["string",null],"enum":[{"description":"no"}],"description":"yes"}}}`,
			params{names: []string{"a"}, descs: []string{"yes"}}},
		{`{"properties":{"we\"ird":{}}}`, params{names: []string{`we"ird`}}},
	}
	for _, tc := range tests {
		got := schemaParams([]byte(tc.schema))
		if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(params{})); diff != "" {
			t.Errorf("schemaParams(%s) mismatch (-want +got):\n%s", tc.schema, diff)
		}
		if diff := cmp.Diff(tc.want, refParams([]byte(tc.schema)), cmp.AllowUnexported(params{})); diff != "" {
			t.Errorf("refParams(%s) mismatch (-want +got):\n%s", tc.schema, diff)
		}
	}
}

// FuzzSchemaParams checks the fast schema reader against the reference.
func FuzzSchemaParams(f *testing.F) {
	for _, tool := range fiveTools {
		f.Add(string(tool.Schema))
	}
	f.Add(`{"properties":{"a":{"items":[{"properties":{"b":{"description":"x\"y"}}}]}},"$defs":{"d":{"anyOf":[{"properties":{"c":{}}}]}}}`)
	f.Add(`{"properties":{"a":{}},"properties":{"a":{"description":"twice"}}}`)
	f.Add(`{"not":{"description":"\u0041"},"if":true,"then":[],"else":null}`)
	f.Fuzz(func(t *testing.T, schema string) {
		got := schemaParams([]byte(schema))
		want := refParams([]byte(schema))
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(params{})); diff != "" {
			t.Fatalf("schemaParams(%q) mismatch (-ref +fast):\n%s", schema, diff)
		}
	})
}
