package stats

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkSelectQuantiles5000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 5000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	buf := make([]float64, len(x))
	out := make([]float64, 2)
	for b.Loop() {
		copy(buf, x)
		SelectQuantiles(buf, []float64{0.5, 0.95}, out)
	}
}
