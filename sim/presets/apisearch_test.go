package presets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestAnthropicAPIPresetsSearchWithTheAPIVariants pins the two Anthropic
// API presets to the API's own tool search (REFERENCE §2): BM25 with
// queries of at most 500 characters, or a regex of at most 200 characters,
// over names, descriptions and argument names and descriptions, 5 results
// by default. Seven tools share the word "widget" with equal scores, so a
// search returns them in catalog order, five at a time; a needed tool is
// found through an argument's description alone; the limits are hit one
// character past them (the search then finds nothing, and the model falls
// back to select: one more search).
func TestAnthropicAPIPresetsSearchWithTheAPIVariants(t *testing.T) {
	var tools []string
	for _, name := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"} {
		tools = append(tools, fmt.Sprintf(`{"name":%q,"description":"Manage one widget.","inputSchema":{"type":"object"}}`, name))
	}
	tools = append(tools, `{"name":"hotel","description":"Book rooms.","inputSchema":{"type":"object","properties":{"item":{"type":"string","description":"the gizmo to use"}}}}`)
	cat := testCatalog(t, testServer{"shop", "1", tools})
	servers := []traces.ServerRef{{Name: "shop", Version: "1"}}

	bm25 := mustStrategy(t, "anthropic-api-inline")
	regex := mustStrategy(t, "anthropic-api-inline-regex")
	if !cmp.Equal(bm25.Search, sim.Search{Mode: "bm25-anthropic", K: 5}) || !cmp.Equal(regex.Search, sim.Search{Mode: "regex", K: 5}) {
		t.Fatalf("searches %+v and %+v", bm25.Search, regex.Search)
	}
	// The model never names a tool it read in the directory (select_prob 0).
	e := testEngine(t, cat, []sim.Strategy{bm25, regex}, func(p *sim.Params) { p.SelectProb = 0 })
	replay := func(queries map[string]string, steps ...sim.Step) []sim.Outcome {
		n := need(servers, append(append([]sim.Step{userSay("go")}, steps...), answer())...)
		n.QueryFor = queries
		return e.ReplayNeed(n)
	}
	type got struct{ searches, misses float64 }
	outcome := func(o sim.Outcome) got { return got{o.Values[sim.MSearches], o.Values[sim.MSearchMisses]} }

	// 5 results: "widget" loads alpha..echo; echo is then warm; foxtrot
	// needs a second search (which skips the five loaded).
	w := map[string]string{"alpha": "widget", "foxtrot": "widget"}
	out := replay(w, callTool("shop", "alpha", `{}`), callTool("shop", "echo", `{}`), callTool("shop", "foxtrot", `{}`))
	for i, o := range out {
		if g := outcome(o); g != (got{2, 0}) {
			t.Errorf("%s, 5 results: %+v, want 2 searches, no miss", []string{"bm25", "regex"}[i], g)
		}
	}

	// BM25 queries are cut to 500 characters.
	filler := strings.Repeat("z", 493)
	for _, tc := range []struct {
		query string
		want  got
	}{
		{filler + " widget", got{1, 0}},                          // 500 characters
		{filler + strings.Repeat("z", 7) + " widget", got{2, 1}}, // "widget" starts at character 502
	} {
		if g := outcome(replay(map[string]string{"alpha": tc.query}, callTool("shop", "alpha", `{}`))[0]); g != tc.want {
			t.Errorf("bm25, %d-character query: %+v, want %+v", len([]rune(tc.query)), g, tc.want)
		}
	}

	// Regex patterns of at most 200 characters, matched against argument
	// descriptions too ("gizmo" is only in hotel's item description).
	for _, tc := range []struct {
		pattern string
		want    got
	}{
		{strings.Repeat("x?", 97) + "gizmo.", got{1, 0}},  // 200 characters
		{strings.Repeat("x?", 97) + "gizmo.?", got{2, 1}}, // 201
	} {
		if g := outcome(replay(map[string]string{"hotel": tc.pattern}, callTool("shop", "hotel", `{}`))[1]); g != tc.want {
			t.Errorf("regex, %d-character pattern: %+v, want %+v", len(tc.pattern), g, tc.want)
		}
	}
}
