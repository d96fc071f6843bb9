package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/bounded"
)

// pc is a compact (path, kind, class) triple for assertions.
type pc struct {
	Path, Kind string
	Class      Class
}

func changesOf(tc ToolChange) []pc {
	var out []pc
	for _, c := range tc.Changes {
		out = append(out, pc{c.Path, string(c.Kind), c.Class})
	}
	return out
}

func mustTool(t *testing.T, raw string) *Tool {
	t.Helper()
	tool, err := NewTool([]byte(raw))
	if err != nil {
		t.Fatalf("NewTool(%s): %v", raw, err)
	}
	return tool
}

// schemaTool wraps an inputSchema in a tool called "t".
func schemaTool(schema string) string {
	return fmt.Sprintf(`{"name":"t","description":"d","inputSchema":%s}`, schema)
}

func TestDiffToolClassification(t *testing.T) {
	const (
		S  = ClassSchemaCompatible
		B  = ClassBreaking
		D  = ClassDescriptionOnly
		M  = ClassMetadataOnly
		is = "inputSchema"
	)
	obj := func(props, extra string) string {
		return `{"type":"object","properties":{` + props + `}` + extra + `}`
	}
	tests := []struct {
		name  string
		a, b  string
		want  []pc
		class Class
	}{
		{"description only",
			`{"name":"t","description":"old","inputSchema":{}}`, `{"name":"t","description":"new","inputSchema":{}}`,
			[]pc{{"description", "description-changed", D}}, D},
		{"annotations only",
			`{"name":"t","inputSchema":{},"annotations":{"readOnlyHint":false}}`, `{"name":"t","inputSchema":{},"annotations":{"readOnlyHint":true,"openWorldHint":false}}`,
			[]pc{{"annotations.openWorldHint", "metadata-added", M}, {"annotations.readOnlyHint", "metadata-changed", M}}, M},
		{"title outputSchema _meta icons execution",
			`{"name":"t","inputSchema":{}}`, `{"name":"t","inputSchema":{},"title":"T","outputSchema":{},"_meta":{},"icons":[],"execution":{}}`,
			[]pc{{"_meta", "metadata-added", M}, {"execution", "metadata-added", M}, {"icons", "metadata-added", M}, {"outputSchema", "metadata-added", M}, {"title", "metadata-added", M}}, M},
		{"optional property added",
			schemaTool(obj(`"a":{"type":"string"}`, ``)), schemaTool(obj(`"a":{"type":"string"},"b":{"type":"integer"}`, ``)),
			[]pc{{is + ".properties.b", "property-added", S}}, S},
		{"required property added",
			schemaTool(obj(`"a":{"type":"string"}`, ``)), schemaTool(obj(`"a":{"type":"string"},"b":{"type":"integer"}`, `,"required":["b"]`)),
			[]pc{{is + ".properties.b", "property-added", S}, {is + ".required", "required-added", B}}, B},
		{"existing property made required",
			schemaTool(obj(`"a":{"type":"string"}`, ``)), schemaTool(obj(`"a":{"type":"string"}`, `,"required":["a"]`)),
			[]pc{{is + ".required", "required-added", B}}, B},
		{"requirement dropped",
			schemaTool(obj(`"a":{"type":"string"}`, `,"required":["a"]`)), schemaTool(obj(`"a":{"type":"string"}`, `,"required":[]`)),
			[]pc{{is + ".required", "required-removed", S}}, S},
		{"required reordered",
			schemaTool(obj(`"a":{},"b":{}`, `,"required":["a","b"]`)), schemaTool(obj(`"a":{},"b":{}`, `,"required":["b","a"]`)),
			[]pc{{is + ".required", "reordered", S}}, S},
		{"property removed",
			schemaTool(obj(`"a":{"type":"string"},"b":{"type":"integer"}`, ``)), schemaTool(obj(`"a":{"type":"string"}`, ``)),
			[]pc{{is + ".properties.b", "property-removed", B}}, B},
		{"property renamed (same type, nearest name)",
			schemaTool(obj(`"pageIdx":{"type":"number"}`, ``)), schemaTool(obj(`"zzz":{"type":"number"},"pageId":{"type":"number"},"other":{"type":"string"}`, ``)),
			[]pc{{is + ".properties.other", "property-added", S}, {is + ".properties.pageIdx", "property-renamed", B}, {is + ".properties.zzz", "property-added", S}}, B},
		{"rename pairs the successor with evidence, not the nearest name (issue 16: sort was 'renamed to after')",
			schemaTool(obj(`"sort":{"type":"string","description":"Sort order of the results"}`, ``)),
			schemaTool(obj(`"after":{"type":"string","description":"Cursor: return the page after this one"},"orderBy":{"type":"string","description":"Order the results by this field"}`, ``)),
			[]pc{{is + ".properties.after", "property-added", S}, {is + ".properties.sort", "property-renamed", B}}, B},
		{"rename by normalised name",
			schemaTool(obj(`"per_page":{"type":"integer"}`, ``)), schemaTool(obj(`"perPage":{"type":"integer"},"page":{"type":"integer"}`, ``)),
			[]pc{{is + ".properties.page", "property-added", S}, {is + ".properties.per_page", "property-renamed", B}}, B},
		{"no evidence, no rename",
			schemaTool(obj(`"url":{"type":"string","description":"The URL of the request."}`, ``)),
			schemaTool(obj(`"requestFilePath":{"type":"string","description":"Where to save the request body."}`, ``)),
			[]pc{{is + ".properties.requestFilePath", "property-added", S}, {is + ".properties.url", "property-removed", B}}, B},
		{"no rename across types",
			schemaTool(obj(`"limit":{"type":"integer","description":"Max results"}`, ``)), schemaTool(obj(`"limits":{"type":"string","description":"Max results"}`, ``)),
			[]pc{{is + ".properties.limit", "property-removed", B}, {is + ".properties.limits", "property-added", S}}, B},
		{"type changed",
			schemaTool(obj(`"n":{"type":"string"}`, ``)), schemaTool(obj(`"n":{"type":"integer"}`, ``)),
			[]pc{{is + ".properties.n.type", "type-changed", B}}, B},
		{"type narrowed number to integer",
			schemaTool(obj(`"n":{"type":"number"}`, ``)), schemaTool(obj(`"n":{"type":"integer"}`, ``)),
			[]pc{{is + ".properties.n.type", "type-changed", B}}, B},
		{"type widened integer to number",
			schemaTool(obj(`"n":{"type":"integer"}`, ``)), schemaTool(obj(`"n":{"type":["number","null"]}`, ``)),
			[]pc{{is + ".properties.n.type", "type-widened", S}}, S},
		{"nullable dropped",
			schemaTool(obj(`"n":{"type":["string","null"]}`, ``)), schemaTool(obj(`"n":{"type":"string"}`, ``)),
			[]pc{{is + ".properties.n.type", "nullable-removed", B}}, B},
		{"nullable added to a type list",
			schemaTool(obj(`"n":{"type":"string"}`, ``)), schemaTool(obj(`"n":{"type":["string","null"]}`, ``)),
			[]pc{{is + ".properties.n.type", "nullable-added", S}}, S},
		{"nullable through anyOf (issue 16: was keyword-added, breaking)",
			schemaTool(obj(`"n":{"type":"string","description":"a name"}`, ``)),
			schemaTool(obj(`"n":{"anyOf":[{"type":"string"},{"type":"null"}],"description":"a name"}`, ``)),
			[]pc{{is + ".properties.n.anyOf[1]", "nullable-added", S}}, S},
		{"nullable through oneOf, branch spelled with its own description",
			schemaTool(obj(`"n":{"type":"integer","minimum":1}`, ``)),
			schemaTool(obj(`"n":{"oneOf":[{"type":"integer","minimum":1,"description":"count"},{"type":"null"}]}`, ``)),
			[]pc{{is + ".properties.n.oneOf[0].description", "schema-description-changed", S}, {is + ".properties.n.oneOf[1]", "nullable-added", S}}, S},
		{"nullable removed from a union",
			schemaTool(obj(`"n":{"anyOf":[{"type":"string"},{"type":"null"}]}`, ``)), schemaTool(obj(`"n":{"type":"string"}`, ``)),
			[]pc{{is + ".properties.n.anyOf[1]", "nullable-removed", B}}, B},
		{"type list spelled as anyOf",
			schemaTool(obj(`"n":{"type":["string","null"]}`, ``)), schemaTool(obj(`"n":{"anyOf":[{"type":"null"},{"type":"string"}]}`, ``)),
			[]pc{{is + ".properties.n", "reordered", S}}, S},
		{"array items widened (issue 16: was keyword-added, breaking)",
			schemaTool(obj(`"l":{"type":"array","items":{"type":"string"}}`, ``)),
			schemaTool(obj(`"l":{"type":"array","items":{"oneOf":[{"type":"string"},{"type":"object","properties":{"k":{"type":"string"}}}]}}`, ``)),
			[]pc{{is + ".properties.l.items.oneOf[1]", "branch-added", S}}, S},
		{"object became one of two objects (split, old values fit neither)",
			schemaTool(obj(`"p":{"type":"object","properties":{"a":{},"b":{}},"additionalProperties":false}`, ``)),
			schemaTool(obj(`"p":{"anyOf":[{"type":"object","properties":{"a":{}},"additionalProperties":false},{"type":"object","properties":{"b":{}},"additionalProperties":false}]}`, ``)),
			[]pc{{is + ".properties.p.anyOf[0].properties.b", "property-removed", B}, {is + ".properties.p.anyOf[1]", "branch-added", S}}, B},
		{"union became a wider schema",
			schemaTool(obj(`"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}`, ``)), schemaTool(obj(`"v":{"type":["string","number"]}`, ``)),
			[]pc{{is + ".properties.v.type", "type-widened", S}}, S},
		{"union lost an alternative no other accepts",
			schemaTool(obj(`"v":{"anyOf":[{"type":"string"},{"type":"object"}]}`, ``)), schemaTool(obj(`"v":{"anyOf":[{"type":"string"}]}`, ``)),
			[]pc{{is + ".properties.v.anyOf[1]", "branch-removed", B}}, B},
		{"oneOf alternative overlapping an old one",
			schemaTool(obj(`"v":{"oneOf":[{"type":"string"}]}`, ``)), schemaTool(obj(`"v":{"oneOf":[{"type":"string"},{"type":"string","maxLength":9}]}`, ``)),
			[]pc{{is + ".properties.v.oneOf[1]", "oneof-overlap", B}}, B},
		{"anyOf alternative overlapping an old one (fine: anyOf needs one match)",
			schemaTool(obj(`"v":{"anyOf":[{"type":"string"}]}`, ``)), schemaTool(obj(`"v":{"anyOf":[{"type":"string"},{"type":"string","maxLength":9}]}`, ``)),
			[]pc{{is + ".properties.v.anyOf[1]", "branch-added", S}}, S},
		{"enum widened",
			schemaTool(obj(`"f":{"enum":["png","jpeg"]}`, ``)), schemaTool(obj(`"f":{"enum":["png","jpeg","webp"]}`, ``)),
			[]pc{{is + ".properties.f.enum", "enum-widened", S}}, S},
		{"enum narrowed",
			schemaTool(obj(`"f":{"enum":["png","jpeg"]}`, ``)), schemaTool(obj(`"f":{"enum":["png"]}`, ``)),
			[]pc{{is + ".properties.f.enum", "enum-narrowed", B}}, B},
		{"enum added",
			schemaTool(obj(`"f":{"type":"string"}`, ``)), schemaTool(obj(`"f":{"type":"string","enum":["a"]}`, ``)),
			[]pc{{is + ".properties.f.enum", "enum-added", B}}, B},
		{"enum removed",
			schemaTool(obj(`"f":{"type":"string","enum":["a"]}`, ``)), schemaTool(obj(`"f":{"type":"string"}`, ``)),
			[]pc{{is + ".properties.f.enum", "enum-removed", S}}, S},
		{"single enum to const",
			schemaTool(obj(`"f":{"enum":["a"]}`, ``)), schemaTool(obj(`"f":{"const":"a"}`, ``)),
			[]pc{{is + ".properties.f.const", "const-enum-swapped", S}}, S},
		{"const added",
			schemaTool(obj(`"f":{"type":"string"}`, ``)), schemaTool(obj(`"f":{"type":"string","const":"x"}`, ``)),
			[]pc{{is + ".properties.f.const", "const-added", B}}, B},
		{"additionalProperties closed",
			schemaTool(obj(`"a":{}`, ``)), schemaTool(obj(`"a":{}`, `,"additionalProperties":false`)),
			[]pc{{is + ".additionalProperties", "additional-properties-closed", B}}, B},
		{"additionalProperties opened",
			schemaTool(obj(`"a":{}`, `,"additionalProperties":false`)), schemaTool(obj(`"a":{}`, ``)),
			[]pc{{is + ".additionalProperties", "additional-properties-opened", S}}, S},
		{"additionalProperties narrowed to a schema",
			schemaTool(obj(`"a":{}`, `,"additionalProperties":true`)), schemaTool(obj(`"a":{}`, `,"additionalProperties":{"type":"string"}`)),
			[]pc{{is + ".additionalProperties", "additional-properties-narrowed", B}}, B},
		{"minimum raised",
			schemaTool(obj(`"n":{"type":"integer","minimum":1}`, ``)), schemaTool(obj(`"n":{"type":"integer","minimum":5}`, ``)),
			[]pc{{is + ".properties.n.minimum", "constraint-tightened", B}}, B},
		{"minimum lowered",
			schemaTool(obj(`"n":{"type":"integer","minimum":5}`, ``)), schemaTool(obj(`"n":{"type":"integer","minimum":1}`, ``)),
			[]pc{{is + ".properties.n.minimum", "constraint-loosened", S}}, S},
		{"maxLength lowered",
			schemaTool(obj(`"s":{"type":"string","maxLength":100}`, ``)), schemaTool(obj(`"s":{"type":"string","maxLength":10}`, ``)),
			[]pc{{is + ".properties.s.maxLength", "constraint-tightened", B}}, B},
		{"maxItems removed",
			schemaTool(obj(`"l":{"type":"array","maxItems":3}`, ``)), schemaTool(obj(`"l":{"type":"array"}`, ``)),
			[]pc{{is + ".properties.l.maxItems", "constraint-loosened", S}}, S},
		{"safe integer bound added",
			schemaTool(obj(`"n":{"type":"integer"}`, ``)), schemaTool(obj(`"n":{"type":"integer","maximum":9007199254740991}`, ``)),
			[]pc{{is + ".properties.n.maximum", "safe-integer-bound-added", S}}, S},
		{"draft-4 exclusiveMinimum turned on",
			schemaTool(obj(`"n":{"minimum":0,"exclusiveMinimum":false}`, ``)), schemaTool(obj(`"n":{"minimum":0,"exclusiveMinimum":true}`, ``)),
			[]pc{{is + ".properties.n.exclusiveMinimum", "constraint-tightened", B}}, B},
		{"pattern added",
			schemaTool(obj(`"s":{"type":"string"}`, ``)), schemaTool(obj(`"s":{"type":"string","pattern":"^[a-z]+$"}`, ``)),
			[]pc{{is + ".properties.s.pattern", "assertion-added", B}}, B},
		{"minLength added",
			schemaTool(obj(`"s":{"type":"string"}`, ``)), schemaTool(obj(`"s":{"type":"string","minLength":1}`, ``)),
			[]pc{{is + ".properties.s.minLength", "constraint-tightened", B}}, B},
		{"minimum removed",
			schemaTool(obj(`"n":{"type":"integer","minimum":1}`, ``)), schemaTool(obj(`"n":{"type":"integer"}`, ``)),
			[]pc{{is + ".properties.n.minimum", "constraint-loosened", S}}, S},
		{"format removed",
			schemaTool(obj(`"s":{"type":"string","format":"uri"}`, ``)), schemaTool(obj(`"s":{"type":"string"}`, ``)),
			[]pc{{is + ".properties.s.format", "assertion-removed", S}}, S},
		{"uniqueItems turned on",
			schemaTool(obj(`"l":{"type":"array"}`, ``)), schemaTool(obj(`"l":{"type":"array","uniqueItems":true}`, ``)),
			[]pc{{is + ".properties.l.uniqueItems", "constraint-tightened", B}}, B},
		{"description inside schema",
			schemaTool(obj(`"s":{"type":"string","description":"old"}`, ``)), schemaTool(obj(`"s":{"type":"string","description":"newer"}`, ``)),
			[]pc{{is + ".properties.s.description", "schema-description-changed", S}}, S},
		{"default and $schema changed",
			schemaTool(`{"$schema":"a","properties":{"s":{"default":1}}}`), schemaTool(`{"$schema":"b","properties":{"s":{"default":2}}}`),
			[]pc{{is + ".$schema", "annotation-changed", S}, {is + ".properties.s.default", "annotation-changed", S}}, S},
		{"unknown keyword",
			schemaTool(`{"x-order":1}`), schemaTool(`{"x-order":2}`),
			[]pc{{is + ".x-order", "annotation-changed", S}}, S},
		{"nested items",
			schemaTool(obj(`"l":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}},"required":[]}}`, ``)),
			schemaTool(obj(`"l":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]}}`, ``)),
			[]pc{{is + ".properties.l.items.required", "required-added", B}}, B},
		{"tuple items",
			schemaTool(`{"items":[{"type":"string"},{"type":"string"}]}`), schemaTool(`{"items":[{"type":"string"},{"type":"number"}]}`),
			[]pc{{is + ".items[1].type", "type-changed", B}}, B},
		{"anyOf branch added",
			schemaTool(obj(`"v":{"anyOf":[{"type":"string"}]}`, ``)), schemaTool(obj(`"v":{"anyOf":[{"type":"string"},{"type":"null"},{"type":"number"}]}`, ``)),
			[]pc{{is + ".properties.v.anyOf[1]", "nullable-added", S}, {is + ".properties.v.anyOf[2]", "branch-added", S}}, S},
		{"oneOf branch removed",
			schemaTool(obj(`"v":{"oneOf":[{"type":"string"},{"type":"null"}]}`, ``)), schemaTool(obj(`"v":{"oneOf":[{"type":"string"}]}`, ``)),
			[]pc{{is + ".properties.v.oneOf[1]", "nullable-removed", B}}, B},
		{"anyOf branch edited in place (paired)",
			schemaTool(`{"anyOf":[{"type":"string"},{"type":"object","properties":{"a":{}}}]}`), schemaTool(`{"anyOf":[{"type":"object","properties":{"a":{},"b":{}}},{"type":"string"}]}`),
			[]pc{{is + ".anyOf[0].properties.b", "property-added", S}}, S},
		{"allOf branch added",
			schemaTool(`{"allOf":[{"required":["a"]}]}`), schemaTool(`{"allOf":[{"required":["a"]},{"required":["b"]},{"required":["c"]}]}`),
			[]pc{{is + ".allOf[1]", "allof-branch-added", B}, {is + ".allOf[2]", "allof-branch-added", B}}, B},
		{"$ref inlined, same schema",
			schemaTool(`{"properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`), schemaTool(`{"properties":{"p":{"type":"string"}},"$defs":{"a":{"type":"string"}}}`),
			[]pc{{is + ".properties.p", "reordered", S}}, S},
		{"$ref replaced by a narrower inline schema",
			schemaTool(`{"properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`), schemaTool(`{"properties":{"p":{"type":"string","minLength":3}},"$defs":{"a":{"type":"string"}}}`),
			[]pc{{is + ".properties.p.minLength", "constraint-tightened", B}}, B},
		{"$ref to a wider definition",
			schemaTool(`{"properties":{"p":{"type":"string"}}}`), schemaTool(`{"properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":["string","number"]}}}`),
			[]pc{{is + ".$defs.a", "definition-added", S}, {is + ".properties.p.type", "type-widened", S}}, S},
		{"recursive definitions end",
			schemaTool(`{"properties":{"n":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}}}`),
			schemaTool(`{"properties":{"n":{"$ref":"#/$defs/item"}},"$defs":{"item":{"type":"object","properties":{"next":{"$ref":"#/$defs/item"}}}}}`),
			[]pc{{is + ".$defs.item", "definition-added", S}, {is + ".$defs.node", "definition-removed", S}, {is + ".properties.n", "reordered", S}}, S},
		{"$ref changed",
			schemaTool(`{"properties":{"p":{"$ref":"#/$defs/a"}}}`), schemaTool(`{"properties":{"p":{"$ref":"#/$defs/b"}}}`),
			[]pc{{is + ".properties.p.$ref", "ref-changed", B}}, B},
		{"a used definition changed: reported where it is used",
			schemaTool(`{"properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"},"gone":{}}}`),
			schemaTool(`{"properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"integer"},"new":{}}}`),
			[]pc{{is + ".$defs.gone", "definition-removed", S}, {is + ".$defs.new", "definition-added", S}, {is + ".properties.p.type", "type-changed", B}}, B},
		{"unused definition changed",
			schemaTool(`{"properties":{"p":{"$ref":"#/$defs/b"}},"$defs":{"a":{"type":"string"},"b":{"$ref":"#/$defs/c"},"c":{"type":"string"}}}`),
			schemaTool(`{"properties":{"p":{"$ref":"#/$defs/b"}},"$defs":{"a":{"type":"integer"},"b":{"$ref":"#/$defs/c"},"c":{"type":"integer"}}}`),
			[]pc{{is + ".$defs.a", "unused-definition-changed", S}, {is + ".properties.p.type", "type-changed", B}}, B},
		{"boolean schema closed",
			schemaTool(obj(`"a":true`, ``)), schemaTool(obj(`"a":false`, ``)),
			[]pc{{is + ".properties.a", "schema-closed", B}}, B},
		{"odd property key quoted",
			schemaTool(obj(`"a.b":{"type":"string"}`, ``)), schemaTool(obj(`"a.b":{"type":"number"}`, ``)),
			[]pc{{is + `.properties["a.b"].type`, "type-changed", B}}, B},
		{"number spelling only",
			schemaTool(obj(`"n":{"maximum":10}`, ``)), schemaTool(obj(`"n":{"maximum":10.0}`, ``)),
			[]pc{{is + ".properties.n.maximum", "reordered", S}}, S},
		{"schema added where none was",
			`{"name":"t","description":"d"}`, schemaTool(obj(`"a":{}`, ``)),
			[]pc{{is + ".properties.a", "property-added", S}}, S},
		{"null schema read as an object schema",
			`{"name":"t","description":"d","inputSchema":null}`, schemaTool(`{"type":"object"}`),
			[]pc{{is, "reordered", S}}, S},
		{"type object stated at the root",
			schemaTool(`{"properties":{"a":{}}}`), schemaTool(`{"type":"object","properties":{"a":{}}}`),
			[]pc{{is + ".type", "object-type-stated", S}}, S},
		{"type object added below the root",
			schemaTool(obj(`"o":{"properties":{"a":{}}}`, ``)), schemaTool(obj(`"o":{"type":"object","properties":{"a":{}}}`, ``)),
			[]pc{{is + ".properties.o.type", "type-added", B}}, B},
		{"mixed: most severe wins",
			`{"name":"t","description":"x","inputSchema":{"properties":{"a":{}}},"annotations":{}}`,
			`{"name":"t","description":"y","inputSchema":{"properties":{"a":{},"b":{}}}}`,
			[]pc{{"annotations", "metadata-removed", M}, {"description", "description-changed", D}, {is + ".properties.b", "property-added", S}}, S},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := mustTool(t, tc.a), mustTool(t, tc.b)
			got, changed := DiffTool(a, b)
			if !changed {
				t.Fatal("DiffTool reports no change")
			}
			if diff := cmp.Diff(tc.want, changesOf(got)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			for _, c := range got.Changes {
				if c.Class == ClassNone || c.Class != ClassOf(c.Kind) {
					t.Errorf("%+v: not the class catalog.Kinds gives its kind", c)
				}
			}
			if got.Class != tc.class {
				t.Errorf("class = %s, want %s", got.Class, tc.class)
			}
			if _, same := DiffTool(a, a); same {
				t.Error("a tool differs from itself")
			}
		})
	}
}

// TestDiffNestedUnionsEnd pins that unions nested in unions, whose
// alternatives are compared pairwise at every level, stay within the trial
// budget: 5 levels of 5-way anyOf would take about 25^5 comparisons
// unbounded.
func TestDiffNestedUnionsEnd(t *testing.T) {
	nest := func(leaf string) string {
		s := leaf
		for range 5 {
			var br []string
			for i := range 5 {
				br = append(br, fmt.Sprintf(`{"type":"object","properties":{"k%d":%s}}`, i, s))
			}
			s = `{"anyOf":[` + strings.Join(br, ",") + `]}`
		}
		return s
	}
	a := mustTool(t, schemaTool(obj1("v", nest(`{"type":"string"}`))))
	b := mustTool(t, schemaTool(obj1("v", nest(`{"type":"integer"}`))))
	bounded.Run(t, bounded.Limits{Deadline: bounded.DefaultDeadline, MaxHeapGrowth: 1 << 30}, func() error {
		tc, changed := DiffTool(a, b)
		if !changed || tc.Class != ClassBreaking {
			t.Errorf("string → integer deep inside: class %s, want breaking", tc.Class)
		}
		return nil
	})
}

func obj1(name, schema string) string {
	return `{"type":"object","properties":{"` + name + `":` + schema + `}}`
}

func TestDiffServers(t *testing.T) {
	mk := func(version string, tools ...string) *Server {
		var ts []*Tool
		for _, raw := range tools {
			ts = append(ts, mustTool(t, raw))
		}
		s, err := NewServer("demo", version, "", ts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := mk("1", toolGreet, toolAdd, `{"name":"old","inputSchema":{}}`)
	b := mk("2", `{"name":"new","inputSchema":{}}`, toolAdd,
		`{"name":"greet","description":"Say hello to someone, politely.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}}`)
	d := Diff(a, b)
	if diff := cmp.Diff([]string{"new"}, d.Added); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"old"}, d.Removed); diff != "" {
		t.Error(diff)
	}
	if len(d.Changed) != 1 || d.Changed[0].Name != "greet" || d.Changed[0].Class != ClassDescriptionOnly {
		t.Errorf("changed = %+v", d.Changed)
	}
	if d.Unchanged != 1 || d.Class != ClassBreaking || d.From != "demo@1" || d.To != "demo@2" || d.FromTools != 3 || d.ToTools != 3 {
		t.Errorf("summary = %+v", d)
	}
	if diff := cmp.Diff(map[string]int{"description-only": 1}, d.ByClass); diff != "" {
		t.Error(diff)
	}
	same := Diff(a, a)
	if len(same.Added)+len(same.Removed)+len(same.Changed) != 0 || same.Class != ClassNone || same.Unchanged != 3 {
		t.Errorf("self diff = %+v", same)
	}
	onlyAdded := Diff(mk("1", toolAdd), mk("2", toolAdd, toolGreet))
	if onlyAdded.Class != ClassSchemaCompatible {
		t.Errorf("adding a tool: class %s, want schema-compatible", onlyAdded.Class)
	}
	empty := Diff(nil, nil)
	if empty.Class != ClassNone {
		t.Errorf("nil diff class = %s", empty.Class)
	}
}

func TestDiffToolWithoutRaw(t *testing.T) {
	a := &Tool{Name: "x", Description: "one", InputSchema: []byte(`{"type":"object"}`)}
	b := &Tool{Name: "x", Description: "one", InputSchema: []byte(`{"type":"object","properties":{"p":{}}}`)}
	tc, changed := DiffTool(a, b)
	if !changed || tc.Class != ClassSchemaCompatible {
		t.Errorf("got %+v", tc)
	}
	bad := &Tool{Name: "x", InputSchema: []byte(`{`)}
	if tc, changed := DiffTool(a, bad); !changed || tc.Class != ClassBreaking {
		t.Errorf("unparseable: %+v", tc)
	}
}

func TestClassText(t *testing.T) {
	for c := ClassNone; c <= ClassBreaking; c++ {
		b, _ := c.MarshalText()
		var back Class
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Errorf("round trip of %s: %v %v", c, back, err)
		}
	}
	var c Class
	if err := c.UnmarshalText([]byte("severe")); err == nil {
		t.Error("want error for an unknown class")
	}
}

// TestRenameNamesItsSuccessor pins issue 16's wrong label ("sort renamed to
// after" where the successor was orderBy): the rename names the added
// property with the evidence, and the evidence is said.
func TestRenameNamesItsSuccessor(t *testing.T) {
	a := mustTool(t, schemaTool(`{"type":"object","properties":{"sort":{"type":"string","description":"Sort order of the results"}}}`))
	b := mustTool(t, schemaTool(`{"type":"object","properties":{"after":{"type":"string","description":"Cursor: return the page after this one"},"orderBy":{"type":"string","description":"Order the results by this field"}}}`))
	tc, _ := DiffTool(a, b)
	want := Change{Path: "inputSchema.properties.sort", Kind: KindPropertyRenamed, Class: ClassBreaking, Detail: "to orderBy (description 50% alike)"}
	if !slices.Contains(tc.Changes, want) {
		t.Errorf("want %+v among %+v", want, tc.Changes)
	}
}
