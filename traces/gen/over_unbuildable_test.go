package gen

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// oddV1 has tools whose required arguments the argument builder cannot
// satisfy (a pattern no string matches: a word boundary between two word
// characters; contradictory bounds; an external $ref) beside tools it can
// (a pattern, oneOf, a local $ref, a mixed enum, formats, no inputSchema).
const oddV1 = `{"tools":[
 {"name":"pat","inputSchema":{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$"}},"required":["code"]}},
 {"name":"wb","inputSchema":{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}\\b[0-9]{4}$"}},"required":["code"]}},
 {"name":"impossible","inputSchema":{"type":"object","properties":{"z":{"type":"string","minLength":5,"maxLength":2}},"required":["z"]}},
 {"name":"extref","inputSchema":{"type":"object","properties":{"w":{"$ref":"https://example.com/x.json"}},"required":["w"]}},
 {"name":"oneof","inputSchema":{"type":"object","properties":{"x":{"oneOf":[{"type":"string","minLength":3},{"type":"integer","minimum":5}]}},"required":["x"]}},
 {"name":"ref","inputSchema":{"type":"object","$defs":{"d":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}},"properties":{"y":{"$ref":"#/$defs/d"}},"required":["y"]}},
 {"name":"enum","inputSchema":{"type":"object","properties":{"e":{"enum":["a","b",3]}},"required":["e"]}},
 {"name":"fmt","inputSchema":{"type":"object","properties":{"m":{"type":"string","format":"email"},"u":{"type":"string","format":"uuid"}},"required":["m","u"]}},
 {"name":"noschema"}]}`

func oddCatalog(t *testing.T, versions ...string) *catalog.Catalog {
	t.Helper()
	var servers []*catalog.Server
	for i, v := range versions {
		s, err := catalog.Parse([]byte(v), "odd", []string{"1.0.0", "1.1.0", "1.2.0"}[i], "")
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	return catalog.New(servers...)
}

// TestOverNeverCallsUnbuildableTools pins that a generation over a catalog
// never calls a tool for which it cannot build arguments valid against the
// version in force, and names every such tool (Unbuildable): it called them
// with {} — missing their required properties — which a replay then counts
// as malformed calls the strategy did not cause.
func TestOverNeverCallsUnbuildableTools(t *testing.T) {
	cat := oddCatalog(t, oddV1, oddV1)
	g, err := NewOver(cat, overParams(80, 0.5, "odd"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	never := map[string]bool{}
	for _, u := range g.Unbuildable() {
		got = append(got, u.Label())
		never[u.Server+"@"+u.Version+"/"+u.Tool] = true
		if u.Reason == "" {
			t.Errorf("%s: no reason", u.Label())
		}
	}
	want := []string{"odd@1.0.0/wb", "odd@1.0.0/impossible", "odd@1.0.0/extref", "odd@1.1.0/wb", "odd@1.1.0/impossible", "odd@1.1.0/extref"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("Unbuildable (-want +got):\n%s", d)
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, s := range g.Servers() {
		for _, tl := range s.Tools {
			if sch, err := compileAsserting(tl.Name, tl.InputSchema); err == nil {
				schemas[s.Key()+"@"+s.Version+"/"+tl.Name] = sch
			}
		}
	}
	calls := map[string]int{}
	for s := range g.Sessions() {
		ver := s.Start().Servers()[0].Version
		for _, ev := range s.Events {
			switch ev.Type {
			case traces.CatalogChange:
				ver = ev.Version()
			case traces.ToolCall:
				key := ev.Server + "@" + ver + "/" + ev.Tool
				calls[ev.Tool]++
				if never[key] {
					t.Fatalf("%s: calls %s with %s, which Unbuildable names", s.ID, key, ev.Args)
				}
				sch, ok := schemas[key]
				if !ok {
					continue // noschema: nothing to validate against
				}
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(ev.Args))
				if err != nil {
					t.Fatal(err)
				}
				if err := sch.Validate(inst); err != nil {
					t.Fatalf("%s %s: args %s invalid: %v", s.ID, key, ev.Args, err)
				}
			}
		}
	}
	for _, tool := range []string{"pat", "oneof", "ref", "enum", "fmt", "noschema"} {
		if calls[tool] == 0 {
			t.Errorf("%s is never called in 80 sessions (calls: %v)", tool, calls)
		}
	}

	// A version none of whose tools can be called is refused.
	only := `{"tools":[{"name":"wb","inputSchema":{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]\\b[0-9]$"}},"required":["code"]}}]}`
	_, err = NewOver(oddCatalog(t, oddV1, only), overParams(10, 0, "odd"))
	if err == nil || !strings.Contains(err.Error(), "odd@1.1.0: no valid arguments could be built for any of its tools (wb: ") {
		t.Errorf("err = %v, want odd@1.1.0 refused", err)
	}
}
