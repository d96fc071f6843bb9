package importers_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// TestFidelitySources pins how exact, approximate and fallback schema
// sources combine: an approximate source contributes its whole set, marked;
// a fallback source only the tools calls need and nothing else defines,
// marked; the report lists the calls of marked tools and how much of each
// user source the sessions used. All files are hand-built here.
func TestFidelitySources(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	obj := `{"type":"object"}`
	conv := write("conv.jsonl", `{"id":"s1","messages":[{"role":"user","content":"go"},`+
		`{"role":"assistant","tool_calls":[`+
		`{"id":"1","function":{"name":"alpha","arguments":"{}"}},`+
		`{"id":"2","function":{"name":"beta","arguments":"{}"}},`+
		`{"id":"3","function":{"name":"gamma","arguments":"{}"}},`+
		`{"id":"4","function":{"name":"delta","arguments":"{}"}}]}]}`+"\n"+
		`{"id":"s2","messages":[{"role":"user","content":"again"},`+
		`{"role":"assistant","tool_calls":[{"id":"1","function":{"name":"alpha","arguments":"{}"}}]}]}`+"\n")
	exact := write("exact.json", `{"tools":[{"name":"alpha","inputSchema":`+obj+`}]}`)
	approx := write("approx.json", `{"tools":[{"name":"alpha","description":"loses to exact","inputSchema":`+obj+`},`+
		`{"name":"beta","inputSchema":`+obj+`},{"name":"unused","inputSchema":`+obj+`}]}`)
	fallback := write("fb.json", `{"tools":[{"name":"beta","description":"loses to approx","inputSchema":`+obj+`},`+
		`{"name":"gamma","inputSchema":`+obj+`},{"name":"epsilon","inputSchema":`+obj+`}]}`)
	out := filepath.Join(dir, "out.jsonl")
	rep, err := importers.Run(importers.Request{
		Format: "openai-messages", Inputs: []string{conv}, Out: out,
		ToolFiles: []string{exact}, ApproximateToolFiles: []string{approx}, FallbackToolFiles: []string{fallback},
	})
	if err != nil {
		t.Fatal(err)
	}
	// One catalog file: the tool filled from the fallback source for s1
	// belongs to the tool set of s2 too, which does not call it.
	if len(rep.Catalog) != 1 {
		t.Fatalf("catalog = %+v, want one server at one version", rep.Catalog)
	}
	data, err := os.ReadFile(filepath.Join(rep.CatalogDir, rep.Catalog[0].File))
	if err != nil {
		t.Fatal(err)
	}
	sets, _, err := toolschema.Parse("catalog", data)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tl := range sets[0].Tools {
		f, _ := toolschema.FidelityOf(&tl)
		got[tl.Name] = string(f) + "|" + tl.Description
	}
	want := map[string]string{
		"alpha":  "|",            // exact source wins, unmarked
		"beta":   "approximate|", // approximate source, before the fallback
		"unused": "approximate|", // an approximate source's whole set is kept
		"gamma":  "approximate|", // filled from the fallback source
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("catalog tools (-want +got):\n%s", d)
	}
	if c := rep.Catalog[0]; c.Approximate != 3 || c.Missing != 0 {
		t.Errorf("catalog file counts %d approximate, %d missing; want 3, 0", c.Approximate, c.Missing)
	}
	var marked []string
	for _, f := range rep.SchemaFidelity {
		marked = append(marked, f.Tool+":"+f.Fidelity)
		if f.Tool == "gamma" && !strings.Contains(f.Note, "--fallback-tools fb.json") {
			t.Errorf("gamma's note %q does not name the fallback source", f.Note)
		}
	}
	if d := cmp.Diff([]string{"beta:approximate", "gamma:approximate"}, marked); d != "" {
		t.Errorf("schema_fidelity (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]ingest.MissingTool{{Server: "openai-messages", Tool: "delta", Calls: 1}}, rep.MissingSchemas); d != "" {
		t.Errorf("missing schemas (-want +got):\n%s", d)
	}
	for _, n := range []string{"exact.json: the sessions call 1 of its 1 tool", "approx.json: the sessions call 2 of its 3 tools",
		"--fallback-tools fb.json: 3 tools",
		"fb.json: 1 tool taken for calls no other source covers (gamma)"} {
		if !slices.Contains(rep.Notes, n) {
			t.Errorf("notes lack %q: %q", n, rep.Notes)
		}
	}
}
