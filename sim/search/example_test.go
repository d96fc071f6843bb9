package search_test

import (
	"fmt"
	"slices"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
)

// longestName is the toy mode of docs/search.md: longest tool name first.
type longestName struct{ order []int }

func (l longestName) Rank(_ string, k int) []int { return l.order[:min(k, len(l.order))] }

func registerLongest(r *sim.Registry) error {
	return r.RegisterRanker("longest-name", func(docs []sim.ToolDoc) (sim.Ranker, error) {
		order := make([]int, len(docs))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return len(docs[b].Name) - len(docs[a].Name) })
		return longestName{order}, nil
	})
}

func Example_newMode() {
	r := sim.NewRegistry()
	if err := search.Register(r); err != nil {
		panic(err)
	}
	if err := registerLongest(r); err != nil {
		panic(err)
	}
	f, _ := r.Ranker("longest-name")
	rk, _ := f([]sim.ToolDoc{{Name: "ls"}, {Name: "read_file"}, {Name: "cat"}})
	fmt.Println(r.SearchModes(), rk.Rank("anything", 2))
	// Output: [select bm25 bm25-anthropic keyword longest-name regex substring] [1 2]
}

func ExampleBM25_Search() {
	docs := []sim.ToolDoc{
		{Name: "read_file", Description: "Read a file from disk"},
		{Name: "browser_take_screenshot", Description: "Capture the visible page"},
	}
	x, err := search.NewBM25(docs, search.AnchorBM25())
	if err != nil {
		panic(err)
	}
	for _, h := range x.Search("screenshot of the page", 8) {
		fmt.Printf("%s %.4f\n", docs[h.Index].Name, h.Score)
	}
	// Output: browser_take_screenshot 2.2963
}
