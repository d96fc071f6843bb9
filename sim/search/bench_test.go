package search

import (
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim"
)

func BenchmarkBM25Build1000(b *testing.B) {
	docs := syntheticCorpus(1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewBM25(docs, AnchorBM25()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRank500(b *testing.B) {
	docs := syntheticCorpus(500)
	queries := map[string]string{
		ModeBM25:      "create a pull request for this branch",
		ModeRegex:     "pull.*request",
		ModeSubstring: "request",
		ModeKeyword:   "create a pull request for this branch",
	}
	for mode, q := range queries {
		rk, err := Factories()[mode](docs)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rk.Rank(q, 8)
			}
		})
	}
	sub := NewSubstring(docs)
	b.Run("substring-miss", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sub.Rank("no such words", 8)
		}
	})
	bm, _ := NewBM25(docs, AnchorBM25())
	b.Run("bm25-prefix-fallback", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bm.Rank("reque", 8)
		}
	})
}

// BenchmarkBM25BuildReal indexes every tool of every captured catalog
// version (about 1,500 real tools).
func BenchmarkBM25BuildReal(b *testing.B) {
	cat, err := catalog.LoadDir(shareddata.Path(b, "catalogs"))
	if err != nil {
		b.Fatal(err)
	}
	var docs []sim.ToolDoc
	for _, s := range cat.All() {
		for _, t := range s.Tools {
			docs = append(docs, sim.ToolDoc{Name: t.Name, Server: s.Name, Description: t.Description, Schema: t.InputSchema})
		}
	}
	b.ReportMetric(float64(len(docs)), "tools")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewBM25(docs, AnchorBM25()); err != nil {
			b.Fatal(err)
		}
	}
}
