package streamstats

import (
	"bytes"
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/DataDog/sketches-go/ddsketch/mapping"
	"github.com/DataDog/sketches-go/ddsketch/store"
)

// batchStreams are the fast-path streams plus streams shaped like a run's
// metrics (long runs of zeros and of one value, small counts, fractions)
// and adversarial ones (NaN, ±Inf, -0, huge, tiny and subnormal values).
func batchStreams() []struct {
	name string
	xs   []float64
} {
	rng := rand.New(rand.NewPCG(11, 12))
	negz := math.Copysign(0, -1)
	gen := func(n int, f func(i int) float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = f(i)
		}
		return xs
	}
	special := []float64{0, negz, 1, -1, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 1e-300, 1e300, 0.1, 1 << 53, 1<<53 + 2, 3.5}
	out := fastPathStreams()
	out = append(out, []struct {
		name string
		xs   []float64
	}{
		{"zeros", make([]float64, 100)},
		{"negative zeros then zeros", slices.Concat(slices.Repeat([]float64{negz}, 40), make([]float64, 40), []float64{negz})},
		{"one value", slices.Repeat([]float64{1234}, 77)},
		{"small counts", gen(500, func(int) float64 { return float64(rng.IntN(4)) })},
		{"mostly zero counts", gen(500, func(int) float64 {
			if rng.IntN(5) == 0 {
				return float64(rng.IntN(30))
			}
			return 0
		})},
		{"milliseconds", gen(500, func(int) float64 { return math.Round(rng.ExpFloat64()*2e5) / 1000 })},
		{"ratios", gen(500, func(int) float64 { return rng.Float64() })},
		{"signed fractions", gen(500, func(int) float64 { return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(30)-15)) })},
		{"specials at random", gen(600, func(int) float64 { return special[rng.IntN(len(special))] })},
		{"specials in runs", gen(600, func(i int) float64 { return special[(i/7)%len(special)] })},
		// Magnitudes 2^-480 … 2^480: the exact sum needs more partials than
		// sumRun holds in locals, so the batch spills to the slice.
		{"many partials", gen(400, func(int) float64 {
			return math.Ldexp(rng.Float64()+0.5, 60*(rng.IntN(17)-8)) * float64(1-2*rng.IntN(2))
		})},
	}...)
	return out
}

// batchSizes cuts n values into batches: single values, small, the run's
// batch, and random sizes.
func batchSizes(n int, rng *rand.Rand) [][]int {
	cuts := [][]int{}
	for _, size := range []int{1, 2, 7, 32, n + 1} {
		var c []int
		for i := 0; i < n; i += size {
			c = append(c, min(size, n-i))
		}
		cuts = append(cuts, c)
	}
	var c []int
	for i := 0; i < n; {
		k := min(rng.IntN(40), n-i)
		c = append(c, k) // 0 too: an empty batch changes nothing
		i += k
	}
	return append(cuts, c)
}

func encodeSeries(t *testing.T, s *Series) []byte {
	t.Helper()
	b, err := s.GobEncode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sameSum(a, b *Sum) bool {
	return sameBits(a.Partials, b.Partials) && sameFloat(a.Special, b.Special)
}

func sameSeries(t *testing.T, got, want *Series) {
	t.Helper()
	if got.N != want.N || !sameFloat(got.Min, want.Min) || !sameFloat(got.Max, want.Max) || got.Integral != want.Integral {
		t.Fatalf("n, min, max, integral = %d %v %v %v, want %d %v %v %v",
			got.N, got.Min, got.Max, got.Integral, want.N, want.Min, want.Max, want.Integral)
	}
	if !sameSum(&got.Sum, &want.Sum) || !sameSum(&got.SumSq, &want.SumSq) {
		t.Fatalf("sums %v %v, want %v %v", got.Sum, got.SumSq, want.Sum, want.SumSq)
	}
	if !bytes.Equal(encodeSeries(t, got), encodeSeries(t, want)) {
		t.Fatal("encoding differs from the encoding of values added one by one")
	}
}

// TestSeriesAddBatchMatchesAdd pins Series.AddBatch to Series.Add: for
// every stream and every way of cutting it into batches (mixed with single
// adds), the count, min, max (bit for bit: NaN, -0), Integral, the sums'
// partials and the encoding (sketch bins and zero count) are those of
// adding the values one by one, also when the series is read mid-stream.
func TestSeriesAddBatchMatchesAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tc := range batchStreams() {
		t.Run(tc.name, func(t *testing.T) {
			want := newSeries(t, 0)
			for _, x := range tc.xs {
				want.Add(x)
			}
			for ci, cut := range batchSizes(len(tc.xs), rng) {
				got := newSeries(t, 0)
				i := 0
				for bi, k := range cut {
					if k == 1 && bi%2 == 0 {
						got.Add(tc.xs[i]) // single adds between batches
					} else {
						got.AddBatch(tc.xs[i : i+k])
					}
					i += k
					if bi == len(cut)/2 {
						_ = got.Quantile(0.5) // a read mid-stream
					}
				}
				t.Logf("cut %d: %d batches", ci, len(cut))
				sameSeries(t, got, want)
			}
		})
	}
}

// TestSumRunSpills pins that the batch tests reach sumRun's spill to the
// slice: the "many partials" stream's sum holds more partials than sumRun
// keeps in locals.
func TestSumRunSpills(t *testing.T) {
	for _, tc := range batchStreams() {
		if tc.name != "many partials" {
			continue
		}
		var s Sum
		for _, x := range tc.xs {
			s.Add(x)
		}
		if len(s.Partials) <= maxRunPartials {
			t.Fatalf("%d partials: the stream does not make sumRun spill", len(s.Partials))
		}
		return
	}
	t.Fatal("no stream called many partials")
}

// TestPairedAddBatchMatchesAdd pins Paired.AddBatch to Paired.Add: the
// counts by sign, the exact Σa − Σb (partials bit for bit) and the series
// of differences (its encoding) are those of adding the pairs one by one,
// for both directions of "better" and for tolerances 0 and 1e-9.
func TestPairedAddBatchMatchesAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	streams := batchStreams()
	for i, tc := range streams {
		as := tc.xs
		// b: another stream, or a perturbation of a (many exact ties).
		other := streams[(i+5)%len(streams)].xs
		bs := make([]float64, len(as))
		for j := range bs {
			switch j % 3 {
			case 0:
				bs[j] = as[j]
			case 1:
				bs[j] = other[j%len(other)]
			default:
				bs[j] = as[j] * (1 + 1e-12)
			}
		}
		for _, tol := range []float64{0, 1e-9} {
			for _, lower := range []bool{true, false} {
				t.Run(tc.name, func(t *testing.T) {
					want, err := NewPaired(0)
					if err != nil {
						t.Fatal(err)
					}
					for j := range as {
						want.Add(as[j], bs[j], tol, lower)
					}
					for _, cut := range batchSizes(len(as), rng) {
						got, _ := NewPaired(0)
						diffs := make([]float64, 40)
						j := 0
						for _, k := range cut {
							if k > len(diffs) {
								diffs = make([]float64, k)
							}
							got.AddBatch(as[j:j+k], bs[j:], diffs, tol, lower)
							j += k
						}
						if got.Better != want.Better || got.Worse != want.Worse || got.Equal != want.Equal {
							t.Fatalf("better, worse, equal = %d %d %d, want %d %d %d",
								got.Better, got.Worse, got.Equal, want.Better, want.Worse, want.Equal)
						}
						if !sameSum(&got.DiffSum, &want.DiffSum) {
							t.Fatalf("Σa − Σb partials %v, want %v", got.DiffSum, want.DiffSum)
						}
						sameSeries(t, got.Diff, want.Diff)
						if !bytes.Equal(gobBytes(t, got), gobBytes(t, want)) {
							t.Fatal("paired encoding differs")
						}
					}
				})
			}
		}
	}
}

// TestSumIsExactMatchesFastTwoSum pins the test of sumRun's inlined fast
// path to Sum.Add's: sumIsExact(x, p, x+p) holds exactly when the Fast2Sum
// rounding error (larger magnitude first) is zero, on random pairs of every
// magnitude and on NaN, infinities, signed zeros, subnormals, and sums that
// overflow or sit at the edge of overflow.
func TestSumIsExactMatchesFastTwoSum(t *testing.T) {
	fast2Sum := func(x, p float64) bool {
		a, b := x, p
		if math.Abs(a) < math.Abs(b) {
			a, b = b, a
		}
		hi := a + b
		return b-(hi-a) == 0
	}
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 3, math.NaN(), math.Inf(1), math.Inf(-1),
		math.MaxFloat64, -math.MaxFloat64, math.Nextafter(math.MaxFloat64, 0), 0x1p1023, -0x1p1023,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 1 << 53, 1<<53 + 2, -(1 << 53), 0.1, 1e300, 1e-300}
	check := func(x, p float64) {
		if got, want := sumIsExact(x, p, x+p), fast2Sum(x, p); got != want {
			t.Fatalf("x=%v p=%v: sumIsExact %v, Fast2Sum error zero %v", x, p, got, want)
		}
	}
	for _, x := range special {
		for _, p := range special {
			check(x, p)
		}
	}
	rng := rand.New(rand.NewPCG(21, 22))
	randFloat := func() float64 {
		switch rng.IntN(4) {
		case 0: // any bit pattern
			return math.Float64frombits(rng.Uint64())
		case 1: // whole numbers
			return float64(rng.Int64N(1<<55) - 1<<54)
		case 2: // a special value, nudged
			return math.Nextafter(special[rng.IntN(len(special))], rng.NormFloat64())
		default:
			return rng.NormFloat64() * math.Pow(2, float64(rng.IntN(120)-60))
		}
	}
	for range 1_000_000 {
		x, p := randFloat(), randFloat()
		check(x, p)
		check(x, -x+p*1e-17) // near cancellation
		check(x, math.Ldexp(p, -rng.IntN(60)))
	}
}

// TestAddBatchOtherSketchTypes pins AddBatch's fallback: a sketch whose
// stores are not dense stores (directSketch cannot reach its bins) gets
// its values through the sketch's own method, with the bins adding them
// one by one gives.
func TestAddBatchOtherSketchTypes(t *testing.T) {
	m, err := mapping.NewLogarithmicMapping(DefaultRelativeAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	sparse := func() *Series {
		s := newSeries(t, 0)
		s.sketch = ddsketch.NewDDSketch(m, store.NewSparseStore(), store.NewSparseStore())
		return s
	}
	for _, tc := range batchStreams() {
		got, want := sparse(), sparse()
		for _, x := range tc.xs {
			want.Add(x)
		}
		for i := 0; i < len(tc.xs); i += 32 {
			got.AddBatch(tc.xs[i:min(i+32, len(tc.xs))])
		}
		if got.direct.m != nil || !got.direct.checked && len(tc.xs) > 0 {
			t.Fatalf("%s: direct path taken for sparse stores", tc.name)
		}
		// A sparse store encodes its bins in map order: compare them sorted.
		bins := func(s *Series) [][2]float64 {
			s.flush()
			var out [][2]float64
			s.sketch.ForEach(func(v, c float64) bool { out = append(out, [2]float64{v, c}); return false })
			slices.SortFunc(out, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
			return append(out, [2]float64{s.sketch.GetZeroCount(), s.sketch.GetCount()})
		}
		if g, w := bins(got), bins(want); !slices.Equal(g, w) {
			t.Errorf("%s: sketch bins %v, adding one by one gives %v", tc.name, g, w)
		}
	}
}
