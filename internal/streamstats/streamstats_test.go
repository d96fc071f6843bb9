package streamstats

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func exactSum(xs []float64) float64 {
	z := new(big.Float).SetPrec(bigPrec)
	for _, x := range xs {
		z.Add(z, new(big.Float).SetFloat64(x))
	}
	f, _ := z.Float64()
	return f
}

func TestSumIsExactAndOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name string
		xs   []float64
	}{
		{"empty", nil},
		{"cancellation", []float64{1e100, 1, -1e100, 1e-100}},
		{"tenths", slices.Repeat([]float64{0.1}, 10)},
		{"half-way", []float64{1, 1e-16, 1e-16 * 0.5, -1e-32}},
		{"random wide", func() []float64 {
			xs := make([]float64, 2000)
			for i := range xs {
				xs[i] = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-20))
			}
			return xs
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := exactSum(tc.xs)
			var fwd, rev, a, b Sum
			for i, x := range tc.xs {
				fwd.Add(x)
				rev.Add(tc.xs[len(tc.xs)-1-i])
				if i%3 == 0 {
					a.Add(x)
				} else {
					b.Add(x)
				}
			}
			b.Merge(&a)
			for name, s := range map[string]*Sum{"forward": &fwd, "reverse": &rev, "merged": &b} {
				if got := s.Value(); got != want {
					t.Errorf("%s: sum = %v, want %v", name, got, want)
				}
			}
		})
	}
}

func TestSumSquareExact(t *testing.T) {
	xs := []float64{0.1, 1.0 / 3, 12345.678, 1e-3}
	var s Sum
	z := new(big.Float).SetPrec(bigPrec)
	for _, x := range xs {
		s.AddSquare(x)
		bx := new(big.Float).SetPrec(bigPrec).SetFloat64(x)
		z.Add(z, new(big.Float).SetPrec(bigPrec).Mul(bx, bx))
	}
	if s.Big().Cmp(z) != 0 {
		t.Fatalf("sum of squares %v, want %v", s.Big(), z)
	}
}

func newSeries(t testing.TB, alpha float64) *Series {
	t.Helper()
	s, err := NewSeries(alpha)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSeriesStatistics(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 5000)
	for i := range xs {
		xs[i] = math.Exp(rng.NormFloat64()*1.5) * 1000 // lognormal, like token counts
	}
	xs[7] = 0
	s := newSeries(t, 0.01)
	for _, x := range xs {
		s.Add(x)
	}
	sorted := slices.Sorted(slices.Values(xs))
	if s.N != int64(len(xs)) || s.Min != sorted[0] || s.Max != sorted[len(sorted)-1] {
		t.Fatalf("count/min/max = %d %v %v", s.N, s.Min, s.Max)
	}
	if got, want := s.Mean(), exactSum(xs)/float64(len(xs)); got != want {
		t.Errorf("mean = %v, want %v", got, want)
	}
	mean := exactSum(xs) / float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	if got, want := s.StdDev(), math.Sqrt(ss/float64(len(xs)-1)); math.Abs(got-want) > 1e-9*want {
		t.Errorf("stddev = %v, want %v", got, want)
	}
	for _, q := range []float64{0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 1} {
		k := int(q * float64(len(xs)-1))
		got, rank := s.Quantile(q), sorted[k]
		if math.Abs(got-rank) > 0.01*math.Abs(rank)+1e-12 {
			t.Errorf("q%.2f = %v, value of rank %d is %v: beyond α = 1%%", q, got, k, rank)
		}
	}
}

func TestSeriesMergeAndEncodeAreLossless(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	whole, a, b := newSeries(t, 0), newSeries(t, 0), newSeries(t, 0)
	for i := range 3000 {
		x := rng.Float64()*100 - 20
		whole.Add(x)
		if i%4 == 0 {
			a.Add(x)
		} else {
			b.Add(x)
		}
	}
	if err := b.Merge(a); err != nil {
		t.Fatal(err)
	}
	enc, err := b.GobEncode()
	if err != nil {
		t.Fatal(err)
	}
	var back Series
	if err := back.GobDecode(enc); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Series{b, &back} {
		if s.N != whole.N || s.Mean() != whole.Mean() || s.StdDev() != whole.StdDev() || s.Min != whole.Min || s.Max != whole.Max {
			t.Fatalf("merged/decoded series differs from the whole: %v %v %v", s.N, s.Mean(), s.StdDev())
		}
		for q := 0.0; q <= 1; q += 0.01 {
			if s.Quantile(q) != whole.Quantile(q) {
				t.Fatalf("q%.2f = %v, whole %v", q, s.Quantile(q), whole.Quantile(q))
			}
		}
	}
	other := newSeries(t, 0.02)
	if err := other.Merge(whole); err == nil {
		t.Error("merging series of different accuracy succeeded")
	}
}

func TestPaired(t *testing.T) {
	p, err := NewPaired(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ab := range [][2]float64{{1, 2}, {3, 2}, {5, 5}, {1e12, 1e12 + 1e-3}, {0.1, 0.3}} {
		p.Add(ab[0], ab[1], 1e-9, true)
	}
	got := [3]int64{p.Better, p.Worse, p.Equal}
	if want := [3]int64{2, 1, 2}; got != want {
		t.Errorf("better/worse/equal = %v, want %v", got, want)
	}
	if got, want := p.MeanDiff(), exactSum([]float64{1, 3, 5, 1e12, 0.1, -2, -2, -5, -(1e12 + 1e-3), -0.3})/5; got != want {
		t.Errorf("mean diff = %v, want %v", got, want)
	}
}

func TestSampleIsOrderFreeAndMerges(t *testing.T) {
	const n, k = 1000, 50
	fwd, rev, a, b := NewSample[int](k), NewSample[int](k), NewSample[int](k), NewSample[int](k)
	for i := range n {
		fwd.Offer(Priority(9, int64(i)), int64(i), i)
		j := n - 1 - i
		rev.Offer(Priority(9, int64(j)), int64(j), j)
		if i%2 == 0 {
			a.Offer(Priority(9, int64(i)), int64(i), i)
		} else {
			b.Offer(Priority(9, int64(i)), int64(i), i)
		}
	}
	a.Merge(b)
	want := fwd.Sorted()
	if len(want) != k {
		t.Fatalf("kept %d, want %d", len(want), k)
	}
	if diff := cmp.Diff(want, rev.Sorted()); diff != "" {
		t.Errorf("order changed the sample:\n%s", diff)
	}
	if diff := cmp.Diff(want, a.Sorted()); diff != "" {
		t.Errorf("merge changed the sample:\n%s", diff)
	}
	all := NewSample[int](0)
	for i := range 10 {
		all.Offer(Priority(1, int64(i)), int64(i), i)
	}
	if all.Len() != 10 {
		t.Errorf("unbounded sample kept %d of 10", all.Len())
	}
}

func FuzzSeriesDecode(f *testing.F) {
	s, _ := NewSeries(0)
	for _, x := range []float64{1, 2, 3, -4, 0} {
		s.Add(x)
	}
	enc, _ := s.GobEncode()
	f.Add(enc)
	f.Add(enc[:len(enc)/2])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var got Series
		if err := got.GobDecode(b); err != nil {
			return
		}
		again, err := got.GobEncode()
		if err != nil {
			t.Fatalf("re-encode of a decoded series: %v", err)
		}
		var back Series
		if err := back.GobDecode(again); err != nil {
			t.Fatalf("decode of a re-encoded series: %v", err)
		}
		_ = back.Quantile(0.5)
	})
}

// TestBatchedSketchEqualsDirect pins the batching of sketch adds: whatever
// the point at which a series is read (mid-batch, after a merge, after an
// encode), its sketch is the one adding every finite value directly builds.
func TestBatchedSketchEqualsDirect(t *testing.T) {
	for _, n := range []int{0, 1, pendMax - 1, pendMax, pendMax + 1, 10*pendMax + 7} {
		s, err := NewSeries(0)
		if err != nil {
			t.Fatal(err)
		}
		direct, _ := NewSeries(0)
		for i := range n {
			x := float64(i%13) * 1.7
			if i%5 == 0 {
				x = -x
			}
			if i%11 == 3 {
				x = math.Inf(1)
			}
			s.Add(x)
			if !math.IsInf(x, 0) {
				direct.sketch.Add(x)
			}
			if i == n/2 {
				_ = s.Quantile(0.5) // a read mid-stream flushes
			}
		}
		var got, want []byte
		s.flush()
		s.sketch.Encode(&got, false)
		direct.sketch.Encode(&want, false)
		if !bytes.Equal(got, want) {
			t.Errorf("n=%d: batched sketch differs from direct adds", n)
		}
	}
}
