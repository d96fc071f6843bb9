package validation

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Schemas of one imaginary tool across versions.
const (
	v1 = `{"type":"object","properties":{"path":{"type":"string"},"mode":{"type":"string","enum":["fast","safe"]},"depth":{"type":"integer"}},"required":["path"]}`
	// v2 renames path → file_path, narrows mode, closes the object.
	v2 = `{"type":"object","properties":{"file_path":{"type":"string"},"mode":{"type":"string","enum":["safe"]},"depth":{"type":"integer"}},"required":["file_path"],"additionalProperties":false}`
	// v3 adds a required property and changes depth to a string.
	v3 = `{"type":"object","properties":{"path":{"type":"string"},"mode":{"type":"string","enum":["fast","safe"]},"depth":{"type":"string"},"owner":{"type":"string"}},"required":["path","owner"]}`
	// v4 only reworded (same constraints as v1).
	v4 = `{"type":"object","properties":{"path":{"type":"string","description":"where"},"mode":{"type":"string","enum":["fast","safe"]},"depth":{"type":"integer"}},"required":["path"]}`
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name               string
		seen, served, args string
		want               Failure
	}{
		{"same schema, valid", v1, v1, `{"path":"a"}`, Failure{}},
		{"description-only upgrade", v1, v4, `{"path":"a","mode":"fast","depth":2}`, Failure{}},
		{"no args means {}", `{"type":"object"}`, `{"type":"object","required":["x"]}`, ``, Failure{Class: ClassMissingRequired, Keyword: "#/required"}},
		{"rename: old name sent, new one missing", v1, v2, `{"path":"a"}`,
			Failure{Class: ClassMissingRequired, Keyword: "#/required"}},
		{"closed object rejects an old property", v1, v2, `{"file_path":"a","path":"a"}`,
			// Shaped for v1: file_path is unknown to v1 and dropped, path
			// kept → v2 misses file_path (priority over the unknown path).
			Failure{Class: ClassMissingRequired, Keyword: "#/required"}},
		{"unknown property", `{"type":"object","properties":{"a":{},"b":{}}}`, `{"type":"object","properties":{"a":{}},"additionalProperties":false}`,
			`{"a":1,"b":2}`, Failure{Class: ClassUnknownProperty, Keyword: "#/additionalProperties"}},
		{"enum narrowed", v1, v2, `{"file_path":"a","mode":"fast"}`,
			Failure{Class: ClassMissingRequired, Keyword: "#/required"}},
		{"enum narrowed, seen = served", v2, v2, `{"file_path":"a","mode":"fast"}`,
			Failure{Class: ClassEnum, Instance: "/mode", Keyword: "#/properties/mode/enum"}},
		{"required added", v1, v3, `{"path":"a"}`, Failure{Class: ClassMissingRequired, Keyword: "#/required"}},
		{"required added beats the rest", v1, v3, `{"path":"a","owner":"me","depth":3}`,
			// owner is unknown to v1: dropped, so v3 misses it.
			Failure{Class: ClassMissingRequired, Keyword: "#/required"}},
		{"type changed", `{}`, v3, `{"path":"a","owner":"me","depth":3}`,
			Failure{Class: ClassType, Instance: "/depth", Keyword: "#/properties/depth/type"}},
		{"const", `{}`, `{"properties":{"k":{"const":"x"}}}`, `{"k":"y"}`,
			Failure{Class: ClassEnum, Instance: "/k", Keyword: "#/properties/k/const"}},
		{"type beats enum", `{}`, `{"properties":{"a":{"enum":["x"]},"b":{"type":"string"}}}`, `{"a":"y","b":1}`,
			Failure{Class: ClassType, Instance: "/b", Keyword: "#/properties/b/type"}},
		{"other: bound", `{}`, `{"properties":{"n":{"type":"integer","minimum":5}}}`, `{"n":1}`,
			Failure{Class: ClassOther, Instance: "/n", Keyword: "#/properties/n/minimum"}},
		{"other: format not asserted", `{}`, `{"properties":{"u":{"type":"string","format":"email"}}}`, `{"u":"nope"}`, Failure{}},
		{"draft-07 asserts format", `{}`, `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"u":{"type":"string","format":"email"}}}`, `{"u":"nope"}`,
			Failure{Class: ClassOther, Instance: "/u", Keyword: "#/properties/u/format"}},
		{"closed object, property removed, recorded for served", `{"properties":{"a":{},"old":{}}}`, `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1}`, Failure{}},
		{"closed object, property removed, recorded for seen", `{"properties":{"a":{},"old":{}}}`, `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"old":2}`,
			Failure{Class: ClassUnknownProperty, Keyword: "#/additionalProperties"}},
		{"type changed, recorded for served: looks valid (a limit)", `{"properties":{"n":{"type":"string"}}}`, `{"properties":{"n":{"type":"integer"}}}`, `{"n":3}`, Failure{}},
		{"oneOf: the branch for this kind of value decides", `{}`,
			`{"properties":{"p":{"anyOf":[{"oneOf":[{"properties":{"t":{"const":"x"},"id":{}},"required":["t","id"]},{"properties":{"t":{"const":"y"}},"required":["t"]}]},{"type":"string"}]}}}`,
			`{"p":{"t":""}}`, Failure{Class: ClassEnum, Instance: "/p/t", Keyword: "#/properties/p/anyOf/0/oneOf/1/properties/t/const"}},
		{"anyOf: type in every branch", `{}`, `{"properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`, `{"a":1}`,
			Failure{Class: ClassType, Instance: "/a", Keyword: "#/properties/a/anyOf/0/type"}},
		{"unevaluatedProperties false", `{}`, `{"properties":{"a":{}},"unevaluatedProperties":false}`, `{"a":1,"b":2}`,
			Failure{Class: ClassUnknownProperty, Instance: "/b", Keyword: "#/unevaluatedProperties"}},
		{"false property schema", `{}`, `{"properties":{"gone":false}}`, `{"gone":1}`,
			Failure{Class: ClassUnknownProperty, Instance: "/gone", Keyword: "#/properties/gone"}},
		{"dependentRequired", `{}`, `{"dependentRequired":{"a":["b"]}}`, `{"a":1}`,
			Failure{Class: ClassMissingRequired, Keyword: "#/dependentRequired/a"}},
		{"draft-07 schema", `{}`, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"integer"}}}`, `{"a":"1"}`,
			Failure{Class: ClassType, Instance: "/a", Keyword: "#/properties/a/type"}},
		{"no served schema", v1, ``, `{"whatever":1}`, Failure{}},
		{"null served schema", v1, `null`, `{"whatever":1}`, Failure{}},
		{"no seen schema: args as recorded", ``, v2, `{"file_path":"a","extra":1}`,
			Failure{Class: ClassUnknownProperty, Keyword: "#/additionalProperties"}},
		{"open object, property removed, recorded for seen: ignored", `{"properties":{"a":{},"old":{}}}`, `{"properties":{"a":{}}}`, `{"a":1,"old":2}`,
			Failure{Class: ClassIgnoredArgument, Instance: "/old"}},
		{"additionalProperties true does not define the member", `{"properties":{"a":{},"old":{}}}`, `{"properties":{"a":{}},"additionalProperties":true}`,
			`{"a":1,"old":2}`, Failure{Class: ClassIgnoredArgument, Instance: "/old"}},
		{"nested member removed", `{"properties":{"o":{"type":"object","properties":{"x":{},"y~/z":{}}}}}`,
			`{"properties":{"o":{"type":"object","properties":{"x":{}}}}}`, `{"o":{"x":1,"y~/z":2}}`,
			Failure{Class: ClassIgnoredArgument, Instance: "/o/y~0~1z"}},
		{"in array items", `{"properties":{"l":{"type":"array","items":{"properties":{"x":{},"y":{}}}}}}`,
			`{"properties":{"l":{"type":"array","items":{"properties":{"x":{}}}}}}`, `{"l":[{"x":1},{"x":1,"y":2}]}`,
			Failure{Class: ClassIgnoredArgument, Instance: "/l/1/y"}},
		{"a map's members are defined", `{"properties":{"env":{"additionalProperties":{"type":"string"}}}}`,
			`{"properties":{"env":{"additionalProperties":{"type":"string"}}}}`, `{"env":{"ANY":"x"}}`, Failure{}},
		{"pattern properties define members", `{"properties":{"a":{}},"patternProperties":{"^x_":{}}}`, `{"patternProperties":{"^x_":{}}}`,
			`{"x_1":1}`, Failure{}},
		// A fuzz finding (FuzzExample, testdata/fuzz/FuzzExample/ee96720d9859c487):
		// a member the served schema requires, without a property schema
		// for it, was counted as an ignored argument.
		{"a required member is defined", `{}`, `{"properties":{},"required":["0"]}`, `{"0":""}`, Failure{}},
		{"an object the served schema does not describe takes anything", `{"properties":{"a":{}}}`, `{"type":"object"}`, `{"a":1}`, Failure{}},
		{"ECMAScript pattern is not asserted", `{}`, `{"properties":{"a":{"type":"string","pattern":"^(?!x)"}}}`, `{"a":"x"}`, Failure{}},
		{"RE2 pattern is asserted", `{}`, `{"properties":{"a":{"type":"string","pattern":"^x"}}}`, `{"a":"y"}`,
			Failure{Class: ClassOther, Instance: "/a", Keyword: "#/properties/a/pattern"}},
	}
	v := New()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := v.Validate([]byte(tc.seen), []byte(tc.served), []byte(tc.args))
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if c := v.Check([]byte(tc.seen), []byte(tc.served), []byte(tc.args)); c != tc.want.Class {
				t.Errorf("Check = %q, want %q", c, tc.want.Class)
			}
		})
	}
}

// TestHostile: schemas and arguments that must give a clean "other", a
// "schema_invalid" for a served schema that cannot check calls (or a valid
// result) quickly, never a hang or a panic.
func TestHostile(t *testing.T) {
	deep := strings.Repeat(`{"items":`, 200) + `{}` + strings.Repeat(`}`, 200)
	deepArgs := strings.Repeat(`[`, 200) + strings.Repeat(`]`, 200)
	huge := `{"enum":["` + strings.Repeat("x", 2<<20) + `"]}`
	tests := []struct {
		name, seen, served, args string
		want                     string
		wantErr                  bool
	}{
		{"$ref to itself", `{}`, `{"$ref":"#"}`, `{}`, ClassOther, false},
		{"$ref cycle through $defs", `{}`, `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, `{}`, ClassOther, false},
		{"$ref cycle in the seen schema", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, `{"type":"object"}`, `{"a":1}`, "", false},
		{"recursive seen schema", `{"properties":{"k":{"$ref":"#"}},"allOf":[{"$ref":"#"}]}`, `{}`, `{"k":{"k":{"k":{}}}}`, "", false},
		{"external file $ref", `{}`, `{"$ref":"file:///etc/hostname"}`, `{}`, ClassSchemaInvalid, true},
		{"external http $ref", `{}`, `{"$ref":"https://example.com/s.json"}`, `{}`, ClassSchemaInvalid, true},
		{"unknown meta-schema", `{}`, `{"$schema":"https://example.com/meta"}`, `{}`, ClassSchemaInvalid, true},
		{"deep nesting", `{}`, deep, `[]`, ClassSchemaInvalid, true},
		{"deep args", `{}`, `{}`, deepArgs, ClassOther, true},
		{"huge schema", `{}`, huge, `{}`, ClassSchemaInvalid, true},
		{"not JSON", `{}`, `{"type":`, `{}`, ClassSchemaInvalid, true},
		{"schema of the wrong type", `{}`, `{"type":12}`, `{}`, ClassSchemaInvalid, true},
		// A served schema failing its meta-schema is the catalog's fault,
		// not the call's: before ClassSchemaInvalid it was "other", a
		// malformed call.
		{"nested type dict", `{}`, `{"type":"object","properties":{"o":{"type":"dict"}}}`, `{"o":{}}`, ClassSchemaInvalid, true},
		{"args not JSON", `{}`, `{}`, `{"a":`, ClassOther, true},
		{"seen schema not JSON: args kept", `{"type":`, `{"required":["a"]}`, `{"a":1}`, "", false},
		{"args not an object", `{"type":"object"}`, `{"type":"object"}`, `[1,2]`, ClassType, false},
	}
	v := New()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := v.Validate([]byte(tc.seen), []byte(tc.served), []byte(tc.args))
			if (err != nil) != tc.wantErr {
				t.Errorf("err = %v, want error: %v", err, tc.wantErr)
			}
			if f.Class != tc.want {
				t.Errorf("class = %q, want %q", f.Class, tc.want)
			}
		})
	}
}

func TestMemoCompilesOnce(t *testing.T) {
	v := New()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				schema := []byte(fmt.Sprintf(`{"type":"object","properties":{"n":{"type":"integer","maximum":%d}}}`, i%5))
				want := ""
				if g%5 > i%5 {
					want = ClassOther
				}
				if got := v.Check(nil, schema, []byte(fmt.Sprintf(`{"n":%d}`, g%5))); got != want {
					t.Errorf("Check(n=%d ≤ %d) = %q, want %q", g%5, i%5, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := v.Compiled(); got != 5 {
		t.Errorf("memo holds %d schemas, want 5", got)
	}
	// Past MaxMemo schemas are still checked, just not kept.
	small := NewWithOptions(Options{Limits: Limits{MaxMemo: 2}})
	for i := range 4 {
		schema := []byte(fmt.Sprintf(`{"maxLength":%d}`, i))
		if got := small.Check(nil, schema, []byte(`"abcd"`)); got != ClassOther {
			t.Errorf("maxLength %d: %q", i, got)
		}
	}
	if got := small.Compiled(); got != 2 {
		t.Errorf("memo holds %d schemas, want 2", got)
	}
}

func TestConformOption(t *testing.T) {
	// Recorded for v3 (path, owner; depth a string); the model sees v1.
	args := `{"path":"a","owner":"me","depth":"2"}`
	tests := []struct {
		name    string
		conform bool
		seen    string
		served  string
		want    string
		shaped  string
	}{
		// Drop-only: owner is unknown to v1 and dropped; depth kept as the
		// recorded string although v1 says integer.
		{"drop only", false, v1, v3, ClassMissingRequired, `{"depth":"2","path":"a"}`},
		// Conform: depth is replaced by a v1-typed value, which v3 rejects.
		{"conform", true, v1, v2, ClassMissingRequired, `{"depth":0,"path":"a"}`},
		{"conform, required filled, type fixed", true, v2, v2, "", `{"depth":0,"file_path":""}`},
		{"conform, enum fixed", true, `{"properties":{"m":{"enum":["x","y"]}}}`, `{"properties":{"m":{"enum":["x"]}}}`, "", `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := NewWithOptions(Options{Shape: ShapeOptions{Conform: tc.conform}})
			shaped, err := v.ShapeArgs([]byte(tc.seen), []byte(args))
			if err != nil {
				t.Fatal(err)
			}
			if string(shaped) != tc.shaped {
				t.Errorf("shaped = %s, want %s", shaped, tc.shaped)
			}
			if got := v.Check([]byte(tc.seen), []byte(tc.served), []byte(args)); got != tc.want {
				t.Errorf("Check = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestClassifyNonValidationError(t *testing.T) {
	if got := Classify(fmt.Errorf("boom")); got.Class != ClassOther {
		t.Errorf("Classify(plain error) = %+v", got)
	}
}

// TestCheckRenamed pins issue 16's unknown arguments for renamed
// parameters: a call made with the arguments of the served schema, by a
// model that sees the older one, sends the old name (per_page, not
// perPage). The served schema does not define it: a closed one rejects the
// call (unknown_property), an open one ignores the argument
// (ignored_argument), and when the new name is required the call misses it
// (missing_required). A renamed parameter is never valid.
func TestCheckRenamed(t *testing.T) {
	const seen = `{"type":"object","properties":{"q":{"type":"string"},"per_page":{"type":"integer"}}}`
	open := `{"type":"object","properties":{"q":{"type":"string"},"perPage":{"type":"integer"}}}`
	closed := `{"type":"object","properties":{"q":{"type":"string"},"perPage":{"type":"integer"}},"additionalProperties":false}`
	required := `{"type":"object","properties":{"q":{"type":"string"},"perPage":{"type":"integer"}},"required":["perPage"]}`
	renames := []Rename{{Old: "per_page", New: "perPage"}}
	v := New()
	for _, tc := range []struct {
		name, served, args string
		renames            []Rename
		want               string
	}{
		{"recorded for served, open", open, `{"q":"x","perPage":5}`, renames, ClassIgnoredArgument},
		{"recorded for served, closed", closed, `{"q":"x","perPage":5}`, renames, ClassUnknownProperty},
		{"recorded for served, required", required, `{"q":"x","perPage":5}`, renames, ClassMissingRequired},
		{"recorded for seen, open", open, `{"q":"x","per_page":5}`, renames, ClassIgnoredArgument},
		{"recorded for seen, no rename given", open, `{"q":"x","per_page":5}`, nil, ClassIgnoredArgument},
		{"without the rename, the value is lost: looks valid (the limit before)", open, `{"q":"x","perPage":5}`, nil, ""},
		{"the renamed parameter not used", open, `{"q":"x"}`, renames, ""},
		{"nested", `{"type":"object","properties":{"o":{"type":"object","properties":{"sortBy":{}}}}}`, `{"o":{"sortBy":1}}`,
			[]Rename{{Parent: []string{"o"}, Old: "sort_by", New: "sortBy"}}, ClassIgnoredArgument},
	} {
		seenSchema := seen
		if tc.name == "nested" {
			seenSchema = `{"type":"object","properties":{"o":{"type":"object","properties":{"sort_by":{}}}}}`
		}
		if got := v.CheckRenamed([]byte(seenSchema), []byte(tc.served), []byte(tc.args), tc.renames); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
