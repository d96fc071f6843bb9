package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// The engine answers searches with different k from one memoised ranking
// of a ranker that declares its rankings nested (sim.NestedRanker): these
// tests pin that every ranker of this package that says so ranks
// Rank(q, k) as the first k of Rank(q, k′), k ≤ k′, on a real corpus, and
// that a fused ranker whose depth does not cover the corpus says it is not.

// letterEmbedder embeds a text as its letter counts: deterministic, with
// many ties (which Dense breaks by corpus order).
type letterEmbedder struct{}

func (letterEmbedder) Embed(texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 27)
		for _, c := range strings.ToLower(t) {
			if c >= 'a' && c <= 'z' {
				v[c-'a']++
			}
		}
		v[26] = 1 // no zero vectors
		out[i] = v
	}
	return out, nil
}

func nestedRankers(t *testing.T, docs []sim.ToolDoc) map[string]sim.Ranker {
	t.Helper()
	bm, err := NewBM25(docs, AnchorBM25())
	if err != nil {
		t.Fatal(err)
	}
	api, err := NewBM25(docs, AnthropicBM25())
	if err != nil {
		t.Fatal(err)
	}
	fds := make([]FieldDoc, len(docs))
	for i, d := range docs {
		fds[i] = ToolFields(d)
	}
	bmf, err := NewBM25F(fds, DefaultBM25F())
	if err != nil {
		t.Fatal(err)
	}
	dense, err := NewDense(docs, letterEmbedder{})
	if err != nil {
		t.Fatal(err)
	}
	kw := NewKeyword(docs)
	fused, err := NewFused(len(docs), []sim.Ranker{bm, kw}, []float64{1, 0.5}, 60, len(docs))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]sim.Ranker{
		"bm25": bm, "bm25-anthropic": api, "bm25f": bmf, "dense": dense, "keyword": kw,
		"substring": NewSubstring(docs), "regex": NewRegex(docs, MaxRegexChars),
		"exact+bm25": NewExact(docs, bm), "exact+keyword": NewExact(docs, kw), "fused": fused,
	}
}

func TestNestedRankersNest(t *testing.T) {
	docs := loadGoldenCorpus(t)
	queries := append(indexQueries(docs, 60), "select:read_file,list_directory,browser_click",
		"read_file", " browser_click ", "fil", "rea|wri", "take a picture of how the site looks right now")
	for _, q := range goldenQueries {
		queries = append(queries, q.query)
	}
	for name, r := range nestedRankers(t, docs) {
		nr, ok := r.(sim.NestedRanker)
		if !ok || !nr.Nested() {
			t.Errorf("%s does not declare its rankings nested", name)
			continue
		}
		for _, q := range queries {
			if name == "regex" && len(q) > 24 {
				continue // slow to match, and the regex query model writes one short term
			}
			all := r.Rank(q, len(docs))
			for _, k := range []int{1, 5, 13, len(docs) - 1, len(docs) + 5} {
				want := all[:min(k, len(all))]
				if got := r.Rank(q, k); !slices.Equal(got, want) {
					t.Errorf("%s: Rank(%q, %d) = %v, want the first %d of Rank(q, %d) = %v", name, q, k, got, k, len(docs), want)
				}
			}
		}
	}
}

func TestShallowFusedIsNotNested(t *testing.T) {
	docs := []sim.ToolDoc{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	sub := NewSubstring(docs)
	f, err := NewFused(len(docs), []sim.Ranker{sub}, []float64{1}, 60, 2)
	if err != nil {
		t.Fatal(err)
	}
	if f.Nested() {
		t.Error("a fused ranker of depth 2 over 3 documents says its rankings nest")
	}
	// An Exact over a ranker that does not declare nesting does not either.
	if NewExact(docs, rankFunc(func(string, int) []int { return nil })).Nested() {
		t.Error("Exact over a ranker without Nested says its rankings nest")
	}
}

// rankFunc is a Ranker that does not implement sim.NestedRanker.
type rankFunc func(q string, k int) []int

func (f rankFunc) Rank(q string, k int) []int { return f(q, k) }
