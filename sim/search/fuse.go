package search

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/defersim/defersim/sim"
)

// RRFList is one ranked list of corpus indices for reciprocal-rank fusion,
// with its weight.
type RRFList struct {
	Ranked []int
	Weight float64
}

// FuseRRF fuses ranked lists by weighted reciprocal rank: a document's
// score is Σ weight / (c + rank), rank counted from 1 in each list it is
// in. It returns the k best of the n documents (indices < n), best first;
// ties go to the better rank in the earlier list, then to corpus order.
// Documents in no list are left out.
func FuseRRF(lists []RRFList, c float64, n, k int) []int {
	if k <= 0 || n <= 0 {
		return nil
	}
	score := make(map[int]float64)
	var order []int
	for _, l := range lists {
		for r, i := range l.Ranked {
			if i < 0 || i >= n {
				continue
			}
			if _, ok := score[i]; !ok {
				order = append(order, i)
			}
			score[i] += l.Weight / (c + float64(r+1))
		}
	}
	hs := make([]scored, 0, len(order))
	for _, i := range order {
		hs = append(hs, scored{score: score[i], doc: int32(i)})
	}
	// order is first-appearance order, which the stable tie rule below
	// keeps: equal scores rank as they first appeared.
	pos := make(map[int32]int, len(order))
	for p, i := range order {
		pos[int32(i)] = p
	}
	slices.SortFunc(hs, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(pos[a.doc], pos[b.doc]))
	})
	top := hs[:min(k, len(hs))]
	out := make([]int, len(top))
	for i, h := range top {
		out[i] = int(h.doc)
	}
	return out
}

// Fused is a ranker that fuses other rankers over the same corpus by
// weighted reciprocal rank (FuseRRF), each asked for Depth results.
type Fused struct {
	rankers []sim.Ranker
	weights []float64
	c       float64
	depth   int
	n       int
}

// NewFused fuses rankers (all built over the same n documents) with
// weights, constant c and depth (how many results each contributes).
func NewFused(n int, rankers []sim.Ranker, weights []float64, c float64, depth int) (*Fused, error) {
	switch {
	case len(rankers) == 0 || len(rankers) != len(weights):
		return nil, fmt.Errorf("fused: %d rankers and %d weights", len(rankers), len(weights))
	case !(c >= 0) || math.IsInf(c, 0):
		return nil, fmt.Errorf("fused: constant %v, want a finite value >= 0", c)
	case depth < 1:
		return nil, fmt.Errorf("fused: depth %d, want at least 1", depth)
	}
	for _, w := range weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("fused: weight %v, want a finite value >= 0", w)
		}
	}
	return &Fused{rankers: rankers, weights: weights, c: c, depth: depth, n: n}, nil
}

// Rank implements sim.Ranker.
func (f *Fused) Rank(query string, k int) []int {
	if k <= 0 {
		return nil
	}
	lists := make([]RRFList, len(f.rankers))
	for i, r := range f.rankers {
		lists[i] = RRFList{Ranked: r.Rank(query, max(f.depth, k)), Weight: f.weights[i]}
	}
	return FuseRRF(lists, f.c, f.n, k)
}

// Nested implements sim.NestedRanker. The fused lists are each ranker's
// first max(depth, k) results; when depth covers the corpus that is every
// ranker's whole ranking whatever k, and the fused order is cut to k.
// A shallower depth fuses longer lists for larger k: not nested.
func (f *Fused) Nested() bool { return f.depth >= f.n }
