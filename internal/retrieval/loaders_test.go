package retrieval

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

const miniTools = `{"Weather": "Tells the weather.", "Atlas": "Finds places.", "Zebra": "Counts stripes."}`

func TestMetaTool(t *testing.T) {
	tools, err := ParseMetaToolTools([]byte(miniTools))
	if err != nil {
		t.Fatal(err)
	}
	if names := []string{tools[0].Name, tools[1].Name, tools[2].Name}; !cmp.Equal(names, []string{"Atlas", "Weather", "Zebra"}) {
		t.Errorf("tools not in name order: %v", names)
	}
	if got := string(tools[1].Wire); got != `{"name":"Weather","description":"Tells the weather.","input_schema":{"type":"object"}}` {
		t.Errorf("wire = %s", got)
	}
	qs, err := ParseMetaToolQueries(strings.NewReader("Query,Tool\nwill it rain,Weather\n\"where is oslo, again\",Atlas\n"), tools)
	if err != nil {
		t.Fatal(err)
	}
	want := []Query{{ID: "metatool-2", Text: "will it rain", Needs: [][]int{{1}}}, {ID: "metatool-3", Text: "where is oslo, again", Needs: [][]int{{0}}}}
	if diff := cmp.Diff(want, qs); diff != "" {
		t.Errorf("queries mismatch (-want +got):\n%s", diff)
	}
	multi, err := ParseMetaToolMulti([]byte(`[{"query":"rain in oslo?","tool":["Weather","Atlas","Weather"]}]`), tools)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(multi[0].Needs, [][]int{{1}, {0}}) {
		t.Errorf("multi needs = %v", multi[0].Needs)
	}
	for name, csv := range map[string]string{
		"header":       "Question,Answer\nx,Weather\n",
		"unknown tool": "Query,Tool\nx,Nope\n",
		"empty query":  "Query,Tool\n ,Weather\n",
		"no rows":      "Query,Tool\n",
		"fields":       "Query,Tool\na,b,c\n",
	} {
		if _, err := ParseMetaToolQueries(strings.NewReader(csv), tools); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for name, js := range map[string]string{"not json": "{", "empty": "{}", "blank name": `{" ": "x"}`} {
		if _, err := ParseMetaToolTools([]byte(js)); err == nil {
			t.Errorf("tools %s: accepted", name)
		}
	}
	if _, err := ParseMetaToolMulti([]byte(`[{"query":"x","tool":["Nope"]}]`), tools); err == nil {
		t.Error("multi with an unknown tool accepted")
	}
}

const bfclQ = `{"id":"q1","question":[[{"role":"system","content":"be nice"},{"role":"user","content":"order a taxi"}]],"function":[{"name":"cab.book","description":"Books a cab.","parameters":{"type":"dict","properties":{"to":{"type":"string"}}}},{"name":"Hotels_2_Find","description":"Finds hotels.","parameters":{"type":"dict"}}]}

{"id":"q2","question":[[{"role":"user","content":"find a hotel"}],[{"role":"user","content":"in rome"}]],"function":[{"name":"Hotels_2_Find","description":"Finds hotels.","parameters":{"type":"dict"}},{"name":"cab.book","description":"Books a cab for later.","parameters":{"type":"dict"}}]}
`
const bfclA = `{"id":"q1","ground_truth":[{"cab.book":{"to":["x"]}}]}
{"id":"q2","ground_truth":[{"Hotels_2_Find":{}}]}
`

func TestBFCL(t *testing.T) {
	s, err := ParseBFCL(strings.NewReader(bfclQ), strings.NewReader(bfclA))
	if err != nil {
		t.Fatal(err)
	}
	// Three distinct definitions: cab.book twice (different descriptions).
	if len(s.Tools) != 3 || s.Tools[0].Server != "cab" || s.Tools[1].Server != "Hotels_2" {
		t.Fatalf("tools = %+v", s.Tools)
	}
	want := []Query{
		{ID: "q1", Text: "order a taxi", Needs: [][]int{{0}}, Candidates: []int{0, 1}},
		{ID: "q2", Text: "find a hotel\nin rome", Needs: [][]int{{1}}, Candidates: []int{1, 2}},
	}
	if diff := cmp.Diff(want, s.Queries); diff != "" {
		t.Errorf("queries mismatch (-want +got):\n%s", diff)
	}
	p := s.Pooled("pool")
	if p.Queries[0].Candidates != nil || !cmp.Equal(p.Queries[0].Needs, [][]int{{0, 2}}) {
		t.Errorf("pooled: both cab.book definitions answer q1, got %v", p.Queries[0].Needs)
	}
	for _, tc := range []struct{ in, want string }{{"uber.ride", "uber"}, {"a.b.c", "a"}, {"Movies_3_Find", "Movies_3"}, {"get_weather", ""}, {".x", ""}} {
		if got := BFCLServer(tc.in); got != tc.want {
			t.Errorf("BFCLServer(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for name, tc := range map[string][2]string{
		"no answer":     {bfclQ, `{"id":"q1","ground_truth":[{"cab.book":{}}]}`},
		"answer absent": {bfclQ, strings.Replace(bfclA, `"Hotels_2_Find":{}`, `"nope":{}`, 1)},
		"bad json":      {"{", bfclA},
		"no text":       {strings.ReplaceAll(bfclQ, `"role":"user"`, `"role":"assistant"`), bfclA},
		"empty truth":   {bfclQ, `{"id":"q1","ground_truth":[]}`},
	} {
		if _, err := ParseBFCL(strings.NewReader(tc[0]), strings.NewReader(tc[1])); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

const mcpBench = `{"server_tasks":[
 {"servers":["Maps"],"tasks":[{"task_id":"m1","task_description":"Use Maps:geocode then Maps:route; Maps:geocode again.","fuzzy_description":"how do i get to the zoo","dependency_analysis":"Maps:route needs Maps:geocode","distraction_servers":"['Weather', 'Maps']"}]},
 {"servers":["Weather","Maps"],"tasks":[{"task_id":"w1","task_description":"Weather:forecast for the place from Maps:geocode","fuzzy_description":"will it rain at the zoo","distraction_servers":["Clock"]}]}
]}`

func TestMCPBench(t *testing.T) {
	tasks, err := ParseMCPBench([]byte(mcpBench))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]string{"Maps": {"geocode", "route"}}, tasks[0].Tools); diff != "" {
		t.Errorf("tools mismatch:\n%s", diff)
	}
	if !cmp.Equal(tasks[0].Distractors, []string{"Weather", "Maps"}) || !cmp.Equal(tasks[1].Distractors, []string{"Clock"}) {
		t.Errorf("distractors = %v, %v", tasks[0].Distractors, tasks[1].Distractors)
	}
	s, err := MCPBenchSet(tasks)
	if err != nil {
		t.Fatal(err)
	}
	// Corpus: Maps/geocode 0, Maps/route 1, Weather/forecast 2.
	want := []Query{
		{ID: "m1", Text: "how do i get to the zoo", Needs: [][]int{{0, 1}}, Candidates: []int{0, 1, 2}},
		{ID: "w1", Text: "will it rain at the zoo", Needs: [][]int{{2}, {0, 1}}, Candidates: []int{0, 1, 2}},
	}
	if diff := cmp.Diff(want, s.Queries); diff != "" {
		t.Errorf("queries mismatch (-want +got):\n%s", diff)
	}
	for name, js := range map[string]string{
		"not json":   "[",
		"no servers": `{"server_tasks":[{"servers":[],"tasks":[]}]}`,
		"no fuzzy":   `{"server_tasks":[{"servers":["A"],"tasks":[{"task_id":"x"}]}]}`,
		"bad distr":  `{"server_tasks":[{"servers":["A"],"tasks":[{"task_id":"x","fuzzy_description":"y","distraction_servers":3}]}]}`,
	} {
		if _, err := ParseMCPBench([]byte(js)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestHardSet(t *testing.T) {
	src := `name: mini
title: Mini
method: by hand
queries:
  - id: a
    q: say hi to the room
    want: [chat/say, chat2/say]
  - id: b
    q: list the rooms
    want: [chat/rooms]
`
	h, err := ParseHardSet("mini.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if h.Queries[1].Line != 8 {
		t.Errorf("line of query b = %d, want 8", h.Queries[1].Line)
	}
	tools := []Tool{{ToolDoc: sim.ToolDoc{Server: "chat", Name: "say"}}, {ToolDoc: sim.ToolDoc{Server: "chat", Name: "rooms"}}, {ToolDoc: sim.ToolDoc{Server: "chat2", Name: "say"}}}
	s, err := h.Resolve(tools)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(s.Queries[0].Needs, [][]int{{0, 2}}) {
		t.Errorf("needs = %v", s.Queries[0].Needs)
	}
	if _, err := h.Resolve(tools[:2]); err == nil || !strings.Contains(err.Error(), "mini.yaml:5") {
		t.Errorf("missing tool: %v", err)
	}
	for name, tc := range map[string]struct{ src, want string }{
		"no name":    {"queries: []\n", "name: missing"},
		"unknown":    {"name: x\ncolour: red\n", "colour"},
		"no queries": {"name: x\n", "no queries"},
		"no id":      {"name: x\nqueries:\n  - {q: a, want: [s/t]}\n", "x.yaml:3: id: missing"},
		"no want":    {"name: x\nqueries:\n  - {id: a, q: a}\n", "want: list"},
		"bad want":   {"name: x\nqueries:\n  - {id: a, q: a, want: [st]}\n", `"st" is not server/tool`},
		"dup id":     {"name: x\nqueries:\n  - {id: a, q: a, want: [s/t]}\n  - {id: a, q: b, want: [s/t]}\n", "repeated"},
		"dup text":   {"name: x\nqueries:\n  - {id: a, q: Say  hi, want: [s/t]}\n  - {id: b, q: say hi, want: [s/t]}\n", "same query as line 3"},
		"not a map":  {"name: x\nqueries:\n  - just text\n", "want a mapping"},
		"empty":      {"", "empty hard set"},
		// A misspelt key in a query entry: it was ignored, and with it the
		// needs it listed (the query kept only its want).
		"query key": {"name: x\nqueries:\n  - id: a\n    q: a\n    want: [s/t]\n    neds: [[s/u]]\n", "x.yaml:6: neds: unknown key in a query (known: id, q, want, needs)"},
	} {
		_, err := ParseHardSet("x.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, tc.want)
		}
	}
}

func TestSetHelpers(t *testing.T) {
	s := &Set{Name: "s", Tools: []Tool{{ToolDoc: sim.ToolDoc{Name: "a"}}}}
	for i := range 10 {
		s.Queries = append(s.Queries, Query{ID: string(rune('a' + i)), Text: "x", Needs: [][]int{{0}}})
	}
	h := s.Head(3)
	if len(h.Queries) != 3 || h.Queries[1].ID != "d" || h.Queries[2].ID != "g" {
		t.Errorf("Head(3) = %v", h.Queries)
	}
	if s.Head(0) != s || s.Head(20) != s {
		t.Error("Head without a cut must return the set")
	}
	bad := []Set{
		{Name: "no queries"},
		{Name: "no text", Tools: s.Tools, Queries: []Query{{Needs: [][]int{{0}}}}},
		{Name: "no need", Tools: s.Tools, Queries: []Query{{Text: "x"}}},
		{Name: "empty need", Tools: s.Tools, Queries: []Query{{Text: "x", Needs: [][]int{{}}}}},
		{Name: "range", Tools: s.Tools, Queries: []Query{{Text: "x", Needs: [][]int{{1}}}}},
		{Name: "candidate", Tools: s.Tools, Queries: []Query{{Text: "x", Needs: [][]int{{0}}, Candidates: []int{3}}}},
		{Name: "not a candidate", Tools: append(s.Tools, s.Tools[0]), Queries: []Query{{Text: "x", Needs: [][]int{{0}}, Candidates: []int{1}}}},
	}
	for _, b := range bad {
		if err := b.Validate(); err == nil {
			t.Errorf("%s: valid", b.Name)
		}
	}
}
