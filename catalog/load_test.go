package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Fixture tools, written for these tests.
const (
	toolGreet = `{"name":"greet","description":"Say hello to someone.","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}}`
	toolAdd   = `{"name":"add","description":"Add two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}}`
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseShapes(t *testing.T) {
	openAI := `[{"type":"function","function":{"name":"greet","description":"Say hello to someone.","parameters":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]},"strict":true}}]`
	tests := []struct {
		name string
		in   string
	}{
		{"tools/list result", `{"tools":[` + toolGreet + `],"nextCursor":null}`},
		{"json-rpc response", `{"jsonrpc":"2.0","id":2,"result":{"tools":[` + toolGreet + `]}}`},
		{"bare array", `[` + toolGreet + `]`},
		{"pretty printed", "{\n  \"tools\": [\n    " + toolGreet + "\n  ]\n}\n"},
		{"openai array", openAI},
		{"openai in tools object", `{"tools":` + openAI + `}`},
	}
	want, err := NewTool([]byte(toolGreet))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.in), "srv", "1.0", "")
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Tools) != 1 {
				t.Fatalf("got %d tools", len(s.Tools))
			}
			got := s.Tools[0]
			if got.Fingerprint != want.Fingerprint {
				t.Errorf("fingerprint differs from the MCP form:\n got  %s\n want %s", got.Raw, want.Raw)
			}
			if string(got.Wire) != string(want.Wire) {
				t.Errorf("wire = %s, want %s", got.Wire, want.Wire)
			}
			if got.Server != "srv" || s.Tool("greet") != got {
				t.Errorf("server/tool index not set")
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // substring of the error
	}{
		{"invalid json", `{"tools":[`, "invalid JSON"},
		{"trailing data", `{"tools":[]} x`, "invalid JSON"},
		{"not a catalog", `"hello"`, "not a tools/list result"},
		{"no tools member", `{"items":[]}`, `no "tools" member`},
		{"tools not array", `{"tools":{}}`, `"tools" must be an array`},
		{"tool not object", `{"tools":[1]}`, "tools[0]: not a JSON object"},
		{"tool without name", `{"tools":[` + toolGreet + `,{"description":"x"}]}`, `tools[1]: missing field "name"`},
		{"empty name", `{"tools":[{"name":""}]}`, `tools[0]: field "name" must be a non-empty string`},
		{"name not string", `{"tools":[{"name":7}]}`, `tools[0]: field "name" must be a non-empty string`},
		{"description not string", `{"tools":[{"name":"a","description":3}]}`, `tools[0]: tool "a": field "description" must be a string`},
		{"schema not object", `{"tools":[{"name":"a","inputSchema":"x"}]}`, `field "inputSchema" must be an object`},
		{"annotations not object", `{"tools":[{"name":"a","annotations":[]}]}`, `field "annotations" must be an object`},
		{"duplicate tool", `{"tools":[` + toolGreet + `,` + toolAdd + `,` + toolGreet + `]}`, `tools[2]: duplicate tool name "greet" (first at tools[0])`},
		{"duplicate key", `{"tools":[{"name":"a","name":"b"}]}`, `duplicate key "name"`},
		{"openai function not object", `[{"type":"function","function":3}]`, `"function" must be an object`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in), "srv", "1", "")
			if err == nil {
				t.Fatalf("want error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestLoadFileNamesFileInErrors(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "bad@1.0.json", `{"tools":[{"description":"no name"}]}`)
	_, err := LoadFile(p)
	if err == nil || !strings.Contains(err.Error(), p+": tools[0]: missing field \"name\"") {
		t.Fatalf("error = %v", err)
	}
	if _, err := LoadFile(filepath.Join(dir, "absent.json")); err == nil {
		t.Fatal("want error for a missing file")
	}
	if _, err := LoadFile(dir); err == nil {
		t.Fatal("want error for a directory")
	}
}

func TestLoadFileMeta(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "demo@2.0.0+fast.json", `{"tools":[`+toolGreet+`]}`)
	writeFile(t, dir, "demo@2.0.0+fast.meta.json", `{ "initialize": {"serverInfo": {"name": "demo"}} }`)
	s, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{s.Name, s.Version, s.Variant, s.Key(), s.Label(), string(s.Meta), s.Source}
	want := []string{"demo", "2.0.0", "fast", "demo+fast", "demo@2.0.0+fast", `{"initialize":{"serverInfo":{"name":"demo"}}}`, p}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	writeFile(t, dir, "demo@2.0.0+fast.meta.json", `{`)
	if _, err := LoadFile(p); err == nil || !strings.Contains(err.Error(), ".meta.json") {
		t.Errorf("want error naming the broken meta file, got %v", err)
	}
}

func TestParseFileName(t *testing.T) {
	tests := []struct {
		in                      string
		server, version, varint string
	}{
		{"dir/playwright__mcp@0.0.45+caps-vision-pdf.json", "playwright__mcp", "0.0.45", "caps-vision-pdf"},
		{"modelcontextprotocol__server-github@2025.4.8.json", "modelcontextprotocol__server-github", "2025.4.8", ""},
		{"tools_airline.json", "tools_airline", "", ""},
		{"@scope@1.2.json", "@scope", "1.2", ""},
		{"@odd.json", "@odd", "", ""},
		{"x@1.0.0-rc.1.json", "x", "1.0.0-rc.1", ""},
	}
	for _, tc := range tests {
		s, v, vr := ParseFileName(tc.in)
		if s != tc.server || v != tc.version || vr != tc.varint {
			t.Errorf("ParseFileName(%q) = %q %q %q, want %q %q %q", tc.in, s, v, vr, tc.server, tc.version, tc.varint)
		}
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	cat := `{"tools":[` + toolGreet + `]}`
	for _, name := range []string{"alpha@2025.4.8.json", "alpha@2025.11.25.json", "alpha@0.6.2.json", "alpha@2025.11.25+wide.json"} {
		writeFile(t, dir, name, cat)
	}
	writeFile(t, dir, "beta@1.0.json", `{"tools":[`+toolAdd+`]}`)
	writeFile(t, dir, "beta@1.0.meta.json", `{"not":"a catalog"}`)
	writeFile(t, dir, "NOTES.md", "not json")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"alpha", "alpha+wide", "beta"}, c.ServerNames()); diff != "" {
		t.Errorf("ServerNames (-want +got):\n%s", diff)
	}
	var versions []string
	for _, s := range c.Versions["alpha"] {
		versions = append(versions, s.Version)
	}
	if diff := cmp.Diff([]string{"0.6.2", "2025.4.8", "2025.11.25"}, versions); diff != "" {
		t.Errorf("versions not in numeric order (-want +got):\n%s", diff)
	}
	if got := c.Latest("alpha").Version; got != "2025.11.25" {
		t.Errorf("Latest = %s", got)
	}
	if c.Latest("gamma") != nil {
		t.Error("Latest of an unknown server should be nil")
	}
	if s := c.At("alpha", "2025.11.25+wide"); s == nil || s.Variant != "wide" {
		t.Errorf("At with variant in version = %v", s)
	}
	if s := c.At("alpha+wide", "2025.11.25"); s == nil || s.Variant != "wide" {
		t.Errorf("At with variant in key = %v", s)
	}
	if c.At("alpha", "9.9") != nil {
		t.Error("At of an unknown version should be nil")
	}
	if string(c.At("beta", "1.0").Meta) != `{"not":"a catalog"}` {
		t.Error("meta not attached")
	}
	hasTool := []struct {
		server, tool string
		want         bool
	}{
		{"", "greet", true}, {"", "add", true}, {"", "nope", false},
		{"alpha", "greet", true}, {"alpha", "add", false}, {"beta", "add", true},
		{"alpha+wide", "greet", true}, {"alp", "greet", false},
	}
	for _, tc := range hasTool {
		if got := c.HasTool(tc.server, tc.tool); got != tc.want {
			t.Errorf("HasTool(%q, %q) = %v, want %v", tc.server, tc.tool, got, tc.want)
		}
	}
	if n := len(c.All()); n != 5 {
		t.Errorf("All() = %d servers, want 5", n)
	}
	if n := len(c.LatestAll()); n != 3 {
		t.Errorf("LatestAll() = %d servers, want 3", n)
	}

	// Same key and version twice (through a leading "v" spelled the same
	// after parsing is not a duplicate; the same name is).
	writeFile(t, dir, "beta@1.0.json.bak", "")
	dup := t.TempDir()
	writeFile(t, dup, "x@1.json", cat)
	if _, err := LoadDir(dup); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDir(t.TempDir()); err == nil {
		t.Error("want error for a directory without catalogs")
	}
	bad := t.TempDir()
	writeFile(t, bad, "x@1.json", `{"tools":[{}]}`)
	if _, err := LoadDir(bad); err == nil || !strings.Contains(err.Error(), "x@1.json") {
		t.Errorf("want error naming the file, got %v", err)
	}
}

func TestLoadManifest(t *testing.T) {
	tests := []struct {
		name, file, content string
	}{
		{"yaml", "catalog.yaml", "servers:\n  - server: demo\n    version: 1.10\n    file: one.json\n  - server: demo\n    version: 1.9\n    file: sub/two.json\n  - server: demo\n    version: \"1.9\"\n    variant: wide\n    file: sub/two.json\n"},
		{"json", "manifest.json", `{"servers":[{"server":"demo","version":"1.10","file":"one.json"},{"server":"demo","version":"1.9","file":"sub/two.json"},{"server":"demo","version":"1.9","variant":"wide","file":"sub/two.json"}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, dir, "one.json", `{"tools":[`+toolGreet+`]}`)
			writeFile(t, dir, "sub/two.json", `{"tools":[`+toolAdd+`]}`)
			writeFile(t, dir, "ignored@1.json", `not even json`)
			writeFile(t, dir, tc.file, tc.content)
			c, err := LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"demo", "demo+wide"}, c.ServerNames()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			l := c.Latest("demo")
			if l.Version != "1.10" || l.Tool("greet") == nil || l.Tools[0].Server != "demo" {
				t.Errorf("latest = %s with %v", l.Label(), l.ToolNames())
			}
			if !IsManifest(filepath.Join(dir, tc.file)) {
				t.Error("IsManifest = false")
			}
		})
	}
}

func TestLoadManifestErrors(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"unknown field", "servers:\n  - server: a\n    version: 1\n    file: a.json\n    colour: red\n", "colour"},
		{"no servers", "servers: []\n", "lists no servers"},
		{"missing file", "servers:\n  - server: a\n    version: 1\n", "servers[0]: missing file"},
		{"missing server", "servers:\n  - version: 1\n    file: a.json\n", "servers[0]: missing server"},
		{"absent file", "servers:\n  - server: a\n    version: 1\n    file: nope.json\n", "servers[0]"},
		{"duplicate", "servers:\n  - {server: a, version: 1, file: a.json}\n  - {server: a, version: 1, file: a.json}\n", "servers[0] and servers[1] both list a@1 (a.json, a.json): the same tools twice; remove one entry"},
		// A variant in the version: a trace naming a at "1.0+wide" names
		// series "a+wide" (SeriesRef), so the entry could not be named.
		{"variant in the version", "servers:\n  - {server: a, version: 1.0+wide, file: a.json}\n",
			`servers[0]: version "1.0+wide" holds a launch variant after its "+": write it as version "1.0", variant "wide" (a trace naming a at "1.0+wide" names that series)` + "\n"},
		// Semver build metadata in the version: the error offers the
		// version alone as well (before, only the variant, which would
		// make the entry a server of its own).
		{"build metadata in the version", "servers:\n  - {server: a, version: 1.2.3+build.5, file: a.json}\n",
			`write it as version "1.2.3", variant "build.5" (a trace naming a at "1.2.3+build.5" names that series); if "build.5" is semver build metadata, not a launch variant, write version "1.2.3" alone` + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "a.json", `{"tools":[`+toolGreet+`]}`)
			p := writeFile(t, dir, "catalog.yaml", tc.content)
			_, err := LoadManifest(p)
			if err == nil || !strings.Contains(err.Error()+"\n", tc.want) {
				t.Errorf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestNewCatalogInMemory(t *testing.T) {
	g, err := NewTool([]byte(toolGreet))
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewTool([]byte(toolAdd))
	if err != nil {
		t.Fatal(err)
	}
	s1, err := NewServer("mem", "v1.2.0", "", []*Tool{g})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := NewServer("mem", "v1.10.0", "", []*Tool{g, a})
	if err != nil {
		t.Fatal(err)
	}
	c := New(s2, s1, nil)
	if c.Latest("mem") != s2 || c.At("mem", "v1.2.0") != s1 {
		t.Error("versions not ordered numerically")
	}
	if !c.HasTool("mem", "add") || c.HasTool("other", "add") {
		t.Error("HasTool wrong")
	}
	// A Catalog built as a literal still answers HasTool.
	lit := &Catalog{Versions: map[string][]*Server{"mem": {s1}}}
	if !lit.HasTool("", "greet") || lit.HasTool("", "add") {
		t.Error("HasTool on a literal catalog wrong")
	}
	if _, err := NewServer("mem", "1", "", []*Tool{g, g}); err == nil {
		t.Error("want duplicate-name error")
	}
	if _, err := NewServer("mem", "1", "", []*Tool{{}}); err == nil {
		t.Error("want missing-name error")
	}
}

// TestNullInputSchemaLoadsWithWarning pins issue 16's abort: one tool with
// "inputSchema": null made loading (and so catalog stats and history) fail
// for the whole directory. It now loads, read as {"type":"object"}, and
// the tool is reported.
func TestNullInputSchemaLoadsWithWarning(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "srv@1.0.json", `{"tools":[`+toolGreet+`,{"name":"nothing","description":"d","inputSchema":null},{"name":"bare"}]}`)
	writeFile(t, dir, "other@1.0.json", `{"tools":[`+toolAdd+`]}`)
	c, err := LoadDir(dir)
	if err != nil {
		t.Fatalf("LoadDir: %v", err)
	}
	s := c.Latest("srv")
	tool := s.Tool("nothing")
	if tool == nil || len(tool.InputSchema) != 0 {
		t.Fatalf("tool with a null schema: %+v", tool)
	}
	if want := `{"name":"nothing","description":"d","input_schema":{"type":"object"}}`; string(tool.Wire) != want {
		t.Errorf("Wire = %s, want %s", tool.Wire, want)
	}
	want := []string{
		filepath.Join(dir, "srv@1.0.json") + `: tools[1] "nothing": inputSchema is null; read as {"type":"object"}`,
		filepath.Join(dir, "srv@1.0.json") + `: tools[2] "bare": no inputSchema; read as {"type":"object"}`,
	}
	if d := cmp.Diff(want, Warnings(c.All())); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if n := len(c.Latest("other").Warnings()); n != 0 {
		t.Errorf("%d warnings for a clean catalog", n)
	}
	if _, err := Parse([]byte(`{"tools":[{"name":"x","inputSchema":"object"}]}`), "s", "1", ""); err == nil {
		t.Error("a string inputSchema is still an error")
	}
}
