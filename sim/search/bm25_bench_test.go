package search

import (
	"strconv"
	"testing"
)

// BenchmarkRankReal ranks the golden queries over the real golden corpus
// (132 tools) with the k a search asks for (8, 20), the shortest ranking
// the replay memoises (32) and the whole corpus, through BM25 alone and
// behind Exact as the replay uses it.
func BenchmarkRankReal(b *testing.B) {
	docs := loadGoldenCorpus(b)
	bm, err := NewBM25(docs, AnchorBM25())
	if err != nil {
		b.Fatal(err)
	}
	ex := NewExact(docs, bm)
	for _, k := range []int{8, 20, 32, len(docs)} {
		b.Run("bm25/k="+strconv.Itoa(k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, q := range goldenQueries {
					bm.Rank(q.query, k)
				}
			}
		})
	}
	b.Run("exact-bm25/k=8", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range goldenQueries {
				ex.Rank(q.query, 8)
			}
		}
	})
}
