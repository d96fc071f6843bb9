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
