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

// Register adds every mode of Factories to r, in name order, each with
// its description and the query model its rankers expect (sim.QueryModel:
// the BM25 modes read the user's words; keyword counts content words;
// substring and regex match one short term).
func Register(r *sim.Registry) error {
	fs := Factories()
	for _, m := range []sim.Info{
		{Name: ModeBM25, Description: "the anchor runtime's tool_search: exact tool names, else BM25 (k1 1.2, b 0.75) over names, descriptions and parameters",
			QueryModel: "user-text"},
		{Name: ModeBM25Anthropic, Description: "the Anthropic API's BM25 tool search: names, descriptions and arguments (no server name), no exact-name handling, queries cut to 500 characters",
			QueryModel: "user-text"},
		{Name: ModeKeyword, Description: "term counts over names, descriptions and parameters, with exact tool names",
			QueryModel: "content-words"},
		{Name: ModeRegex, Description: "the Anthropic API's regex tool search: a case-insensitive RE2 pattern (at most 200 characters) over names, descriptions and argument names and descriptions",
			QueryModel: "regex-term"},
		{Name: ModeSubstring, Description: "case-insensitive substring of names and descriptions (the anchor's first search)",
			QueryModel: "short-term"},
	} {
		m.Params = []sim.Param{
			{Name: "search.k", Type: "int", Default: "5", Meaning: "results a search returns (and loads)"},
			{Name: "search.keyword_retries", Type: "int", Default: "0", Meaning: "searches with the tool's name words after a miss, before an exact select"},
		}
		if err := r.RegisterSearch(m, fs[m.Name]); err != nil {
			return fmt.Errorf("register search modes: %w", err)
		}
	}
	return nil
}
