package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkTopKChoice times the two ways topK can take: a bounded heap and
// a full sort, over n matches with random (often tied) scores.
func BenchmarkTopKChoice(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{20, 40, 80, 130} {
		src := make([]scored, n)
		for i := range src {
			src[i] = scored{score: float64(rng.IntN(50)) / 7, doc: int32(i)}
		}
		work := make([]scored, n)
		for _, k := range []int{8, 13, 20, 40, 65} {
			if k >= n {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/k=%d/heap", n, k), func(b *testing.B) {
				for b.Loop() {
					copy(work, src)
					heapTopK(work, k)
				}
			})
			b.Run(fmt.Sprintf("n=%d/k=%d/sort", n, k), func(b *testing.B) {
				for b.Loop() {
					copy(work, src)
					slices.SortFunc(work, compareRanked)
				}
			})
		}
	}
}
