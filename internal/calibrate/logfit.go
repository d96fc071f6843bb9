package calibrate

import (
	"fmt"
	"math"
)

// FitLog fits y ≈ X·beta with the residuals measured on a log scale,
// log(y) − log(X·beta): multiplicative errors, so a prediction twice too
// long and one half too long weigh the same, as the engine's lognormal
// jitter assumes. It is a Gauss–Newton iteration whose every step is a
// bounded weighted least-squares solve (the linearised log residual
// (t − X·beta) / p with p the current prediction and t = p·(1 + log(y/p))),
// reweighted by the loss on the log residuals (robust scale: their weighted
// MAD), with step halving whenever the weighted loss would grow. Every y
// must be positive; lower bounds keep predictions positive (a latency fit
// bounds the overhead at 0 and each time per token above 0). It starts
// from FitBounded on the raw scale. Offset (nil: none) is a known part of
// each prediction: the fit is y ≈ offset + X·beta.
func FitLog(x [][]float64, y, offset, prior, lower []float64, loss Loss) (*Regression, error) {
	if offset == nil {
		offset = make([]float64, len(y))
	}
	if len(offset) != len(y) {
		return nil, fmt.Errorf("regression: %d offsets for %d values", len(offset), len(y))
	}
	raw := make([]float64, len(y))
	for i, v := range y {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("regression: value %d is %v: a log-scale fit needs positive values", i, v)
		}
		raw[i] = v - offset[i]
	}
	start, err := FitBounded(x, raw, prior, lower, loss)
	if err != nil {
		return nil, err
	}
	pr, err := newProblem(x, y, prior, lower)
	if err != nil {
		return nil, err
	}
	n, p := len(x), len(x[0])
	beta := make([]float64, p)
	for j := range beta {
		beta[j] = start.Beta[j] * pr.scale[j]
	}
	pred := make([]float64, n)
	res := make([]float64, n)
	w := make([]float64, n)
	tw := make([]float64, n)
	t := make([]float64, n)
	// logRes fills res with the log residuals of b; false when a
	// prediction is not positive.
	logRes := func(b []float64) bool {
		for i, row := range pr.xs {
			s := offset[i]
			for j, v := range row {
				s += v * b[j]
			}
			if !(s > 0) {
				return false
			}
			pred[i] = s
			res[i] = math.Log(y[i]) - math.Log(s)
		}
		return true
	}
	objective := func() float64 {
		var o float64
		for i, r := range res {
			o += pr.pw[i] * w[i] * r * r
		}
		return o
	}
	if !logRes(beta) {
		// The raw-scale start predicts zero somewhere: start from the
		// bounded fit of a constant instead.
		for j := range beta {
			beta[j] = math.Max(0, pr.loOr(j))
		}
		beta[0] = math.Max(beta[0], 1e-9)
		if !logRes(beta) {
			return nil, fmt.Errorf("regression: no positive starting prediction for a log-scale fit")
		}
	}
	reg := &Regression{}
	for i := range w {
		w[i] = 1
	}
	for it := 1; it <= maxIter; it++ {
		s := weightedMADScale(res, pr.pw)
		reg.Scale, reg.Iterations = s, it
		if s > 0 {
			robustWeights(res, s, loss, w)
		}
		for i := range t {
			t[i] = pred[i]*(1+res[i]) - offset[i]
			tw[i] = pr.pw[i] * w[i] / (pred[i] * pred[i])
		}
		next, err := pr.solve(t, tw)
		if err != nil {
			return nil, err
		}
		before := objective()
		old := append([]float64(nil), beta...)
		step := 1.0
		accepted := false
		for range 30 {
			cand := make([]float64, p)
			for j := range cand {
				cand[j] = old[j] + step*(next[j]-old[j])
			}
			if logRes(cand) && objective() <= before*(1+1e-12) {
				beta, accepted = cand, true
				break
			}
			step /= 2
		}
		if !accepted {
			logRes(old)
			beta = old
			reg.Converged = true
			break
		}
		if converged(old, beta) {
			reg.Converged = true
			break
		}
	}
	logRes(beta)
	reg.Scale = weightedMADScale(res, pr.pw)
	pr.finish(reg, beta, w, loss)
	return reg, nil
}

// loOr is the rescaled lower bound of column j, or 0 when unbounded.
func (pr *problem) loOr(j int) float64 {
	if pr.lo == nil || math.IsInf(pr.lo[j], -1) {
		return 0
	}
	return pr.lo[j]
}
