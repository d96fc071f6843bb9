package gen

import (
	"math"
	"math/rand/v2"
)

// rng is the generator's random source. It draws raw 64-bit words from PCG
// (an algorithm fixed by its specification) and derives every variate here,
// so outputs do not depend on the standard library's sampling helpers, which
// may change between Go releases.
type rng struct {
	src *rand.PCG
}

// Stream identifiers keep independent parts of the generator on independent
// random streams, so changing one part does not shift the others.
const (
	streamCatalog uint64 = 0x6361_7461_6c6f_6701
	streamDrift   uint64 = 0x6472_6966_7402
	streamSession uint64 = 0x7365_7373_696f_6e03
	streamLayout  uint64 = 0x6c61_796f_7574_04
	streamOver    uint64 = 0x6f76_6572_05
)

// newRNG returns a source for (seed, stream, index).
func newRNG(seed int64, stream, index uint64) *rng {
	return &rng{src: rand.NewPCG(uint64(seed)^stream, mix64(index+stream))}
}

// mix64 is the SplitMix64 finaliser: it spreads nearby integers apart.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// float64 returns a uniform value in [0, 1).
func (r *rng) float64() float64 {
	return float64(r.src.Uint64()>>11) / (1 << 53)
}

// intn returns a uniform integer in [0, n); n <= 0 gives 0.
func (r *rng) intn(n int) int {
	if n <= 1 {
		return 0
	}
	// Rejection sampling removes modulo bias.
	un := uint64(n)
	limit := math.MaxUint64 - math.MaxUint64%un
	for {
		v := r.src.Uint64()
		if v < limit {
			return int(v % un)
		}
	}
}

// between returns a uniform integer in [lo, hi].
func (r *rng) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.intn(hi-lo+1)
}

// chance reports true with probability p.
func (r *rng) chance(p float64) bool {
	return r.float64() < p
}

// normal returns a standard normal variate (Box–Muller).
func (r *rng) normal() float64 {
	u1 := r.float64()
	for u1 == 0 {
		u1 = r.float64()
	}
	u2 := r.float64()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// geometric returns a value in {1, 2, ...} with the given mean (>= 1).
func (r *rng) geometric(mean float64) int {
	if mean <= 1 {
		return 1
	}
	p := 1 / mean
	u := r.float64()
	for u == 0 {
		u = r.float64()
	}
	k := 1 + int(math.Floor(math.Log(u)/math.Log(1-p)))
	if k < 1 {
		k = 1
	}
	return k
}

// pick returns a uniformly chosen element of xs (xs must not be empty).
func pick[T any](r *rng, xs []T) T {
	return xs[r.intn(len(xs))]
}

// shuffle permutes xs in place (Fisher–Yates).
func shuffle[T any](r *rng, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// weighted samples indexes with probability proportional to fixed weights.
type weighted struct {
	cum []float64
}

func newWeighted(w []float64) *weighted {
	cum := make([]float64, len(w))
	total := 0.0
	for i, x := range w {
		if x > 0 {
			total += x
		}
		cum[i] = total
	}
	return &weighted{cum: cum}
}

// total returns the sum of the weights.
func (w *weighted) total() float64 {
	if len(w.cum) == 0 {
		return 0
	}
	return w.cum[len(w.cum)-1]
}

// sample returns an index, or -1 when every weight is zero.
func (w *weighted) sample(r *rng) int {
	t := w.total()
	if t <= 0 {
		return -1
	}
	x := r.float64() * t
	lo, hi := 0, len(w.cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if w.cum[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// zipfWeights returns 1/rank^s for ranks 1..n.
func zipfWeights(n int, s float64) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = math.Pow(float64(i+1), -s)
	}
	return w
}
