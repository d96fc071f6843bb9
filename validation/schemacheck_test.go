package validation

import "testing"

// TestCheckSchema pins that CheckSchema names the member of a tool schema
// that fails its meta-schema (BFCL's nested "dict" and "float", which are
// no JSON Schema types) with its JSON pointer, value and why, the same one
// on every call (the first by pointer), and passes schemas
// that compile (an empty one, a draft-07 one, an ECMAScript pattern RE2
// cannot compile, which Validate does not assert). Nothing checked them:
// such schemas loaded without a word.
func TestCheckSchema(t *testing.T) {
	tests := []struct {
		name, schema string
		ok           bool
		want         SchemaIssue
	}{
		{name: "valid", schema: `{"type":"object","properties":{"a":{"type":"number"}}}`, ok: true},
		{name: "empty", schema: ``, ok: true},
		{name: "null", schema: `null`, ok: true},
		{name: "draft-07", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string","format":"uri"}}}`, ok: true},
		{name: "look-ahead pattern", schema: `{"type":"object","properties":{"a":{"type":"string","pattern":"^(?=a)a$"}}}`, ok: true},
		{name: "nested dict", schema: `{"type":"object","properties":{"opts":{"type":"dict","properties":{}}}}`,
			want: SchemaIssue{Pointer: "/properties/opts/type", Value: `"dict"`, Reason: "not a JSON Schema type"}},
		{name: "float in array items", schema: `{"type":"object","properties":{"xs":{"type":"array","items":{"type":"float"}}}}`,
			want: SchemaIssue{Pointer: "/properties/xs/items/type", Value: `"float"`, Reason: "not a JSON Schema type"}},
		{name: "enum not a list", schema: `{"type":"object","properties":{"u":{"type":"string","enum":"a"}}}`,
			want: SchemaIssue{Pointer: "/properties/u/enum", Value: `"a"`, Reason: "got string, want array"}},
		{name: "required not a list", schema: `{"type":"object","required":"a"}`,
			want: SchemaIssue{Pointer: "/required", Value: `"a"`, Reason: "got string, want array"}},
		// The validator walks members in map order: the issue is the
		// first by pointer, every time (checked 20 times below).
		{name: "two bad members", schema: `{"type":"object","properties":{"b":{"type":"float"},"a":{"type":"dict"},"c":{"type":"tuple"}}}`,
			want: SchemaIssue{Pointer: "/properties/a/type", Value: `"dict"`, Reason: "not a JSON Schema type"}},
		{name: "external reference", schema: `{"type":"object","properties":{"a":{"$ref":"http://example.com/a.json"}}}`},
		// A local reference that resolves to nothing is written from its
		// "#": it said "json-pointer in \"mem:///schema.json#/$defs/x\"
		// not found", the validator's in-memory name for the schema.
		{name: "local reference to nothing", schema: `{"type":"object","$defs":{},"properties":{"a":{"$ref":"#/$defs/x"}}}`,
			want: SchemaIssue{Reason: `json-pointer in "#/$defs/x" not found`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := CheckSchema([]byte(tc.schema))
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v (%v)", ok, tc.ok, got)
			}
			if tc.ok {
				return
			}
			if tc.want.Reason == "" {
				if got.Reason == "" {
					t.Errorf("no reason given")
				}
				return
			}
			for range 20 {
				if got, _ := CheckSchema([]byte(tc.schema)); got != tc.want {
					t.Fatalf("got %+v, want %+v", got, tc.want)
				}
			}
		})
	}
}
