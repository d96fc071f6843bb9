package calibrate

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// line draws y = 200 + 3·x1 + 0.5·x2 + noise with a share of gross outliers.
func line(n int, outliers float64, seed uint64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x1, x2 := r.Float64()*1000, r.Float64()*5000
		x[i] = []float64{1, x1, x2}
		y[i] = 200 + 3*x1 + 0.5*x2 + r.NormFloat64()*20
		if r.Float64() < outliers {
			y[i] += 5000 + r.Float64()*20000
		}
	}
	return x, y
}

func TestFitRecoversCoefficients(t *testing.T) {
	want := []float64{200, 3, 0.5}
	tests := []struct {
		loss     Loss
		outliers float64
		tol      []float64 // absolute tolerance per coefficient
	}{
		{OLS, 0, []float64{10, 0.02, 0.005}},
		{Huber, 0, []float64{10, 0.02, 0.005}},
		{LAD, 0, []float64{15, 0.03, 0.006}},
		{Huber, 0.1, []float64{25, 0.05, 0.01}},
		{LAD, 0.1, []float64{25, 0.05, 0.01}},
	}
	for _, tc := range tests {
		x, y := line(400, tc.outliers, 7)
		reg, err := Fit(x, y, tc.loss)
		if err != nil {
			t.Fatalf("%s: %v", tc.loss, err)
		}
		for j := range want {
			if math.Abs(reg.Beta[j]-want[j]) > tc.tol[j] {
				t.Errorf("%s, %.0f%% outliers: beta[%d] = %.4f, want %.4f ± %g", tc.loss, tc.outliers*100, j, reg.Beta[j], want[j], tc.tol[j])
			}
		}
	}
	// Outliers pull least squares far off: the robust fits exist for this.
	x, y := line(400, 0.1, 7)
	ols, _ := Fit(x, y, OLS)
	if math.Abs(ols.Beta[0]-200) < 200 {
		t.Errorf("OLS intercept %.0f with 10%% outliers: expected it to be pulled away from 200", ols.Beta[0])
	}
}

func TestFitWeighted(t *testing.T) {
	// Two groups disagree; prior weights decide which one the fit follows.
	x := [][]float64{{1}, {1}, {1}, {1}}
	y := []float64{10, 10, 10, 100}
	reg, err := FitWeighted(x, y, []float64{1, 1, 1, 30}, OLS)
	if err != nil {
		t.Fatal(err)
	}
	if want := (30.0 + 3000) / 33; math.Abs(reg.Beta[0]-want) > 1e-9 {
		t.Errorf("weighted mean %v, want %v", reg.Beta[0], want)
	}
}

func TestFitErrors(t *testing.T) {
	var col *CollinearError
	tests := []struct {
		name      string
		x         [][]float64
		y         []float64
		collinear bool
	}{
		{"no rows", nil, nil, false},
		{"more columns than rows", [][]float64{{1, 2}}, []float64{1}, false},
		{"zero column", [][]float64{{1, 0}, {1, 0}, {1, 0}}, []float64{1, 2, 3}, false},
		{"ragged", [][]float64{{1, 2}, {1}}, []float64{1, 2}, false},
		{"collinear", [][]float64{{1, 2}, {1, 2}, {1, 2}}, []float64{1, 2, 3}, true},
		{"not finite", [][]float64{{1, math.NaN()}, {1, 2}, {1, 3}}, []float64{1, 2, 3}, false},
	}
	for _, tc := range tests {
		_, err := Fit(tc.x, tc.y, Huber)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if errors.As(err, &col) != tc.collinear {
			t.Errorf("%s: %v (collinear=%v)", tc.name, err, tc.collinear)
		}
	}
}

func TestInFitSet(t *testing.T) {
	n := 0
	for i := range 5000 {
		id := string(rune('a'+i%26)) + string(rune('A'+i/26%26)) + string(rune('0'+i/676))
		if InFitSet(9, id, 0.7) {
			n++
		}
	}
	if n < 3350 || n > 3650 {
		t.Errorf("%d of 5000 in the fit set at share 0.7", n)
	}
}

// TestFitBounded pins the bounded fit: a slope the data would make negative
// sits at its bound and the rest is the best fit given it; bounds that do
// not bind change nothing; the answer is no worse than any feasible point.
func TestFitBounded(t *testing.T) {
	x := make([][]float64, 50)
	y := make([]float64, 50)
	for i := range x {
		v := float64(i)
		x[i] = []float64{1, v}
		y[i] = 100 - 0.5*v + float64(i%5) // falling: the slope wants to be negative
	}
	reg, err := FitBounded(x, y, nil, []float64{0, 0}, OLS)
	if err != nil {
		t.Fatal(err)
	}
	var mean float64
	for _, v := range y {
		mean += v / float64(len(y))
	}
	if reg.Beta[1] != 0 || !reg.AtBound[1] || reg.AtBound[0] || math.Abs(reg.Beta[0]-mean) > 1e-9 {
		t.Errorf("beta %v at bound %v, want [%v 0]", reg.Beta, reg.AtBound, mean)
	}
	// Bounds that do not bind: the unbounded answer.
	xs, ys := line(200, 0, 3)
	free, _ := Fit(xs, ys, Huber)
	bnd, err := FitBounded(xs, ys, nil, []float64{0, 0, 0}, Huber)
	if err != nil {
		t.Fatal(err)
	}
	for j := range free.Beta {
		if math.Abs(free.Beta[j]-bnd.Beta[j]) > 1e-6*math.Max(1, math.Abs(free.Beta[j])) || bnd.AtBound[j] {
			t.Errorf("beta[%d] %v bounded, %v free", j, bnd.Beta[j], free.Beta[j])
		}
	}
	// Against a grid of feasible points with a binding bound on x2.
	for i := range ys {
		ys[i] -= 0.9 * xs[i][2] // true x2 coefficient now -0.4
	}
	b, err := FitBounded(xs, ys, nil, []float64{math.Inf(-1), 0, 0.01}, OLS)
	if err != nil {
		t.Fatal(err)
	}
	if b.Beta[2] != 0.01 || !b.AtBound[2] {
		t.Errorf("x2 coefficient %v, want the bound 0.01", b.Beta[2])
	}
	sse := func(beta []float64) float64 {
		var s float64
		for i, row := range xs {
			r := ys[i]
			for j, v := range row {
				r -= v * beta[j]
			}
			s += r * r
		}
		return s
	}
	best := sse(b.Beta)
	for _, d0 := range []float64{-5, 0, 5} {
		for _, d1 := range []float64{-0.01, 0, 0.01} {
			for _, d2 := range []float64{0, 0.001, 0.01} {
				p := []float64{b.Beta[0] + d0, b.Beta[1] + d1, b.Beta[2] + d2}
				if s := sse(p); s < best-1e-6*best {
					t.Errorf("feasible %v has SSE %v below the fit's %v", p, s, best)
				}
			}
		}
	}
}

// TestFitLog: multiplicative noise and outliers; the log-scale fit finds
// the median line, and keeps its bounds.
func TestFitLog(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2))
	n := 400
	x := make([][]float64, n)
	y := make([]float64, n)
	off := make([]float64, n)
	for i := range x {
		a, b := r.Float64()*5000, r.Float64()*300
		x[i] = []float64{1, a, b}
		off[i] = 50
		y[i] = (50 + 800 + 0.2*a + 20*b) * math.Exp(r.NormFloat64()*0.3)
		if r.Float64() < 0.05 {
			y[i] *= 5 // a slow request
		}
	}
	want := []float64{800, 0.2, 20}
	for _, loss := range []Loss{Huber, LAD} {
		reg, err := FitLog(x, y, off, nil, []float64{0, 0.001, 0.001}, loss)
		if err != nil {
			t.Fatal(err)
		}
		for j, w := range want {
			if math.Abs(reg.Beta[j]-w)/w > 0.1 {
				t.Errorf("%s: beta[%d] = %.4f, want %.4f ± 10%%", loss, j, reg.Beta[j], w)
			}
		}
	}
	// A decreasing relation: the slope stays at its bound.
	for i := range y {
		y[i] = 5000 - 0.5*x[i][1]*math.Exp(r.NormFloat64()*0.1)
	}
	reg, err := FitLog(x, y, nil, nil, []float64{0, 0.001, 0.001}, Huber)
	if err != nil {
		t.Fatal(err)
	}
	if reg.Beta[1] != 0.001 || !reg.AtBound[1] {
		t.Errorf("beta %v at bound %v", reg.Beta, reg.AtBound)
	}
	if _, err := FitLog(x, append(y[:n-1:n-1], -1), nil, nil, nil, Huber); err == nil {
		t.Error("a negative value accepted on a log scale")
	}
}
