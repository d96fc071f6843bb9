package validation

import (
	"encoding/json"
	"testing"
)

var validClasses = map[string]bool{"": true, ClassMissingRequired: true, ClassUnknownProperty: true,
	ClassType: true, ClassEnum: true, ClassOther: true, ClassIgnoredArgument: true, ClassSchemaInvalid: true}

// FuzzCheck feeds arbitrary schemas and arguments, with the schema as both
// the seen and the served schema and as the served one with no seen schema:
// Check must return a known class, never panic or hang, and give the same
// answer from a warm memo as from a fresh validator; shaped arguments are
// JSON.
func FuzzCheck(f *testing.F) {
	seeds := [][2]string{
		{v1, `{"path":"a"}`},
		{v2, `{"file_path":"a","mode":"fast"}`},
		{`{"$ref":"#"}`, `{}`},
		{`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, `{"x":1}`},
		{`{"anyOf":[{"type":"string"},{"properties":{"k":{"const":1}},"required":["k"]}]}`, `{"k":2}`},
		{`{"patternProperties":{"^(?!z)":{"type":"integer"}},"additionalProperties":false}`, `{"a":"s"}`},
		{`{"items":[{"type":"string"}],"additionalItems":false}`, `["a",1]`},
		{`not json`, `{}`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	warm := New()
	f.Fuzz(func(t *testing.T, schema, args string) {
		for _, seen := range [][]byte{[]byte(schema), nil} {
			got := warm.Check(seen, []byte(schema), []byte(args))
			if !validClasses[got] {
				t.Fatalf("unknown class %q", got)
			}
			if fresh := New().Check(seen, []byte(schema), []byte(args)); fresh != got {
				t.Fatalf("warm memo says %q, fresh validator %q", got, fresh)
			}
		}
		if shaped, err := warm.ShapeArgs([]byte(schema), []byte(args)); err == nil && !json.Valid(shaped) {
			t.Fatalf("ShapeArgs produced invalid JSON %s", shaped)
		}
	})
}

// FuzzExample: an instance Example returns always validates.
func FuzzExample(f *testing.F) {
	for _, s := range []string{v1, v2, v3, `{"oneOf":[{"required":["a"]},{"required":["b"]}]}`, `{"type":"array","minItems":3,"items":{"enum":[1]}}`, `{"$ref":"#"}`, `false`} {
		f.Add(s, true)
		f.Add(s, false)
	}
	v := New()
	f.Fuzz(func(t *testing.T, schema string, all bool) {
		ex, err := Example([]byte(schema), all)
		if err != nil {
			return
		}
		if c := v.Check(nil, []byte(schema), ex); c != "" {
			t.Fatalf("Example(%s) = %s fails the schema: %s", schema, ex, c)
		}
	})
}
