package catalog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/tokens"
)

// TestDiffTokens pins the token cost DiffTokens gives each kind of change:
// an added and a removed tool count whole, a description-only change is a
// token change (the description is in the wire form), a metadata-only
// change is not (annotations are not: OutsideForm, delta 0) unless the form
// counted is mcp, the total delta is the sum of the parts, and the
// per-request figure adds the framing of the tools added or removed.
func TestDiffTokens(t *testing.T) {
	est := tokens.NewEstimator(1) // one token per byte: every figure is a byte count
	const (
		keep    = `{"name":"keep","inputSchema":{"type":"object"}}`
		gone    = `{"name":"gone","description":"old tool","inputSchema":{"type":"object"}}`
		descA   = `{"name":"desc","description":"short","inputSchema":{"type":"object"}}`
		descB   = `{"name":"desc","description":"much longer","inputSchema":{"type":"object"}}`
		metaA   = `{"name":"meta","inputSchema":{"type":"object"}}`
		metaB   = `{"name":"meta","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`
		newTool = `{"name":"new","description":"a new tool","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`
		new2    = `{"name":"new2","inputSchema":{"type":"object"}}`
	)
	a := mkServer(t, "srv", "1.0", "", keep, gone, descA, metaA)
	b := mkServer(t, "srv", "2.0", "", keep, descB, metaB, newTool, new2)
	size := func(s *Server, name string, f WireForm) int64 { return int64(len(s.Tool(name).Bytes(f))) }
	for _, tc := range []struct {
		form        WireForm
		metaDelta   int64
		outsideForm bool
	}{
		{FormAnthropic, 0, true},
		{FormOpenAI, 0, true},
		{FormMCP, size(b, "meta", FormMCP) - size(a, "meta", FormMCP), false},
	} {
		t.Run(string(tc.form), func(t *testing.T) {
			d := Diff(a, b)
			td := DiffTokens(a, b, d, TokenOptions{Counter: est, Form: tc.form, ToolOverhead: 8})
			f := tc.form
			wantAdded := size(b, "new", f) + size(b, "new2", f)
			wantDesc := size(b, "desc", f) - size(a, "desc", f)
			if td.AddedTokens != wantAdded || len(td.AddedTools) != 2 || td.AddedTools[0].Tool != "new" || td.AddedTools[0].Delta != size(b, "new", f) {
				t.Errorf("added %d %+v, want %d (new %d first)", td.AddedTokens, td.AddedTools, wantAdded, size(b, "new", f))
			}
			if td.RemovedTokens != size(a, "gone", f) || td.RemovedTools[0].Delta != -size(a, "gone", f) {
				t.Errorf("removed %d %+v, want %d", td.RemovedTokens, td.RemovedTools, size(a, "gone", f))
			}
			byName := map[string]ToolTokenDelta{}
			for _, x := range td.ChangedTools {
				byName[x.Tool] = x
			}
			if x := byName["desc"]; x.Delta != wantDesc || wantDesc <= 0 || x.OutsideForm {
				t.Errorf("description-only change %+v, want delta %d > 0", x, wantDesc)
			}
			if x := byName["meta"]; x.Delta != tc.metaDelta || x.OutsideForm != tc.outsideForm {
				t.Errorf("metadata-only change %+v, want delta %d, outside form %v", x, tc.metaDelta, tc.outsideForm)
			}
			var from, to int64
			for _, tl := range a.Tools {
				from += int64(len(tl.Bytes(f)))
			}
			for _, tl := range b.Tools {
				to += int64(len(tl.Bytes(f)))
			}
			if td.From != from || td.To != to || td.Delta != to-from {
				t.Errorf("from %d to %d delta %d, want %d %d %d", td.From, td.To, td.Delta, from, to, to-from)
			}
			if parts := td.AddedTokens - td.RemovedTokens + td.ChangedDelta; parts != td.Delta {
				t.Errorf("added − removed + changed = %d, delta %d", parts, td.Delta)
			}
			if want := td.Delta + 8*1; td.PerRequest != want { // 4 tools → 5 tools
				t.Errorf("per request %d, want %d (delta + 8 framing × 1 tool more)", td.PerRequest, want)
			}
			if !strings.Contains(td.Assumes, "bytes/1 tokens of each tool's "+string(f)+" wire form") || td.Counter != "bytes/1" {
				t.Errorf("assumes %q, counter %q: want the counter and form named", td.Assumes, td.Counter)
			}
		})
	}
}

// TestFormatDiffTokens pins the text of a diff's token cost: the totals,
// each tool's figure beside its name, the per-request sentence and what
// the figures assume; a tool changed outside the form says it costs none.
func TestFormatDiffTokens(t *testing.T) {
	a := mkServer(t, "srv", "1.0", "", `{"name":"gone","inputSchema":{"type":"object"}}`, `{"name":"meta","inputSchema":{"type":"object"}}`)
	b := mkServer(t, "srv", "2.0", "", `{"name":"meta","title":"Meta","inputSchema":{"type":"object"}}`)
	buf := diffText(t, a, b)
	for _, want := range []string{
		"removed (1): gone -48\n",
		"tokens: 96 → 48 (-48, -50.0%): removed -48 (1 tool changed outside the anthropic form only: no token)\n",
		"per request: if every tool is sent directly, each request carries 56 fewer tokens (-48 schema, -8 framing: 8 per tool, 1 tool fewer), before prompt caching\n",
		"(tool_overhead_tokens, the default model params)\n",
		"meta: metadata-only, 48 tokens, unchanged (its changes are not in the anthropic form)\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("diff text lacks %q:\n%s", want, buf.String())
		}
	}
}

// diffText formats the diff of a and b with its token cost (bytes/1, 8
// framing tokens per tool) as catalog diff prints it.
func diffText(t *testing.T, a, b *Server) *bytes.Buffer {
	t.Helper()
	d := Diff(a, b)
	td := DiffTokens(a, b, d, TokenOptions{Counter: tokens.NewEstimator(1), ToolOverhead: 8, OverheadSource: "the default model params"})
	d.Tokens = &td
	var buf bytes.Buffer
	if err := FormatDiff(&buf, d); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// TestFormatDiffTokensZeroParts pins that the tokens line of a diff names
// only the parts that have tools: it used to print "added +0, removed +0,
// changed +0" (a plus sign on a removal, and parts of no tool) whatever
// the release did, and "class: none" with no word on what none means.
func TestFormatDiffTokensZeroParts(t *testing.T) {
	tool := func(name, extra string) string {
		return `{"name":"` + name + `"` + extra + `,"inputSchema":{"type":"object"}}`
	}
	for _, tc := range []struct {
		name          string
		from, to      []string
		class, tokens string // the two lines as printed
	}{
		{"identical", []string{tool("a", "")}, []string{tool("a", "")},
			"class: none: no tool added, removed or changed", "tokens: 45 → 45 (+0, +0.0%)"},
		{"only added", []string{tool("a", "")}, []string{tool("a", ""), tool("bb", "")},
			"class: schema-compatible", "tokens: 45 → 91 (+46, +102.2%): added +46"},
		{"only removed", []string{tool("a", ""), tool("bb", "")}, []string{tool("a", "")},
			"class: breaking", "tokens: 91 → 45 (-46, -50.5%): removed -46"},
		{"changed outside the form only", []string{tool("a", "")}, []string{tool("a", `,"title":"A"`)},
			"class: metadata-only", "tokens: 45 → 45 (+0, +0.0%): 1 tool changed outside the anthropic form only: no token"},
		{"changed in the form", []string{tool("a", "")}, []string{tool("a", `,"description":"x"`)},
			"class: description-only", "tokens: 45 → 63 (+18, +40.0%): changed +18"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := mkServer(t, "srv", "1.0", "", tc.from...), mkServer(t, "srv", "2.0", "", tc.to...)
			buf := diffText(t, a, b)
			lines := map[string]string{}
			for l := range strings.SplitSeq(buf.String(), "\n") {
				if k, _, ok := strings.Cut(l, ":"); ok && (k == "class" || k == "tokens") {
					lines[k] = l
				}
			}
			if lines["class"] != tc.class || lines["tokens"] != tc.tokens {
				t.Errorf("printed\n%s\n%s\nwant\n%s\n%s", lines["class"], lines["tokens"], tc.class, tc.tokens)
			}
		})
	}
}

// TestDiffTokensRecountedFromFiles pins the token deltas of three real
// upgrades against a count made without the catalog package: each tool's
// Anthropic wire form rebuilt from the raw file with encoding/json and
// counted by tiktoken-go itself. The three are a breaking release with a
// tool added and one removed (context7 1.0.14 → 2.1.0), a description-only
// one (notion 1.8.0 → 1.9.1: +39 tokens) and a metadata-only one (memory
// 2025.11.25 → 2026.8.31: 9 tools changed, 0 tokens).
func TestDiffTokensRecountedFromFiles(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	ref, err := tokens.NewReference("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		from, to         string
		delta            int64 // as read in the command's output, and recounted below
		perTool          map[string]int64
		outside, changed int
	}{
		{"upstash__context7-mcp@1.0.14.json", "upstash__context7-mcp@2.1.0.json", 174,
			map[string]int64{"query-docs": 320, "get-library-docs": -252, "resolve-library-id": 106}, 0, 1},
		{"notionhq__notion-mcp-server@1.8.0.json", "notionhq__notion-mcp-server@1.9.1.json", 39, nil, 0, 19},
		{"modelcontextprotocol__server-memory@2025.11.25.json", "modelcontextprotocol__server-memory@2026.8.31.json", 0, nil, 9, 9},
	} {
		t.Run(tc.from, func(t *testing.T) {
			recount := func(file string) map[string]int64 {
				return recountWire(t, ref, filepath.Join(dir, file))
			}
			rawA, rawB := recount(tc.from), recount(tc.to)
			s := loadShared(t, tc.from, tc.to)
			d := Diff(s[0], s[1])
			td := DiffTokens(s[0], s[1], d, TokenOptions{Counter: counters(t, "o200k_base")[0]})
			var sumA, sumB int64
			for _, n := range rawA {
				sumA += n
			}
			for _, n := range rawB {
				sumB += n
			}
			if td.From != sumA || td.To != sumB || td.Delta != tc.delta || sumB-sumA != tc.delta {
				t.Errorf("tokens %d → %d (%+d); recounted %d → %d (%+d); want %+d", td.From, td.To, td.Delta, sumA, sumB, sumB-sumA, tc.delta)
			}
			all := append(append(append([]ToolTokenDelta{}, td.AddedTools...), td.RemovedTools...), td.ChangedTools...)
			for _, x := range all {
				if want := rawB[x.Tool] - rawA[x.Tool]; x.Delta != want {
					t.Errorf("%s: delta %+d, recounted %+d", x.Tool, x.Delta, want)
				}
				if want, ok := tc.perTool[x.Tool]; ok && x.Delta != want {
					t.Errorf("%s: delta %+d, want %+d", x.Tool, x.Delta, want)
				}
			}
			if td.OutsideForm != tc.outside || len(td.ChangedTools) != tc.changed {
				t.Errorf("%d changed, %d outside the form; want %d, %d", len(td.ChangedTools), td.OutsideForm, tc.changed, tc.outside)
			}
		})
	}
}

// recountWire reads an MCP tools/list file with encoding/json and counts
// each tool's {"name","description","input_schema"} (compact, members in
// the order served, no HTML escaping) with c.
func recountWire(t *testing.T, c tokens.Counter, path string) map[string]int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description *string         `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	str := func(s string) []byte {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	out := map[string]int64{}
	for _, tl := range file.Tools {
		var schema bytes.Buffer
		if err := json.Compact(&schema, tl.InputSchema); err != nil {
			t.Fatal(err)
		}
		w := append([]byte(`{"name":`), str(tl.Name)...)
		if tl.Description != nil {
			w = append(append(w, `,"description":`...), str(*tl.Description)...)
		}
		w = append(append(append(w, `,"input_schema":`...), schema.Bytes()...), '}')
		out[tl.Name] = c.Count(w)
	}
	return out
}
