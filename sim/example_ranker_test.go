package sim_test

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/defersim/defersim/sim"
)

// An example search ranker, as a contributor adds one: this file plus one
// call of registerNameOverlap (components_test.go replays it end to end).
// It ranks tools by how many words of the query occur among the words of
// the tool's name, ties in corpus order.

// nameOverlap is built once per corpus and only read afterwards (Rank may
// run concurrently).
type nameOverlap struct {
	names [][]string // words of each tool's name
	calls *atomic.Int64
}

func (n nameOverlap) Rank(query string, k int) []int {
	n.calls.Add(1)
	q := strings.Fields(strings.ToLower(query))
	type hit struct{ i, score int }
	var hits []hit
	for i, words := range n.names {
		score := 0
		for _, w := range q {
			if slices.Contains(words, w) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{i, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return b.score - a.score })
	out := make([]int, 0, min(k, len(hits)))
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, h.i)
	}
	return out
}

// registerNameOverlap registers the ranker as search mode "name-overlap";
// calls counts its Rank calls. The model is assumed to search with the
// content words of the user's message (a registered query model).
func registerNameOverlap(r *sim.Registry, calls *atomic.Int64) error {
	return r.RegisterSearch(sim.Info{Name: "name-overlap", QueryModel: "content-words",
		Description: "tools whose name shares the most words with the query"},
		func(docs []sim.ToolDoc) (sim.Ranker, error) {
			n := nameOverlap{calls: calls}
			for _, d := range docs {
				n.names = append(n.names, strings.FieldsFunc(strings.ToLower(d.Name), func(c rune) bool { return c == '_' || c == '-' }))
			}
			return n, nil
		})
}
