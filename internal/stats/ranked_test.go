package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// rankedSeries are value generators for the differential tests: continuous
// values, heavy ties, whole-number counts, a constant series and one that
// mixes +0 with other values.
func rankedSeries(rng *rand.Rand) map[string]func(i int) float64 {
	return map[string]func(i int) float64{
		"continuous": func(int) float64 { return rng.NormFloat64() * 1e3 },
		"ties":       func(int) float64 { return float64(rng.IntN(3)) * 0.25 },
		"counts":     func(int) float64 { return math.Floor(rng.ExpFloat64() * 2) },
		"constant":   func(int) float64 { return 42.5 },
		"zeros":      func(int) float64 { return float64(rng.IntN(2)) * rng.Float64() },
		"sorted":     func(i int) float64 { return float64(i / 3) },
	}
}

// TestRankedMatchesSelect compares Ranked.Quantiles on multiplicities with
// SelectQuantiles on the gathered values, bit for bit, for series and
// paired differences, with m = n and m < n.
func TestRankedMatchesSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	qsets := [][]float64{{0.5, 0.95}, {0.5}, {0, 0.05, 0.5, 0.95, 1}, {0.95, 0.5}, {0.25, 0.25, 0.75}}
	for name, gen := range rankedSeries(rng) {
		for _, n := range []int{1, 2, 3, 17, 100, 1001, 5000} {
			v, base := make([]float64, n), make([]float64, n)
			for i := range v {
				v[i], base[i] = gen(i), gen(i)
			}
			series, ok := NewRanked(v)
			if !ok {
				t.Fatalf("%s n=%d: series refused", name, n)
			}
			diff, ok := NewRankedDiff(v, base, make([]float64, n))
			if !ok {
				t.Fatalf("%s n=%d: differences refused", name, n)
			}
			for _, m := range []int{n, max(1, n/3), 1} {
				r := NewResampling(n, 12, m, 9)
				r.Workers = 1
				r.RunCounts(func(b int, idx, counts []int32, scratch []float64) {
					for _, qs := range qsets {
						got, want := make([]float64, len(qs)), make([]float64, len(qs))
						for i, u := range idx {
							scratch[i] = v[u]
						}
						SelectQuantiles(scratch, qs, want)
						series.Quantiles(counts, len(idx), qs, got)
						if !sameBits(got, want) {
							t.Errorf("%s n=%d m=%d resample %d qs=%v: ranked %v, select %v", name, n, m, b, qs, got, want)
							return
						}
						for i, u := range idx {
							scratch[i] = v[u] - base[u]
						}
						SelectQuantiles(scratch, qs, want)
						diff.Quantiles(counts, len(idx), qs, got)
						if !sameBits(got, want) {
							t.Errorf("%s n=%d m=%d resample %d qs=%v: ranked differences %v, select %v", name, n, m, b, qs, got, want)
							return
						}
					}
				})
			}
		}
	}
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func TestRankedRefusesNegativeZero(t *testing.T) {
	if _, ok := NewRanked([]float64{1, math.Copysign(0, -1), 0}); ok {
		t.Error("series with -0 ranked")
	}
	// 0 − 0 is +0 but −0 − 0 is −0.
	v, base := []float64{math.Copysign(0, -1), 2}, []float64{0, 1}
	if _, ok := NewRankedDiff(v, base, make([]float64, 2)); ok {
		t.Error("differences with -0 ranked")
	}
	if _, ok := NewRanked([]float64{0, 1, 0}); !ok {
		t.Error("series with +0 refused")
	}
}

// TestRunCountsMatchesDraw checks that the counting draw gives the indices
// of Draw and their multiplicities.
func TestRunCountsMatchesDraw(t *testing.T) {
	for _, tc := range []struct{ n, maxM int }{{1, 0}, {2, 0}, {50, 0}, {3000, 0}, {20000, 5000}, {100, 7}} {
		r := NewResampling(tc.n, 20, tc.maxM, 11)
		r.RunCounts(func(b int, idx, counts []int32, _ []float64) {
			want := make([]int32, r.M)
			r.Draw(b, want)
			if !slices.Equal(idx, want) {
				t.Errorf("n=%d m=%d resample %d: counting draw differs from Draw", tc.n, r.M, b)
				return
			}
			c := make([]int32, tc.n)
			for _, u := range idx {
				c[u]++
			}
			if !slices.Equal(c, counts) {
				t.Errorf("n=%d m=%d resample %d: wrong multiplicities", tc.n, r.M, b)
			}
		})
	}
}

func TestSumsExact(t *testing.T) {
	big := float64(1 << 40)
	cases := []struct {
		name string
		v    []float64
		m    int
		want bool
	}{
		{"counts", []float64{0, 3, 7, 1e6}, 5000, true},
		{"fraction", []float64{0, 0.5}, 10, false},
		{"negative whole", []float64{-3, 4}, 10, true},
		{"sum past 2^53", []float64{big, 1}, 1 << 13, false},
		{"sum just under 2^53", []float64{big, 1}, 1<<13 - 1, true},
		{"empty", nil, 10, true},
	}
	for _, tc := range cases {
		if got := SumsExact(tc.v, tc.m); got != tc.want {
			t.Errorf("%s: SumsExact %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSumAtMatchesSequential checks SumAt against the sum in index order
// on whole-number series, including ones near the 2^53 bound.
func TestSumAtMatchesSequential(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, top := range []float64{1, 3, 1e6, float64(1<<53) / 5000} {
		for _, n := range []int{1, 2, 5, 999, 5000} {
			v := make([]float64, n)
			for i := range v {
				v[i] = math.Floor(rng.Float64() * top)
				if rng.IntN(4) == 0 {
					v[i] = -v[i]
				}
			}
			if !SumsExact(v, 5000) {
				t.Fatalf("top=%v n=%d: not exact", top, n)
			}
			r := NewResampling(n, 5, 0, 3)
			r.M = min(n*2, 5000)
			r.Run(func(b int, idx []int32, _ []float64) {
				want := 0.0
				for _, i := range idx {
					want += v[i]
				}
				if got := SumAt(v, idx); math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("top=%v n=%d resample %d: SumAt %v, sequential %v", top, n, b, got, want)
				}
			})
		}
	}
}
