package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/defersim/defersim/sim"
)

// fullSortSearch is BM25.Search as it was before top-k selection: every
// touched document is scored, then all of them are sorted by score
// (cmp.Compare, descending) then corpus index, and the first k kept. It is
// the reference the selection must reproduce exactly.
func fullSortSearch(x *BM25, query string, k int) []Hit {
	if k <= 0 || x.n == 0 {
		return nil
	}
	query = truncateRunes(query, x.p.MaxQueryChars)
	var terms []int32
	for _, tok := range Tokenize(query) {
		if id, ok := x.vocab[tok]; ok && !slices.Contains(terms, id) {
			terms = append(terms, id)
		}
	}
	if len(terms) == 0 && x.p.MinPrefix > 0 {
		for _, tok := range Tokenize(query) {
			if utf8.RuneCountInString(tok) >= x.p.MinPrefix {
				terms = x.appendPrefixed(terms, tok)
			}
		}
	}
	scores := make([]float64, x.n)
	var touched []int
	for _, id := range terms {
		for _, ps := range x.postings[id] {
			if scores[ps.doc] == 0 {
				touched = append(touched, int(ps.doc))
			}
			tf := float64(ps.tf)
			scores[ps.doc] += IDF(x.n, len(x.postings[id])) * tf * (x.p.K1 + 1) / (tf + x.norm[ps.doc])
		}
	}
	slices.SortFunc(touched, func(a, b int) int {
		if c := compareFloat(scores[b], scores[a]); c != 0 {
			return c
		}
		return a - b
	})
	var out []Hit
	for _, d := range touched[:min(k, len(touched))] {
		out = append(out, Hit{Index: d, Score: scores[d]})
	}
	return out
}

// compareFloat is cmp.Compare spelled out, so the reference does not share
// the code under test.
func compareFloat(a, b float64) int {
	aNaN, bNaN := math.IsNaN(a), math.IsNaN(b)
	switch {
	case aNaN && bNaN:
		return 0
	case aNaN: // NaN below every number
		return -1
	case bNaN:
		return 1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// tiedCorpus has many documents with exactly equal scores: one-token names
// of equal length and descriptions drawn from a few phrases, so documents
// sharing a phrase have the same length and term frequencies.
func tiedCorpus(n int) []sim.ToolDoc {
	phrases := []string{
		"read file contents",
		"write file contents now",
		"list the open issues",
		"create issue",
		"search files and issues",
		"read write search list",
	}
	docs := make([]sim.ToolDoc, n)
	for i := range docs {
		docs[i] = sim.ToolDoc{
			Name:        fmt.Sprintf("t%04d", i),
			Description: phrases[(i*7)%len(phrases)],
		}
	}
	return docs
}

// differentialQueries returns the given queries plus random ones of one to
// five words drawn from the corpus's vocabulary, some cut to prefixes (the
// prefix fallback) and some with an unknown word.
func differentialQueries(x *BM25, given []string, n int, rng *rand.Rand) []string {
	qs := append([]string{"", "zzzz", "rea", "iss"}, given...)
	for range n {
		w := make([]string, 1+rng.IntN(5))
		for i := range w {
			w[i] = x.terms[rng.IntN(len(x.terms))]
		}
		switch rng.IntN(6) {
		case 0:
			for i, t := range w {
				if len(t) > 3 {
					w[i] = t[:3+rng.IntN(len(t)-3)]
				}
			}
		case 1:
			w = append(w, "qqqunknown")
		}
		qs = append(qs, strings.Join(w, " "))
	}
	return qs
}

func TestBM25SelectionMatchesFullSort(t *testing.T) {
	golden := loadGoldenCorpus(t)
	var given []string
	for _, q := range goldenQueries {
		given = append(given, q.query)
	}
	corpora := []struct {
		name  string
		docs  []sim.ToolDoc
		given []string
	}{
		{"golden", golden, given},
		{"tied", tiedCorpus(300), []string{"read", "file", "issues", "read file", "t0001 read", "contents issue"}},
		{"synthetic", syntheticCorpus(500), []string{"create a pull request for this branch", "browser screenshot"}},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range corpora {
		for _, p := range []BM25Params{AnchorBM25(), AnthropicBM25(), {K1: 0, B: 0, NameWeight: 1, MinPrefix: 2}} {
			x, err := NewBM25(c.docs, p)
			if err != nil {
				t.Fatal(err)
			}
			n := len(c.docs)
			ks := []int{-1, 0, 1, 2, 5, 8, 20, 33, n / 4, n/4 + 1, n / 2, n - 1, n, n + 10}
			checked, tied := 0, 0
			for _, q := range differentialQueries(x, c.given, 300, rng) {
				for _, k := range ks {
					want := fullSortSearch(x, q, k)
					got := x.Search(q, k)
					if !slices.Equal(got, want) {
						t.Fatalf("%s %+v: Search(%q, %d) =\n%v\nwant\n%v", c.name, p, q, k, got, want)
					}
					var wantIdx []int
					for _, h := range want {
						wantIdx = append(wantIdx, h.Index)
					}
					if gotIdx := x.Rank(q, k); !slices.Equal(gotIdx, wantIdx) {
						t.Fatalf("%s %+v: Rank(%q, %d) = %v, want %v", c.name, p, q, k, gotIdx, wantIdx)
					}
					checked++
				}
				all := fullSortSearch(x, q, n)
				for i := 1; i < len(all); i++ {
					if all[i].Score == all[i-1].Score {
						tied++
						break
					}
				}
			}
			// The comparison must have exercised ties, or it proves little
			// about the tie order.
			if tied == 0 {
				t.Errorf("%s %+v: no query had tied scores", c.name, p)
			}
			t.Logf("%s %+v: %d searches, %d queries with ties", c.name, p, checked, tied)
		}
	}
}

// sameScored compares entries bit for bit (NaN equals NaN, -0 is not +0).
func sameScored(a, b scored) bool {
	return a.doc == b.doc && math.Float64bits(a.score) == math.Float64bits(b.score)
}

func TestTopKMatchesFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	// Few distinct scores, so most entries tie; 0.1+0.2 and 0.3 differ by
	// one ulp and must not be treated as equal.
	values := []float64{1, 2.5, 0.1 + 0.2, 0.3, 7}
	odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, -1}
	for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 21, 25, 40, 100, 133, 1000} {
		for _, k := range []int{0, 1, 2, 5, 8, 20, n / 4, n/4 + 1, n - 1, n, n + 10} {
			for range 20 {
				hs := make([]scored, n)
				for i, d := range rng.Perm(n) {
					hs[i] = scored{score: values[rng.IntN(len(values))], doc: int32(d)}
					if rng.IntN(8) == 0 { // now and then a score no BM25 gives, ordered as cmp.Compare orders it
						hs[i].score = odd[rng.IntN(len(odd))]
					}
				}
				want := slices.Clone(hs)
				slices.SortFunc(want, func(a, b scored) int {
					if c := compareFloat(b.score, a.score); c != 0 {
						return c
					}
					return int(a.doc - b.doc)
				})
				want = want[:max(0, min(k, n))]
				if got := topK(slices.Clone(hs), k); !slices.EqualFunc(got, want, sameScored) {
					t.Fatalf("topK(n=%d, k=%d) =\n%v\nwant\n%v", n, k, got, want)
				}
			}
		}
	}
}

// TestSelectFallsBackToHeap pins the selection's way out of lopsided
// partitions: with any budget of partitions, down to none, the best k
// entries come first.
func TestSelectFallsBackToHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, n := range []int{17, 40, 300} {
		hs := make([]scored, n)
		for i, d := range rng.Perm(n) {
			hs[i] = scored{score: float64(rng.IntN(6)), doc: int32(d)}
		}
		want := slices.Clone(hs)
		slices.SortFunc(want, compareRanked)
		for _, k := range []int{1, 5, n / 2, n - 1} {
			for budget := range 4 {
				got := slices.Clone(hs)
				selectWithin(got, k, budget)
				got = got[:k]
				sortRanked(got)
				if !slices.Equal(got, want[:k]) {
					t.Fatalf("n %d, k %d, budget %d: best k = %v, want %v", n, k, budget, got, want[:k])
				}
			}
		}
	}
}
