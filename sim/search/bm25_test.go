package search

import (
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/google/go-cmp/cmp"
)

// fiveTools is the hand-computed catalog. Each tool's document, counted by
// hand (name twice, description, parameter names, parameter descriptions,
// server):
//
//	0 read_file : read file read file | read text | path | fs
//	  tf: read 3, file 2, text 1, path 1, fs 1                         |D| = 8
//	1 write_file: write file write file | write text to disk | path content | text | fs
//	  tf: write 3, file 2, text 2, to 1, disk 1, path 1, content 1, fs 1 |D| = 12
//	2 list_dir  : list dir list dir | list entries | path | fs
//	  tf: list 3, dir 2, entries 1, path 1, fs 1                       |D| = 8
//	3 fetch     : fetch fetch | fetch a page | url | web
//	  tf: fetch 3, a 1, page 1, url 1, web 1                           |D| = 7
//	4 search    : search search | search the web | query | search terms | web
//	  tf: search 4, the 1, web 2, query 1, terms 1                     |D| = 9
//
// N = 5, avgdl = (8+12+8+7+9)/5 = 44/5 = 8.8.
// idf(df) = ln(1 + (5 − df + 0.5)/(df + 0.5)):
//
//	df 1: ln(1 + 4.5/1.5) = ln 4   = 1.3862943611198906
//	df 2: ln(1 + 3.5/2.5) = ln 2.4 = 0.8754687373538999
//	df 3: ln(1 + 2.5/3.5) = ln(12/7) = 0.5389965007326871
//
// norm(D) = k1·(1 − b + b·|D|/avgdl) with k1 = 1.2, b = 0.75:
//
//	|D| = 8 : 1.2·(0.25 + 0.75·8/8.8)  = 1.1181818181818182
//	|D| = 12: 1.2·(0.25 + 0.75·12/8.8) = 1.5272727272727273
//	|D| = 7 : 1.2·(0.25 + 0.75·7/8.8)  = 1.0159090909090909
//	|D| = 9 : 1.2·(0.25 + 0.75·9/8.8)  = 1.2204545454545455
//
// term score = idf · tf·(k1+1) / (tf + norm(D)).
var fiveTools = []sim.ToolDoc{
	{Server: "fs", Name: "read_file", Description: "Read text.",
		Schema: []byte(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
	{Server: "fs", Name: "write_file", Description: "Write text to disk",
		Schema: []byte(`{"type":"object","description":"not indexed: the root","properties":{"path":{},"content":{"description":"Text"}}}`)},
	{Server: "fs", Name: "list_dir", Description: "List entries",
		Schema: []byte(`{"type":"object","properties":{"path":{}}}`)},
	{Server: "web", Name: "fetch", Description: "Fetch a page",
		Schema: []byte(`{"properties":{"url":{}}}`)},
	{Server: "web", Name: "search", Description: "search the web",
		Schema: []byte(`{"properties":{"query":{"description":"search terms"}}}`)},
}

func TestBM25HandComputed(t *testing.T) {
	x, err := NewBM25(fiveTools, AnchorBM25())
	if err != nil {
		t.Fatal(err)
	}
	if got := x.AvgDocLen(); got != 8.8 {
		t.Fatalf("avgdl = %v, want 8.8", got)
	}
	tests := []struct {
		query string
		want  []Hit
	}{
		// read (df 1) in D0 tf 3: 1.3862943611·6.6/(3+1.1181818182) = 2.2217…
		// file (df 2) in D0 tf 2: 0.8754687374·4.4/(2+1.1181818182) = 1.2353…
		// file in D1 tf 2:        0.8754687374·4.4/(2+1.5272727273) = 1.0920795590
		{"read file", []Hit{{0, 3.4570985835902546}, {1, 1.0920795589672359}}},
		// path (df 3), tf 1 in D0, D1, D2: D0 and D2 both |D| = 8 and tie:
		// 0.5389965007·2.2/(1+1.1181818182) = 0.5598161081; registry order
		// breaks the tie. D1: 0.5389965007·2.2/(1+1.5272727273) = 0.4691983927.
		{"path", []Hit{{0, 0.5598161080571258}, {2, 0.5598161080571258}, {1, 0.46919839272413777}}},
		// web (df 2): D4 tf 2: 0.8754687374·4.4/(2+1.2204545455) = 1.1961238359
		//             D3 tf 1: 0.8754687374·2.2/(1+1.0159090909) = 0.9554157134
		{"WEB", []Hit{{4, 1.1961238359330628}, {3, 0.9554157133693069}}},
		// Repeating a query token does not count it twice; unknown tokens
		// add nothing.
		{"web web zebra", []Hit{{4, 1.1961238359330628}, {3, 0.9554157133693069}}},
		// text (df 2): D1 tf 2 = 1.0920795590; D0 tf 1: 0.8754687374·2.2/(1+1.1181818182)
		{"text", []Hit{{1, 1.0920795589672359}, {0, 0.9092851263504025}}},
		// Prefix fallback: "writ" is not indexed; it prefixes "write"
		// (df 1, tf 3 in D1): 1.3862943611·6.6/(3+1.5272727273) = 2.0209833457.
		{"writ", []Hit{{1, 2.020983345728997}}},
		// "entr" → "entries" (df 1, tf 1 in D2): 1.3862943611·2.2/(1+1.1181818182).
		{"entr", []Hit{{2, 1.4398422119785987}}},
		// "fil" → "file": the same scores as "file".
		{"fil", []Hit{{0, 0.8754687373538999 * 4.4 / (2 + 1.1181818181818182)}, {1, 1.0920795589672359}}},
		// Two-letter tokens are not expanded.
		{"wr", nil},
		// Prefix fallback only when nothing matched: "read" matches, so
		// "writ" is not expanded.
		{"read writ", []Hit{{0, 1.3862943611198906 * 6.6 / (3 + 1.1181818181818182)}}},
		{"", nil},
		{"   ", nil},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			got := x.Search(tc.query, 8)
			if diff := cmp.Diff(tc.want, got, cmp.Comparer(func(a, b float64) bool {
				return math.Abs(a-b) <= 1e-12
			})); diff != "" {
				t.Errorf("Search(%q) mismatch (-want +got):\n%s", tc.query, diff)
			}
		})
	}
}

func TestIDF(t *testing.T) {
	tests := []struct {
		n, df int
		want  float64
	}{
		{5, 1, math.Log(4)},
		{5, 2, math.Log(2.4)},
		{5, 5, math.Log(1 + 0.5/5.5)},
		{1, 1, math.Log(1 + 0.5/1.5)},
	}
	for _, tc := range tests {
		if got := IDF(tc.n, tc.df); got != tc.want || got <= 0 {
			t.Errorf("IDF(%d,%d) = %v, want %v (> 0)", tc.n, tc.df, got, tc.want)
		}
	}
}

func TestBM25TopKAndTies(t *testing.T) {
	// Four identical documents tie on every query: registry order decides.
	var docs []sim.ToolDoc
	for _, n := range []string{"d", "c", "b", "a"} {
		docs = append(docs, sim.ToolDoc{Name: "tool", Description: "same words", Server: n})
	}
	docs = append(docs, sim.ToolDoc{Name: "other", Description: "same same same words"})
	x, err := NewBM25(docs, AnchorBM25())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		k     int
		want  []int
	}{
		{"tool", 8, []int{0, 1, 2, 3}},
		{"tool", 2, []int{0, 1}},
		{"tool", 0, nil},
		{"tool", -1, nil},
		{"same", 8, []int{4, 0, 1, 2, 3}},
		{"b", 8, []int{2}},
		{"nothing", 8, nil},
	}
	for _, tc := range tests {
		got := x.Rank(tc.query, tc.k)
		if !cmp.Equal(tc.want, got) {
			t.Errorf("Rank(%q, %d) = %v, want %v", tc.query, tc.k, got, tc.want)
		}
	}
}

func TestBM25Params(t *testing.T) {
	bad := []BM25Params{
		{K1: -1, B: 0.75},
		{K1: math.NaN(), B: 0.75},
		{K1: math.Inf(1), B: 0.75},
		{K1: 1.2, B: 1.5},
		{K1: 1.2, B: 0.75, NameWeight: -1},
		{K1: 1.2, B: 0.75, MinPrefix: -3},
		{K1: 1.2, B: 0.75, MaxQueryChars: -1},
	}
	for _, p := range bad {
		if _, err := NewBM25(fiveTools, p); err == nil {
			t.Errorf("NewBM25(%+v) accepted bad parameters", p)
		}
	}
	// No prefix fallback when MinPrefix is 0.
	p := AnchorBM25()
	p.MinPrefix = 0
	x, err := NewBM25(fiveTools, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := x.Rank("writ", 8); len(got) != 0 {
		t.Errorf("fallback disabled: Rank(writ) = %v, want none", got)
	}
	// Empty corpus.
	e, err := NewBM25(nil, AnchorBM25())
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Rank("anything", 8); len(got) != 0 {
		t.Errorf("empty corpus: %v", got)
	}
}

func TestBM25AnthropicTruncates(t *testing.T) {
	x, err := NewBM25(fiveTools, AnthropicBM25())
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("é", 500) // 500 characters, 1000 bytes
	if got := x.Rank(pad+" fetch", 8); len(got) != 0 {
		t.Errorf("words past 500 characters must be cut: got %v", got)
	}
	if got := x.Rank(strings.Repeat("é", 494)+" fetch", 8); !cmp.Equal(got, []int{3}) {
		t.Errorf("a query of 500 characters is kept whole: got %v", got)
	}
	a, _ := NewBM25(fiveTools, AnchorBM25())
	if got := a.Rank(pad+" fetch", 8); !cmp.Equal(got, []int{3}) {
		t.Errorf("anchor bm25 has no query limit: got %v", got)
	}
}

func TestBM25CJK(t *testing.T) {
	docs := []sim.ToolDoc{
		{Name: "open_doc", Description: "打开文件"}, // 打 开 打开 文 开文 件 文件
		{Name: "find_doc", Description: "搜索文档"}, // 搜 索 搜索 文 索文 档 文档
		{Name: "mkdir", Description: "新建文件夹"},   // 新 建 新建 文 建文 件 文件 夹 件夹
	}
	x, err := NewBM25(docs, AnchorBM25())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  []int
	}{
		// "文件" → 文 (df 3), 件 (df 2), 文件 (df 2): docs 0 and 2 have all
		// three, 0 is shorter; doc 1 only 文.
		{"文件", []int{0, 2, 1}},
		{"文档", []int{1, 0, 2}}, // 文 matches all, 档 and 文档 only doc 1
		{"搜索", []int{1}},
		{"文件夹", []int{2, 0, 1}},
	}
	for _, tc := range tests {
		if got := x.Rank(tc.query, 8); !cmp.Equal(tc.want, got) {
			t.Errorf("Rank(%q) = %v, want %v", tc.query, got, tc.want)
		}
	}
}

func TestDocTokens(t *testing.T) {
	got := DocTokens(nil, fiveTools[1], 2)
	want := []string{"write", "file", "write", "file", "write", "text", "to", "disk",
		"path", "content", "text", "fs"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DocTokens mismatch (-want +got):\n%s", diff)
	}
}

func TestSchemaParamsDepth(t *testing.T) {
	// Build a chain of nested objects 20 deep; names at depth ≤ 16 are read.
	schema := `{"type":"object"}`
	for i := 20; i >= 1; i-- {
		schema = `{"type":"object","properties":{"p` + itoa(i) + `":` + schema + `}}`
	}
	p := schemaParams([]byte(schema))
	if len(p.names) != MaxParamDepth || p.names[0] != "p1" || p.names[MaxParamDepth-1] != "p16" {
		t.Errorf("names = %v, want p1…p16", p.names)
	}
	// items, anyOf, $defs and descriptions below the root.
	p = schemaParams([]byte(`{"description":"root","properties":{"a":{"type":"array","items":{"properties":{"b":{"description":"bee"}}}},
		"c":{"anyOf":[{"properties":{"d":{}}},{"type":"null"}]}},"$defs":{"X":{"properties":{"e":{}}}}}`))
	if diff := cmp.Diff(params{names: []string{"a", "b", "c", "d", "e"}, descs: []string{"bee"}}, p, cmp.AllowUnexported(params{})); diff != "" {
		t.Errorf("schemaParams mismatch (-want +got):\n%s", diff)
	}
	if p := schemaParams([]byte(`{not json`)); len(p.names)+len(p.descs) != 0 {
		t.Errorf("bad JSON gave %v", p)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// TestAnthropicBM25LeavesServersOut pins the API variant's document
// (REFERENCE §2: names, descriptions, argument names and descriptions):
// the anchor's BM25 finds tools by their server's name, the API's does not.
func TestAnthropicBM25LeavesServersOut(t *testing.T) {
	anchor, err := NewBM25(fiveTools, AnchorBM25())
	if err != nil {
		t.Fatal(err)
	}
	api, err := NewBM25(fiveTools, AnthropicBM25())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query       string
		anchor, api []int
	}{
		{"fs", []int{0, 2, 1}, nil},     // only the server is called fs (write_file, longer, last)
		{"web", []int{4, 3}, []int{4}},  // "search the web"; fetch only by its server
		{"read", []int{0}, []int{0}},    // names and descriptions are read alike
		{"terms", []int{4}, []int{4}},   // an argument's description
		{"content", []int{1}, []int{1}}, // an argument's name
	} {
		if got := anchor.Rank(tc.query, 8); !cmp.Equal(got, tc.anchor) {
			t.Errorf("anchor %q: %v, want %v", tc.query, got, tc.anchor)
		}
		if got := api.Rank(tc.query, 8); !cmp.Equal(got, tc.api) {
			t.Errorf("api %q: %v, want %v", tc.query, got, tc.api)
		}
	}
}
