package catalog

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/tokens"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// checkGolden compares got with testdata/golden/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

func counters(t *testing.T, names ...string) []tokens.Counter {
	t.Helper()
	var cs []tokens.Counter
	for _, n := range names {
		c, err := tokens.ByName(n)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func loadShared(t *testing.T, names ...string) []*Server {
	t.Helper()
	dir := shareddata.Path(t, "catalogs")
	var out []*Server
	for _, n := range names {
		s, err := LoadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestGoldenStats(t *testing.T) {
	servers := loadShared(t,
		"mcp-hello-world@1.1.2.json",
		"eslint__mcp@0.3.13.json",
		"modelcontextprotocol__server-everything@2025.1.14.json",
		"upstash__context7-mcp@4.1.1.json",
	)
	st := ComputeStatsWith(servers, counters(t, "o200k_base", "cl100k_base", "bytes/3.5"), StatsOptions{Top: 5})
	var txt bytes.Buffer
	if err := FormatStats(&txt, st); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "stats.txt", txt.Bytes())
	js, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "stats.json", append(js, '\n'))

	// The OpenAI form the anchor estimator counts.
	st = ComputeStatsWith(servers, counters(t, "o200k_base", "bytes/3.5"), StatsOptions{Form: FormOpenAI, Top: 3})
	txt.Reset()
	if err := FormatStats(&txt, st); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "stats_openai.txt", txt.Bytes())
}

func TestGoldenDiff(t *testing.T) {
	tests := []struct {
		golden, from, to string
	}{
		{"diff_context7.txt", "upstash__context7-mcp@1.0.14.json", "upstash__context7-mcp@2.1.0.json"},
		{"diff_github.txt", "modelcontextprotocol__server-github@2025.3.28.json", "modelcontextprotocol__server-github@2025.4.8.json"},
		{"diff_playwright.txt", "playwright__mcp@0.0.60.json", "playwright__mcp@0.0.83.json"},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			s := loadShared(t, tc.from, tc.to)
			d := diffWithTokens(t, s[0], s[1])
			var buf bytes.Buffer
			if err := FormatDiff(&buf, d); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.golden, buf.Bytes())
		})
	}
	s := loadShared(t, "modelcontextprotocol__server-github@2025.3.28.json", "modelcontextprotocol__server-github@2025.4.8.json")
	js, err := json.MarshalIndent(diffWithTokens(t, s[0], s[1]), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "diff_github.json", append(js, '\n'))
}

// commandTokens are the token options catalog diff and history use by
// default (the replay's default tokenizer and tool_overhead_tokens; the
// command's own test checks them against the presets).
func commandTokens(t *testing.T) TokenOptions {
	t.Helper()
	return TokenOptions{Counter: counters(t, "o200k_base")[0], Form: FormAnthropic, ToolOverhead: 8, OverheadSource: "the default model params"}
}

// diffWithTokens is Diff with its token cost, as catalog diff prints it.
func diffWithTokens(t *testing.T, a, b *Server) DiffResult {
	t.Helper()
	d := Diff(a, b)
	td := DiffTokens(a, b, d, commandTokens(t))
	d.Tokens = &td
	return d
}
