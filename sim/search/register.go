package search

import (
	"fmt"

	"github.com/defersim/defersim/sim"
)

// Mode names registered by Register.
const (
	ModeBM25          = "bm25"
	ModeBM25Anthropic = "bm25-anthropic"
	ModeRegex         = "regex"
	ModeSubstring     = "substring"
)

// Factories returns the search modes of this package by name: "bm25" (the
// anchor runtime's tool_search: exact names, else BM25), "bm25-anthropic"
// (the Anthropic API's BM25: no exact-name handling, queries cut to 500
// characters), "keyword" (term counts, with exact names), "regex" (RE2
// patterns of at most 200 characters) and "substring" (the anchor's E0
// search).
func Factories() map[string]sim.RankerFactory {
	return map[string]sim.RankerFactory{
		ModeBM25:          withExact(bm25Factory(AnchorBM25())),
		ModeBM25Anthropic: bm25Factory(AnthropicBM25()),
		ModeRegex: func(docs []sim.ToolDoc) (sim.Ranker, error) {
			return NewRegex(docs, MaxRegexChars), nil
		},
		ModeSubstring: func(docs []sim.ToolDoc) (sim.Ranker, error) {
			return NewSubstring(docs), nil
		},
		ModeKeyword: withExact(func(docs []sim.ToolDoc) (sim.Ranker, error) {
			return NewKeyword(docs), nil
		}),
	}
}

func bm25Factory(p BM25Params) sim.RankerFactory {
	return func(docs []sim.ToolDoc) (sim.Ranker, error) {
		x, err := NewBM25(docs, p)
		if err != nil {
			return nil, err
		}
		return x, nil
	}
}

// WithExact wraps the rankers f builds with exact-name handling (Exact).
func WithExact(f sim.RankerFactory) sim.RankerFactory { return withExact(f) }

// withExact wraps the rankers f builds with exact-name handling (Exact).
func withExact(f sim.RankerFactory) sim.RankerFactory {
	return func(docs []sim.ToolDoc) (sim.Ranker, error) {
		r, err := f(docs)
		if err != nil {
			return nil, err
		}
		return NewExact(docs, r), nil
	}
}

// Register adds every mode of Factories to r, in name order.
func Register(r *sim.Registry) error {
	fs := Factories()
	for _, name := range []string{ModeBM25, ModeBM25Anthropic, ModeKeyword, ModeRegex, ModeSubstring} {
		if err := r.RegisterRanker(name, fs[name]); err != nil {
			return fmt.Errorf("register search modes: %w", err)
		}
	}
	return nil
}
