package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	mstats "github.com/montanaflynn/stats"
)

func TestQuantileHandComputed(t *testing.T) {
	sorted := []float64{1, 2, 3, 4, 10}
	tests := []struct {
		q    float64
		want float64
	}{
		{0, 1},
		{0.25, 2},   // h = 1
		{0.5, 3},    // h = 2
		{0.9, 7.6},  // h = 3.6: 4 + 0.6·6
		{0.95, 8.8}, // h = 3.8: 4 + 0.8·6
		{1, 10},
		{-1, 1},
		{2, 10},
	}
	for _, tc := range tests {
		if got := Quantile(sorted, tc.q); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Quantile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("Quantile of empty input is not NaN")
	}
	if got := Quantile([]float64{7}, 0.99); got != 7 {
		t.Errorf("single value: got %v", got)
	}
}

// TestQuantileMatchesMontanaflynn pins that the definition used here is the
// one montanaflynn/stats.Percentile documents (type 7).
func TestQuantileMatchesMontanaflynn(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 60; n += 7 {
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Floor(rng.ExpFloat64() * 100)
		}
		sorted := slices.Clone(x)
		slices.Sort(sorted)
		for _, p := range []float64{1, 10, 25, 50, 90, 95, 99, 100} {
			want, err := mstats.Percentile(x, p)
			if err != nil {
				t.Fatal(err)
			}
			if got := Quantile(sorted, p/100); math.Abs(got-want) > 1e-9 {
				t.Errorf("n=%d p=%v: Quantile %v, mstats.Percentile %v", n, p, got, want)
			}
		}
	}
}

func TestSelectQuantilesMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	qs := []float64{0, 0.5, 0.5, 0.95, 1}
	gens := map[string]func() float64{
		"continuous": func() float64 { return rng.NormFloat64() },
		"ties":       func() float64 { return float64(rng.IntN(3)) },
		"zeros":      func() float64 { return 0 },
	}
	for name, gen := range gens {
		for _, n := range []int{1, 2, 3, 17, 100, 1001} {
			x := make([]float64, n)
			for i := range x {
				x[i] = gen()
			}
			sorted := slices.Clone(x)
			slices.Sort(sorted)
			got := make([]float64, len(qs))
			SelectQuantiles(x, qs, got)
			for i, q := range qs {
				if want := Quantile(sorted, q); got[i] != want {
					t.Errorf("%s n=%d q=%v: select %v, sort %v", name, n, q, got[i], want)
				}
			}
		}
	}
}

func TestGrid(t *testing.T) {
	g := Grid([]float64{0, 100}, 101)
	if len(g) != 101 || g[0] != 0 || g[100] != 100 || g[37] != 37 {
		t.Fatalf("grid over [0,100]: %v", g)
	}
	if Grid(nil, 101) != nil {
		t.Error("grid of empty input is not nil")
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{4, 1, 3, 2}, 5)
	want := Summary{Count: 4, Mean: 2.5, Sum: 10, Min: 1, Max: 4, P50: 2.5, P90: 3.7, P95: 3.85, P99: 3.97,
		StdDev: math.Sqrt(5.0 / 3), Grid: []float64{1, 1.75, 2.5, 3.25, 4}}
	if s.Count != want.Count || s.Sum != want.Sum || s.Min != want.Min || s.Max != want.Max || s.Constant {
		t.Fatalf("got %+v", s)
	}
	for _, c := range [][2]float64{{s.Mean, want.Mean}, {s.P50, want.P50}, {s.P90, want.P90}, {s.P95, want.P95}, {s.P99, want.P99}, {s.StdDev, want.StdDev}} {
		if math.Abs(c[0]-c[1]) > 1e-12 {
			t.Errorf("got %v, want %v (summary %+v)", c[0], c[1], s)
		}
	}
	for i := range want.Grid {
		if math.Abs(s.Grid[i]-want.Grid[i]) > 1e-12 {
			t.Errorf("grid[%d] = %v, want %v", i, s.Grid[i], want.Grid[i])
		}
	}
	if c := Summarize([]float64{3, 3, 3}, 3); !c.Constant || c.StdDev != 0 || c.Mean != 3 {
		t.Errorf("constant series: %+v", c)
	}
	if e := Summarize(nil, 101); e.Count != 0 || e.Grid != nil {
		t.Errorf("empty series: %+v", e)
	}
}
