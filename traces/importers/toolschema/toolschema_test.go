package toolschema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// All tool definitions here are hand-built for the tests.
func TestParseShapes(t *testing.T) {
	const schema = `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`
	tests := []struct {
		name    string
		data    string
		domains []string
		tools   [][]string // per set
		schemaQ string     // compact inputSchema expected on tool "search" (if present)
		dropped Dropped
	}{
		{
			name:    "mcp tools/list",
			data:    `{"tools":[{"name":"search","description":"d","inputSchema":` + schema + `,"annotations":{"readOnlyHint":true},"_custom":1}],"nextCursor":"x"}`,
			domains: []string{""}, tools: [][]string{{"search"}}, schemaQ: schema,
			dropped: Dropped{"tools[]._custom": 1, "nextCursor": 1},
		},
		{
			name:    "json-rpc envelope",
			data:    `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"search","inputSchema":` + schema + `}]}}`,
			domains: []string{""}, tools: [][]string{{"search"}}, schemaQ: schema, dropped: Dropped{},
		},
		{
			name:    "openai tools array",
			data:    `[{"type":"function","function":{"name":"search","description":"d","parameters":` + schema + `,"strict":true}}]`,
			domains: []string{""}, tools: [][]string{{"search"}}, schemaQ: schema,
			dropped: Dropped{"[].function.strict": 1},
		},
		{
			name:    "flat function",
			data:    `[{"type":"function","name":"search","parameters":` + schema + `}]`,
			domains: []string{""}, tools: [][]string{{"search"}}, schemaQ: schema, dropped: Dropped{},
		},
		{
			name:    "anthropic tools with a server tool",
			data:    `[{"name":"search","input_schema":` + schema + `,"cache_control":{"type":"ephemeral"}},{"type":"web_search_20250305","name":"web_search"}]`,
			domains: []string{""}, tools: [][]string{{"search"}}, schemaQ: schema,
			dropped: Dropped{"[].cache_control": 1, "[] (type web_search_20250305, no schema)": 1},
		},
		{
			name:    "with domain",
			data:    `{"domain":"shop","tools":[{"name":"search","inputSchema":` + schema + `}]}`,
			domains: []string{"shop"}, tools: [][]string{{"search"}}, schemaQ: schema, dropped: Dropped{},
		},
		{
			name: "tau2 listing",
			data: `{"shop":{"description":"x","tools":[{"name":"search","type":"READ","description":"d","returns":"r",` +
				`"parameters":[{"name":"q","type":"string","required":true,"description":""}]}]},` +
				`"bank":{"tools":[{"name":"pay","type":"WRITE","parameters":[]}]}}`,
			domains: []string{"bank", "shop"}, tools: [][]string{{"pay"}, {"search"}}, schemaQ: schema,
			dropped: Dropped{"<domain>.description": 1, "<domain>.tools[].returns": 1, "<domain>.tools[].type": 2},
		},
		{
			name:    "no schema and a duplicate",
			data:    `[{"name":"ping"},{"name":"ping","description":"again"}]`,
			domains: []string{""}, tools: [][]string{{"ping"}},
			dropped: Dropped{`[] (no input schema: wrote {"type":"object"})`: 2, "[] (duplicate name, later definition ignored)": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sets, dropped, err := Parse("f.json", []byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			var domains []string
			var tools [][]string
			for _, s := range sets {
				domains = append(domains, s.Domain)
				var names []string
				for _, tl := range s.Tools {
					names = append(names, tl.Name)
					if tl.Name == "search" && string(tl.InputSchema) != tt.schemaQ {
						t.Errorf("inputSchema = %s, want %s", tl.InputSchema, tt.schemaQ)
					}
					if !json.Valid(tl.InputSchema) {
						t.Errorf("tool %s: invalid schema %s", tl.Name, tl.InputSchema)
					}
				}
				tools = append(tools, names)
			}
			if d := cmp.Diff(tt.domains, domains); d != "" {
				t.Errorf("domains (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.tools, tools); d != "" {
				t.Errorf("tools (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.dropped, dropped); d != "" {
				t.Errorf("dropped (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, data := range []string{``, `3`, `{"x":1}`, `[{"description":"no name"}]`, `[{"name":"a","inputSchema":[1]}]`, `{"tools":{}}`, `[1]`} {
		if _, _, err := Parse("f.json", []byte(data)); err == nil {
			t.Errorf("Parse(%s) succeeded", data)
		}
	}
}

func TestEncodeAndHash(t *testing.T) {
	sets, _, err := Parse("a", []byte(`[{"name":"b","inputSchema":{"type":"object","properties":{"y":{},"x":{}}},"description":"d"}]`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Encode(sets[0].Tools)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"tools\": [\n    {\n      \"name\": \"b\",\n      \"description\": \"d\",\n      \"inputSchema\": {\n        \"type\": \"object\",\n        \"properties\": {\n          \"y\": {},\n          \"x\": {}\n        }\n      }\n    }\n  ]\n}\n"
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("Encode (-want +got):\n%s", d)
	}
	// The hash ignores key order and white space but not content.
	same, _, _ := Parse("a", []byte(`[{"description":"d","inputSchema":{"properties":{"x":{},"y":{}},"type":"object"},"name":"b"}]`))
	other, _, _ := Parse("a", []byte(`[{"name":"b","inputSchema":{"type":"object"},"description":"d"}]`))
	if h := Hash(sets[0].Tools); h != Hash(same[0].Tools) || h == Hash(other[0].Tools) || len(h) != 12 {
		t.Errorf("hashes %s %s %s", h, Hash(same[0].Tools), Hash(other[0].Tools))
	}
	if e, _ := Encode(nil); !strings.Contains(string(e), `"tools": []`) {
		t.Errorf("Encode(nil) = %s", e)
	}
}

func TestLoadFileNames(t *testing.T) {
	dir := t.TempDir()
	list := `{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`
	for _, n := range []string{"files@1.2.0.json", "tools_shop.json", "tools_bank.openai_format.json", "plain.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(list), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ file, server, version, domain string }{
		{"files@1.2.0.json", "files", "1.2.0", ""},
		{"tools_shop.json", "", "", "shop"},
		{"tools_bank.openai_format.json", "", "", "bank"},
		{"plain.json", "", "", ""},
	}
	for _, tt := range tests {
		sets, _, err := LoadFile(filepath.Join(dir, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		s := sets[0]
		if s.Server != tt.server || s.Version != tt.version || s.Domain != tt.domain || s.Source != tt.file {
			t.Errorf("%s: server %q version %q domain %q source %q", tt.file, s.Server, s.Version, s.Domain, s.Source)
		}
	}
	if _, _, err := LoadFile(filepath.Join(dir, "absent.json")); err == nil {
		t.Error("LoadFile of a missing file succeeded")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`))
	f.Add([]byte(`[{"type":"function","function":{"name":"a","parameters":{}}}]`))
	f.Add([]byte(`{"d":{"tools":[{"name":"a","parameters":[{"name":"x","type":"string","required":true}]}]}}`))
	f.Add([]byte(`{"result":{"tools":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sets, _, err := Parse("fuzz", data)
		if err != nil {
			return
		}
		for _, s := range sets {
			for _, tl := range s.Tools {
				if tl.Name == "" || !json.Valid(tl.InputSchema) {
					t.Fatalf("bad tool %+v", tl)
				}
			}
			if _, err := Encode(s.Tools); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestMarkFidelity pins the _meta marks: they keep other _meta members,
// read back, and an exact fidelity adds nothing.
func TestMarkFidelity(t *testing.T) {
	tl := Tool{Name: "t", InputSchema: emptySchema, Meta: json.RawMessage(`{"vendor/x":1}`)}
	if got := Mark(tl, Exact, "why"); string(got.Meta) != `{"vendor/x":1}` {
		t.Errorf("exact mark changed _meta to %s", got.Meta)
	}
	m := Mark(tl, Approximate, "rebuilt")
	if string(m.Meta) != `{"defersim/schema":"approximate","defersim/schema_note":"rebuilt","vendor/x":1}` {
		t.Errorf("_meta = %s", m.Meta)
	}
	if f, note := FidelityOf(&m); f != Approximate || note != "rebuilt" {
		t.Errorf("FidelityOf = %q, %q", f, note)
	}
	if f, _ := FidelityOf(&tl); f != Exact {
		t.Errorf("unmarked tool reads as %q", f)
	}
	p := Placeholder("bash", "", "no schema")
	if f, _ := FidelityOf(&p); f != Missing || string(p.InputSchema) != `{"type":"object"}` {
		t.Errorf("placeholder = %+v", p)
	}
}

// TestListingIsApproximate pins that the tau2 leaderboard listing (a
// simplified description for a web page) reads as approximate.
func TestListingIsApproximate(t *testing.T) {
	sets, _, err := Parse("listing", []byte(`{"shop":{"tools":[{"name":"s","parameters":[{"name":"q","type":"string","required":true}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if sets[0].Fidelity != Approximate || sets[0].Note == "" {
		t.Errorf("listing set fidelity %q note %q", sets[0].Fidelity, sets[0].Note)
	}
	sets, _, err = Parse("mcp", []byte(`{"tools":[{"name":"s","inputSchema":{"type":"object"}}]}`))
	if err != nil || sets[0].Fidelity != Exact {
		t.Errorf("tools/list fidelity %q, %v", sets[0].Fidelity, err)
	}
}
