package streamstats

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchStreams are the value kinds a run adds: whole numbers (tokens,
// requests, milliseconds) and fractions (costs in USD).
var benchStreams = []struct {
	name string
	gen  func(r *rand.Rand) float64
}{
	{"whole", func(r *rand.Rand) float64 { return float64(r.IntN(200000)) }},
	{"fraction", func(r *rand.Rand) float64 { return r.Float64() * 0.3 }},
}

func benchValues(gen func(r *rand.Rand) float64) []float64 {
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = gen(r)
	}
	return xs
}

// BenchmarkSumAdd adds to a sum and a sum of squares, as Series.Add does.
// The sum of whole numbers stays below 2⁵³ (one partial); the sum of
// their squares passes it after about 2·10⁵ values, as in a long run.
func BenchmarkSumAdd(b *testing.B) {
	for _, bs := range benchStreams {
		b.Run(bs.name, func(b *testing.B) {
			xs := benchValues(bs.gen)
			var s, sq Sum
			i := 0
			for b.Loop() {
				s.Add(xs[i&1023])
				sq.AddSquare(xs[i&1023])
				i++
			}
		})
	}
}

func BenchmarkSeriesAdd(b *testing.B) {
	for _, bs := range benchStreams {
		b.Run(bs.name, func(b *testing.B) {
			xs := benchValues(bs.gen)
			s := newSeries(b, 0)
			i := 0
			for b.Loop() {
				s.Add(xs[i&1023])
				i++
			}
		})
	}
}

// BenchmarkSeriesAddBatch adds the same values as BenchmarkSeriesAdd in
// batches of 32 and of 1,024 (as the run's collector files them): ns/op is
// per value, comparable with BenchmarkSeriesAdd's.
func BenchmarkSeriesAddBatch(b *testing.B) {
	for _, bs := range benchStreams {
		for _, n := range []int{32, 1024} {
			b.Run(fmt.Sprintf("%s/batch=%d", bs.name, n), func(b *testing.B) {
				xs := benchValues(bs.gen)
				s := newSeries(b, 0)
				i := 0
				for b.Loop() {
					if i%n == 0 {
						s.AddBatch(xs[i%1024 : i%1024+n])
					}
					i++
				}
			})
		}
	}
}
