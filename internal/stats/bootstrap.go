package stats

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// Resampling is a paired, seeded bootstrap over N units (sessions): every
// resample draws M unit indices uniformly with replacement, and every series
// evaluated on a resample sees the same units, so differences between
// aligned series keep their pairing. When M < N it is an m-out-of-n
// bootstrap and intervals are rescaled by Scale.
type Resampling struct {
	N, M      int
	Resamples int
	Seed      uint64
	// Workers bounds the goroutines used (0 = GOMAXPROCS).
	Workers int
	// Context, when set, stops the resampling early once it is cancelled
	// (the replicates are then incomplete: the caller checks Context.Err).
	Context context.Context
}

// NewResampling returns the resampling of n units with the given number of
// resamples, at most maxM units per resample (0 = no cap), and seed.
func NewResampling(n, resamples, maxM int, seed uint64) Resampling {
	m := n
	if maxM > 0 && m > maxM {
		m = maxM
	}
	return Resampling{N: n, M: m, Resamples: resamples, Seed: seed}
}

// Scale is √(M/N), the factor that turns the spread of M-unit resample
// statistics into the spread expected at N units.
func (r Resampling) Scale() float64 {
	if r.N == 0 {
		return 1
	}
	return math.Sqrt(float64(r.M) / float64(r.N))
}

// Run calls fn once for each resample b in [0, Resamples) with the M unit
// indices drawn for it and a scratch buffer of length M owned by the calling
// goroutine. Calls may run concurrently: fn must only write to slots owned by
// b. The indices of resample b depend only on Seed and b, so results do not
// depend on Workers or scheduling.
func (r Resampling) Run(fn func(b int, idx []int32, scratch []float64)) {
	r.run(false, func(b int, idx, _ []int32, scratch []float64) { fn(b, idx, scratch) })
}

// RunCounts is Run that also hands fn the multiplicities of resample b:
// counts[u] (length N) is the number of times unit u appears in idx. Every
// series evaluated on the resample can share them (see Ranked).
func (r Resampling) RunCounts(fn func(b int, idx, counts []int32, scratch []float64)) {
	r.run(true, fn)
}

func (r Resampling) run(withCounts bool, fn func(b int, idx, counts []int32, scratch []float64)) {
	if r.Resamples <= 0 || r.M <= 0 || r.N <= 0 {
		return
	}
	workers := r.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, r.Resamples)
	var done <-chan struct{}
	if r.Context != nil {
		done = r.Context.Done()
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			idx := make([]int32, r.M)
			scratch := make([]float64, r.M)
			var counts []int32
			if withCounts {
				counts = make([]int32, r.N)
			}
			for b := w; b < r.Resamples; b += workers {
				if done != nil {
					select {
					case <-done:
						return
					default:
					}
				}
				if withCounts {
					r.drawCounts(b, idx, counts)
				} else {
					r.Draw(b, idx)
				}
				fn(b, idx, counts, scratch)
			}
		}()
	}
	wg.Wait()
}

// Draw fills idx with the unit indices of resample b, in ascending order
// (statistics of a resample do not depend on order, and gathering values in
// memory order is much faster on large series).
func (r Resampling) Draw(b int, idx []int32) {
	rng := rand.New(rand.NewPCG(splitmix(r.Seed), splitmix(r.Seed^splitmix(uint64(b)+1))))
	n := r.N
	for i := range idx {
		idx[i] = int32(rng.IntN(n))
	}
	slices.Sort(idx)
}

// drawCounts is Draw that also fills counts (length N) with the
// multiplicities of the drawn units. It sorts idx by counting, in O(N + M)
// rather than O(M log M): the result is the same sorted multiset.
func (r Resampling) drawCounts(b int, idx, counts []int32) {
	rng := rand.New(rand.NewPCG(splitmix(r.Seed), splitmix(r.Seed^splitmix(uint64(b)+1))))
	n := r.N
	clear(counts)
	for range idx {
		counts[rng.IntN(n)]++
	}
	j := 0
	for u, c := range counts {
		for range c {
			idx[j] = int32(u)
			j++
		}
	}
}

// splitmix is the SplitMix64 finaliser, used to spread seeds.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Interval returns the percentile confidence interval at level (e.g. 0.95)
// from bootstrap replicates of a statistic whose full-sample value is
// estimate: the (1−level)/2 and (1+level)/2 type-7 quantiles of the
// replicates, with their distance from estimate multiplied by scale (1 for
// an ordinary bootstrap, √(m/n) for an m-out-of-n one). Non-finite
// replicates are ignored; ok is false when none is left. replicates is
// sorted in place.
func Interval(replicates []float64, estimate, scale, level float64) (lo, hi float64, ok bool) {
	finite := replicates[:0]
	for _, v := range replicates {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			finite = append(finite, v)
		}
	}
	if len(finite) == 0 {
		return 0, 0, false
	}
	slices.Sort(finite)
	alpha := (1 - level) / 2
	lo = Quantile(finite, alpha)
	hi = Quantile(finite, 1-alpha)
	if scale != 1 {
		lo = estimate + scale*(lo-estimate)
		hi = estimate + scale*(hi-estimate)
	}
	return lo, hi, true
}
