package search

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// goldenCatalogs is a flat corpus of seven real servers (132 tools).
var goldenCatalogs = []string{
	"modelcontextprotocol__server-filesystem@2025.11.25.json",
	"modelcontextprotocol__server-github@2025.4.8.json",
	"playwright__mcp@0.0.83.json",
	"wonderwhy-er__desktop-commander@0.2.52.json",
	"modelcontextprotocol__server-memory@2026.8.31.json",
	"modelcontextprotocol__server-slack@2025.4.25.json",
	"notionhq__notion-mcp-server@2.5.2.json",
}

// goldenQueries are written in a user's words, not the tools' wording.
// needed lists the acceptable tools (interchangeable servers count alike).
var goldenQueries = []struct {
	query  string
	needed []string
}{
	{"take a picture of how the site looks right now", []string{"browser_take_screenshot"}},
	{"open a PR so my branch gets merged", []string{"create_pull_request"}},
	{"stop that program, it is stuck", []string{"kill_process", "force_terminate"}},
	{"tell the team in the channel that the deploy is done", []string{"slack_post_message"}},
	{"what is in this folder", []string{"list_directory"}},
	{"remember that Alice works at Acme", []string{"create_entities", "add_observations"}},
	{"rename notes.txt to todo.txt", []string{"move_file"}},
	{"type my username and password into the login boxes", []string{"browser_fill_form", "browser_type"}},
	{"leave a remark on the notion page", []string{"API-create-a-comment"}},
	{"look for bug reports about login in the repo", []string{"search_issues"}},
	{"change two lines in my config", []string{"edit_file", "edit_block"}},
	{"go back to where the browser was before", []string{"browser_navigate_back"}},
}

type goldenRow struct {
	Query  string   `json:"query"`
	Needed []string `json:"needed"`
	// Rank of the first needed tool among all results (1-based; 0 = not
	// found) and the top five names, per mode.
	BM25Rank      int      `json:"bm25_rank"`
	BM25Top       []string `json:"bm25_top5"`
	SubstringRank int      `json:"substring_rank"`
}

func loadGoldenCorpus(t testing.TB) []sim.ToolDoc {
	t.Helper()
	var docs []sim.ToolDoc
	for _, f := range goldenCatalogs {
		s, err := catalog.LoadFile(shareddata.Path(t, "catalogs", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range s.Tools {
			docs = append(docs, sim.ToolDoc{Name: tool.Name, Server: s.Name, Description: tool.Description, Schema: tool.InputSchema})
		}
	}
	return docs
}

func TestGoldenRealCatalog(t *testing.T) {
	docs := loadGoldenCorpus(t)
	bm, err := NewBM25(docs, AnchorBM25())
	if err != nil {
		t.Fatal(err)
	}
	sub := NewSubstring(docs)
	rank := func(got []int, needed []string) int {
		for i, idx := range got {
			if slices.Contains(needed, docs[idx].Name) {
				return i + 1
			}
		}
		return 0
	}
	var rows []goldenRow
	found := 0
	for _, q := range goldenQueries {
		all := bm.Rank(q.query, len(docs))
		row := goldenRow{Query: q.query, Needed: q.needed, BM25Rank: rank(all, q.needed),
			SubstringRank: rank(sub.Rank(q.query, len(docs)), q.needed)}
		for _, idx := range all[:min(5, len(all))] {
			row.BM25Top = append(row.BM25Top, docs[idx].Name)
		}
		if row.BM25Rank >= 1 && row.BM25Rank <= 8 {
			found++
		}
		rows = append(rows, row)
	}
	got, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "golden_ranks.json")
	if *update {
		if err := atomicfile.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("ranks changed (-want +got); rerun with -update if intended:\n%s", diff)
	}
	t.Logf("%d tools; needed tool in BM25 top 8 for %d of %d queries", len(docs), found, len(goldenQueries))
}
