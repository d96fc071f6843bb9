package validation

import (
	"testing"
)

func TestShape(t *testing.T) {
	tests := []struct {
		name, seen, args, want string
		conform                bool
	}{
		{"drop unknown top-level", `{"properties":{"a":{},"b":{}}}`, `{"a":1,"c":2}`, `{"a":1}`, false},
		{"keep everything without a seen schema", ``, `{"a":1,"c":2}`, `{"a":1,"c":2}`, false},
		{"empty args", `{"properties":{"a":{}}}`, ``, `{}`, false},
		{"object the seen schema does not describe", `{"type":"object"}`, `{"x":1}`, `{"x":1}`, false},
		{"map-like additionalProperties schema", `{"properties":{"a":{}},"additionalProperties":{"type":"string"}}`, `{"a":1,"env":"x"}`, `{"a":1,"env":"x"}`, false},
		{"additionalProperties true still drops", `{"properties":{"a":{}},"additionalProperties":true}`, `{"a":1,"z":2}`, `{"a":1}`, false},
		{"nested", `{"properties":{"opt":{"type":"object","properties":{"x":{}}}}}`, `{"opt":{"x":1,"y":2}}`, `{"opt":{"x":1}}`, false},
		{"nested, not described", `{"properties":{"opt":{"type":"object"}}}`, `{"opt":{"x":1,"y":2}}`, `{"opt":{"x":1,"y":2}}`, false},
		{"array items", `{"properties":{"l":{"type":"array","items":{"properties":{"k":{}}}}}}`, `{"l":[{"k":1,"z":2},{"z":3}]}`, `{"l":[{"k":1},{}]}`, false},
		{"prefixItems", `{"prefixItems":[{"properties":{"a":{}}}],"items":{"properties":{"b":{}}}}`, `[{"a":1,"b":1},{"a":2,"b":2}]`, `[{"a":1},{"b":2}]`, false},
		{"draft-07 tuple items", `{"items":[{"properties":{"a":{}}}]}`, `[{"a":1,"b":1},{"a":2,"b":2}]`, `[{"a":1},{"a":2,"b":2}]`, false},
		{"$ref", `{"$defs":{"P":{"properties":{"a":{}}}},"$ref":"#/$defs/P"}`, `{"a":1,"b":2}`, `{"a":1}`, false},
		{"$ref beside properties", `{"$defs":{"P":{"properties":{"a":{}}}},"$ref":"#/$defs/P","properties":{"c":{}}}`, `{"a":1,"b":2,"c":3}`, `{"a":1,"c":3}`, false},
		{"allOf and anyOf union", `{"allOf":[{"properties":{"a":{}}}],"anyOf":[{"properties":{"b":{}}},{"properties":{"c":{}}}]}`, `{"a":1,"b":2,"c":3,"d":4}`, `{"a":1,"b":2,"c":3}`, false},
		{"patternProperties", `{"properties":{"a":{}},"patternProperties":{"^x-":{}}}`, `{"a":1,"x-k":2,"y":3}`, `{"a":1,"x-k":2}`, false},
		{"uncompilable pattern keeps", `{"patternProperties":{"^(?!z)":{}}}`, `{"a":1,"z":2}`, `{"a":1,"z":2}`, false},
		{"external $ref: not described", `{"$ref":"https://example.com/s.json"}`, `{"a":1}`, `{"a":1}`, false},
		{"scalar args", `{"type":"string"}`, `"x"`, `"x"`, false},
		{"numbers kept exactly", `{"properties":{"n":{}}}`, `{"n":12345678901234567890.5}`, `{"n":12345678901234567890.5}`, false},
		{"conform fills required", `{"properties":{"a":{"type":"integer","minimum":3},"b":{}},"required":["a"]}`, `{"b":1}`, `{"a":3,"b":1}`, true},
		{"conform fills nested required", `{"properties":{"o":{"properties":{"k":{"enum":["x"]}},"required":["k"]}}}`, `{"o":{}}`, `{"o":{"k":"x"}}`, true},
		{"conform: required from anyOf is not filled", `{"anyOf":[{"properties":{"a":{}},"required":["a"]}]}`, `{}`, `{}`, true},
		{"conform fixes type", `{"properties":{"a":{"type":"boolean"}}}`, `{"a":"yes"}`, `{"a":false}`, true},
		{"conform keeps fitting values", `{"properties":{"a":{"type":["string","null"]}}}`, `{"a":null}`, `{"a":null}`, true},
		{"conform: integer fits number", `{"properties":{"a":{"type":"number"}}}`, `{"a":2}`, `{"a":2}`, true},
		{"conform: 2.0 is an integer", `{"properties":{"a":{"type":"integer"}}}`, `{"a":2.0}`, `{"a":2.0}`, true},
		{"conform: 2.5 is not", `{"properties":{"a":{"type":"integer"}}}`, `{"a":2.5}`, `{"a":0}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Shape([]byte(tc.seen), []byte(tc.args), ShapeOptions{Conform: tc.conform})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("Shape = %s, want %s", got, tc.want)
			}
		})
	}
	if _, err := Shape([]byte(`{"type":`), []byte(`{}`), ShapeOptions{}); err == nil {
		t.Error("Shape with a broken seen schema must fail")
	}
	if _, err := Shape(nil, []byte(`{"a":`), ShapeOptions{}); err == nil {
		t.Error("Shape with broken args must fail")
	}
}

func TestExample(t *testing.T) {
	tests := []struct {
		name, schema string
		all          bool
		want         string
	}{
		{"empty", ``, false, `{}`},
		{"required only", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["b"]}`, false, `{"b":0}`},
		{"all", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["b"]}`, true, `{"a":"","b":0}`},
		{"enum and const", `{"properties":{"e":{"enum":[3,"x"]},"c":{"const":{"k":1}}},"required":["e","c"]}`, false, `{"c":{"k":1},"e":3}`},
		{"bounds", `{"properties":{"i":{"type":"integer","minimum":2.5},"x":{"type":"number","exclusiveMinimum":7},"m":{"type":"integer","maximum":-3}},"required":["i","x","m"]}`, false, `{"i":3,"m":-3,"x":8}`},
		{"string bounds, format, pattern", `{"properties":{"s":{"type":"string","minLength":3},"d":{"type":"string","format":"date-time"},"p":{"type":"string","pattern":"^[0-9]+$"}},"required":["s","d","p"]}`, false, `{"d":"2025-01-01T00:00:00Z","p":"0","s":"aaa"}`},
		{"nullable type list", `{"type":["null","boolean"]}`, false, `false`},
		{"arrays", `{"type":"array","minItems":2,"items":{"type":"integer"}}`, false, `[0,0]`},
		{"array all", `{"type":"array","items":{"type":"object","properties":{"k":{"type":"boolean"}}}}`, true, `[{"k":false}]`},
		{"anyOf first that works", `{"anyOf":[false,{"type":"string"}]}`, false, `""`},
		{"allOf merged", `{"allOf":[{"properties":{"a":{"type":"integer"}},"required":["a"]},{"properties":{"b":{"type":"boolean"}},"required":["b"]}]}`, false, `{"a":0,"b":false}`},
		{"$ref", `{"$defs":{"N":{"type":"integer","minimum":1}},"properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"]}`, false, `{"n":1}`},
		{"recursive, all", `{"type":"object","properties":{"kid":{"$ref":"#"}}}`, true, ``}, // checked below: finite
		{"untyped root is an object", `{"description":"anything"}`, false, `{}`},
		{"untyped property is a string", `{"properties":{"a":{}},"required":["a"]}`, false, `{"a":""}`},
		{"oneOf: rotate until one branch matches", `{"oneOf":[{"properties":{"t":{},"id":{"type":"string"}},"required":["t","id"]},{"properties":{"t":{}},"required":["t"]}]}`, false, `{"t":""}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Example([]byte(tc.schema), tc.all)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != "" && string(got) != tc.want {
				t.Errorf("Example = %s, want %s", got, tc.want)
			}
			if tc.schema != "" {
				if c := New().Check(nil, []byte(tc.schema), got); c != "" {
					t.Errorf("Example %s does not validate: %s", got, c)
				}
			}
		})
	}
	for _, bad := range []string{`false`, `{"type":"object","properties":{"a":false},"required":["a"]}`, `{"type":`} {
		if got, err := Example([]byte(bad), false); err == nil {
			t.Errorf("Example(%s) = %s, want an error", bad, got)
		}
	}
}
