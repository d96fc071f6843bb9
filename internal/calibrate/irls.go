package calibrate

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Loss names a regression loss.
type Loss string

// Losses Fit supports.
const (
	// Huber: squared loss for residuals within HuberK robust standard
	// deviations, linear beyond (M-estimation; 95% efficient on normal
	// errors, bounded influence of outliers).
	Huber Loss = "huber"
	// LAD: least absolute deviations (median regression).
	LAD Loss = "lad"
	// OLS: ordinary least squares, for comparison.
	OLS Loss = "ols"
)

// HuberK is the Huber tuning constant, in robust standard deviations.
const HuberK = 1.345

// Regression holds a fitted linear model y ≈ X·Beta.
type Regression struct {
	Beta []float64
	// Scale is the robust residual scale: MAD / 0.6745.
	Scale      float64
	Iterations int
	Converged  bool
	// Weights are the final IRLS weights (1 = full influence).
	Weights []float64
	// AtBound[j] reports that coefficient j sits at its lower bound
	// (FitBounded): the data would push it lower.
	AtBound []bool
}

// maxIter and tol bound the IRLS loop.
const (
	maxIter = 100
	tol     = 1e-8
)

// Fit fits y ≈ X·beta with the given loss by iteratively reweighted least
// squares, starting from ordinary least squares. Every row of X must have
// the same length, at least one column and no more columns than rows.
// Columns are rescaled internally for conditioning. An error says which
// column is collinear with the others.
func Fit(x [][]float64, y []float64, loss Loss) (*Regression, error) {
	return FitWeighted(x, y, nil, loss)
}

// FitWeighted is Fit with prior weights per row (nil = all 1), e.g. to
// give every session the same total weight whatever its request count.
// The robust scale is the weighted median absolute residual.
func FitWeighted(x [][]float64, y, prior []float64, loss Loss) (*Regression, error) {
	return FitBounded(x, y, prior, nil, loss)
}

// FitBounded is FitWeighted with a lower bound per coefficient (nil: no
// bounds; -Inf: no bound on that coefficient). Each reweighted step solves
// the bounded weighted least-squares problem exactly (boundedLS), so the
// robust fit never leaves the feasible region: a latency fit cannot return
// a negative overhead or a negative time per token.
func FitBounded(x [][]float64, y, prior, lower []float64, loss Loss) (*Regression, error) {
	pr, err := newProblem(x, y, prior, lower)
	if err != nil {
		return nil, err
	}
	reg := &Regression{}
	beta, w, err := pr.iterate(y, loss, reg, func(res []float64) float64 { return weightedMADScale(res, pr.pw) })
	if err != nil {
		return nil, err
	}
	res := make([]float64, len(x))
	residuals(pr.xs, y, beta, res)
	reg.Scale = weightedMADScale(res, pr.pw)
	pr.finish(reg, beta, w, loss)
	return reg, nil
}

// iterate is the reweighted least-squares loop of FitBounded and
// fitFixedScale: from the prior-weighted fit, each step takes the robust
// scale of the residuals (scaleAt: re-estimated, or held), sets the
// robustness weights w and solves again with w × the prior weights, until
// the coefficients converge or maxIter steps (least squares, or a scale
// of 0, stop at the first). It records the scale, the steps and whether
// they converged in reg, and returns the coefficients (rescaled
// coordinates) and w.
func (pr *problem) iterate(y []float64, loss Loss, reg *Regression, scaleAt func(res []float64) float64) (beta, w []float64, err error) {
	n := len(pr.xs)
	w = make([]float64, n)   // robustness weights
	tw := make([]float64, n) // prior × robustness
	for i := range w {
		w[i] = 1
	}
	if beta, err = pr.solve(y, pr.pw); err != nil {
		return nil, nil, err
	}
	res := make([]float64, n)
	for it := 1; it <= maxIter; it++ {
		residuals(pr.xs, y, beta, res)
		s := scaleAt(res)
		reg.Scale, reg.Iterations = s, it
		if loss == OLS || s == 0 {
			reg.Converged = true
			break
		}
		robustWeights(res, s, loss, w)
		for i := range tw {
			tw[i] = w[i] * pr.pw[i]
		}
		next, err := pr.solve(y, tw)
		if err != nil {
			return nil, nil, err
		}
		done := converged(beta, next)
		beta = next
		if done {
			reg.Converged = true
			break
		}
	}
	return beta, w, nil
}

// problem is a regression prepared for solving: columns rescaled to a
// maximum magnitude of 1 for conditioning, bounds and prior weights in the
// rescaled coordinates.
type problem struct {
	xs    [][]float64
	scale []float64
	lower []float64 // as given (nil: unbounded)
	lo    []float64 // in rescaled coordinates
	pw    []float64
}

func newProblem(x [][]float64, y, prior, lower []float64) (*problem, error) {
	n := len(x)
	if prior != nil && len(prior) != n {
		return nil, fmt.Errorf("regression: %d prior weights for %d rows", len(prior), n)
	}
	if n == 0 || n != len(y) {
		return nil, fmt.Errorf("regression: %d rows of X for %d values", n, len(y))
	}
	p := len(x[0])
	if p == 0 || p > n {
		return nil, fmt.Errorf("regression: %d columns for %d rows", p, n)
	}
	if lower != nil && len(lower) != p {
		return nil, fmt.Errorf("regression: %d lower bounds for %d columns", len(lower), p)
	}
	pr := &problem{scale: make([]float64, p), lower: lower, pw: make([]float64, n)}
	for _, row := range x {
		if len(row) != p {
			return nil, errors.New("regression: ragged X")
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("regression: column %d has a non-finite value", j)
			}
			pr.scale[j] = max(pr.scale[j], math.Abs(v))
		}
	}
	for j := range pr.scale {
		if pr.scale[j] == 0 {
			return nil, fmt.Errorf("regression: column %d is all zeros", j)
		}
	}
	pr.xs = make([][]float64, n)
	for i, row := range x {
		pr.xs[i] = make([]float64, p)
		for j, v := range row {
			pr.xs[i][j] = v / pr.scale[j]
		}
	}
	if lower != nil {
		pr.lo = make([]float64, p)
		for j, b := range lower {
			if math.IsNaN(b) || math.IsInf(b, 1) {
				return nil, fmt.Errorf("regression: lower bound %d is %v", j, b)
			}
			pr.lo[j] = b * pr.scale[j]
		}
	}
	for i := range pr.pw {
		pr.pw[i] = 1
		if prior != nil {
			if !(prior[i] >= 0) || math.IsInf(prior[i], 0) {
				return nil, fmt.Errorf("regression: prior weight %d is %v", i, prior[i])
			}
			pr.pw[i] = prior[i]
		}
	}
	return pr, nil
}

// solve is the (bounded) weighted least-squares step in rescaled coordinates.
func (pr *problem) solve(y, w []float64) ([]float64, error) {
	if pr.lo == nil {
		return weightedLS(pr.xs, y, w)
	}
	return boundedLS(pr.xs, y, w, pr.lo)
}

// finish stores beta in the original coordinates, marking coefficients at
// their bound, and the robustness weights.
func (pr *problem) finish(reg *Regression, beta, w []float64, loss Loss) {
	reg.AtBound = make([]bool, len(beta))
	for j := range beta {
		at := pr.lo != nil && beta[j] <= pr.lo[j]
		beta[j] /= pr.scale[j]
		if at {
			beta[j] = pr.lower[j] // exactly the bound
			reg.AtBound[j] = true
		}
	}
	reg.Beta = beta
	reg.Weights = w
	if loss == OLS {
		for i := range reg.Weights {
			reg.Weights[i] = 1
		}
	}
}

// robustWeights sets the IRLS weights of residuals res at scale s.
func robustWeights(res []float64, s float64, loss Loss, w []float64) {
	for i, r := range res {
		a := math.Abs(r)
		switch loss {
		case OLS:
			w[i] = 1
		case LAD:
			w[i] = 1 / max(a, 1e-6*s)
		default:
			if a <= HuberK*s {
				w[i] = 1
			} else {
				w[i] = HuberK * s / a
			}
		}
	}
}

// converged reports whether an IRLS step moved beta by at most tol.
func converged(beta, next []float64) bool {
	delta, size := 0.0, 0.0
	for j := range beta {
		delta = max(delta, math.Abs(next[j]-beta[j]))
		size = max(size, math.Abs(beta[j]))
	}
	return delta <= tol*max(size, 1)
}

// Predict returns x·beta.
func (r *Regression) Predict(x []float64) float64 {
	var s float64
	for j, v := range x {
		s += v * r.Beta[j]
	}
	return s
}

func residuals(x [][]float64, y, beta, out []float64) {
	for i, row := range x {
		var s float64
		for j, v := range row {
			s += v * beta[j]
		}
		out[i] = y[i] - s
	}
}

// madScale is the median absolute deviation from zero of the residuals,
// divided by 0.6745 (a consistent estimate of σ for normal errors).
func madScale(res []float64) float64 {
	a := make([]float64, len(res))
	for i, r := range res {
		a[i] = math.Abs(r)
	}
	sort.Float64s(a)
	return quantileSorted(a, 0.5) / 0.6745
}

// weightedMADScale is madScale with the median taken under weights w.
func weightedMADScale(res, w []float64) float64 {
	type pair struct{ a, w float64 }
	ps := make([]pair, len(res))
	var total float64
	for i, r := range res {
		ps[i] = pair{math.Abs(r), w[i]}
		total += w[i]
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].a < ps[j].a })
	var cum float64
	for _, p := range ps {
		cum += p.w
		if cum >= total/2 {
			return p.a / 0.6745
		}
	}
	return 0
}

// weightedLS solves (XᵀWX) β = XᵀWy by Gaussian elimination with partial
// pivoting.
func weightedLS(x [][]float64, y, w []float64) ([]float64, error) {
	p := len(x[0])
	a := make([][]float64, p)
	for j := range a {
		a[j] = make([]float64, p+1)
	}
	for i, row := range x {
		wi := w[i]
		for j := 0; j < p; j++ {
			for k := j; k < p; k++ {
				a[j][k] += wi * row[j] * row[k]
			}
			a[j][p] += wi * row[j] * y[i]
		}
	}
	for j := 0; j < p; j++ {
		for k := 0; k < j; k++ {
			a[j][k] = a[k][j]
		}
	}
	diag := make([]float64, p)
	for j := range diag {
		diag[j] = a[j][j]
	}
	perm := make([]int, p)
	for j := range perm {
		perm[j] = j
	}
	for c := 0; c < p; c++ {
		piv := c
		for r := c + 1; r < p; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		a[c], a[piv] = a[piv], a[c]
		perm[c], perm[piv] = perm[piv], perm[c]
		if math.Abs(a[c][c]) <= 1e-10*max(diag[c], 1e-300) {
			return nil, &CollinearError{Column: c}
		}
		for r := c + 1; r < p; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k <= p; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	beta := make([]float64, p)
	for c := p - 1; c >= 0; c-- {
		s := a[c][p]
		for k := c + 1; k < p; k++ {
			s -= a[c][k] * beta[k]
		}
		beta[c] = s / a[c][c]
	}
	return beta, nil
}

// CollinearError says a column is (nearly) a combination of the others.
type CollinearError struct{ Column int }

func (e *CollinearError) Error() string {
	return fmt.Sprintf("regression: column %d is collinear with the others", e.Column)
}

// quantileSorted is the type-7 quantile of sorted xs (NaN when empty).
func quantileSorted(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(xs)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(xs)-1)
	return xs[lo] + (xs[hi]-xs[lo])*(pos-float64(lo))
}

// fitFixedScale is Fit with the robust scale held at s instead of
// re-estimated at each step (least squares when s is 0, as Fit): the fit
// minimises the loss of the residuals divided by s, so fits at one s are
// compared by that objective (the token_scale profile).
func fitFixedScale(x [][]float64, y []float64, s float64, loss Loss) (*Regression, error) {
	pr, err := newProblem(x, y, nil, nil)
	if err != nil {
		return nil, err
	}
	reg := &Regression{Scale: s}
	beta, w, err := pr.iterate(y, loss, reg, func([]float64) float64 { return s })
	if err != nil {
		return nil, err
	}
	pr.finish(reg, beta, w, loss)
	return reg, nil
}
