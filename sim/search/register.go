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
// anchor runtime's BM25), "bm25-anthropic" (the same with queries cut to 500
// characters), "regex" (RE2 patterns of at most 200 characters) and
// "substring" (the anchor's E0 search).
func Factories() map[string]sim.RankerFactory {
	return map[string]sim.RankerFactory{
		ModeBM25:          bm25Factory(AnchorBM25()),
		ModeBM25Anthropic: bm25Factory(AnthropicBM25()),
		ModeRegex: func(docs []sim.ToolDoc) (sim.Ranker, error) {
			return NewRegex(docs, MaxRegexChars), nil
		},
		ModeSubstring: func(docs []sim.ToolDoc) (sim.Ranker, error) {
			return NewSubstring(docs), nil
		},
		ModeKeyword: func(docs []sim.ToolDoc) (sim.Ranker, error) {
			return NewKeyword(docs), nil
		},
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
