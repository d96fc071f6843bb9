package calibrate

import (
	"fmt"
	"math"
	"sort"
)

// The token_scale profile under --loss (docs/calibrate.md, "Token scale").
// At each grid scale the overheads are fitted under the calibration's loss
// and the profile compares the loss's objective across scales:
//
//   - ols: the sum of squared residuals; the 95% interval is every scale
//     whose sum is at most SSE_min·(1 + t²/df) (the F bound);
//   - huber: Σ ρ(r/σ), ρ Huber's with HuberK and σ one robust scale held
//     for every grid scale (the weighted MAD / 0.6745 of the robust fit at
//     the minimum, found again until the minimum repeats); the interval is
//     every scale whose objective is at most the least + t²/(2λ), λ =
//     mean ψ′ / mean ψ² at the minimum (the drop-in-dispersion test of
//     Schrader and Hettmansperger, the likelihood-ratio test of an
//     M-estimate: with squared loss it is the F bound);
//   - lad: Σ |r|; the interval is every scale whose sum is at most the
//     least + t²·s/4, s the sparsity 1/f(0) of the residuals at the
//     minimum (Koenker and Bassett's likelihood-ratio test of median
//     regression; s by Siddiqui's difference quotient over the residual
//     quantiles 0.5 ± h, h Hall and Sheather's bandwidth).
const (
	// ScaleProfileScalePasses is the most profiles run under huber, each
	// with the robust scale σ of the previous one's minimum, until the
	// minimum or σ repeats (usually on the second); when neither has
	// after it, the pass with the greatest σ is kept (cappedProfile) and
	// calibrate's note says so.
	ScaleProfileScalePasses = 4
	// ScaleProfileSigmaTolerance is the relative change of σ below which
	// it counts as repeated: the minima of objectives equal but for
	// rounding (a scale that moves every request by the same tokens,
	// which the constant absorbs) gave σs 1e-12 apart, and the profile
	// went back and forth between them to the pass limit.
	ScaleProfileSigmaTolerance = 1e-9
	// ScaleProfileMinSigma is the least robust scale, in tokens, the
	// profile divides residuals by: below it the fit is exact to the
	// whole token counts are recorded in, and the profile is least
	// squares (as Fit is with a scale of 0).
	ScaleProfileMinSigma = 0.5
)

// overheadObjective fits rec − sim ≈ constant + the overhead columns under
// loss (the constant at 0 when it would be negative) with the robust
// scale sigma held fixed, and returns the loss's objective (see above),
// the residuals and the number of coefficients fitted.
func overheadObjective(rec, sim, msg, tool []float64, fitMsg, fitTool bool, loss Loss, sigma float64) (float64, []float64, int, error) {
	x, y := overheadDesign(rec, sim, msg, tool, fitMsg, fitTool)
	reg, err := fitFixedScale(x, y, sigma, loss)
	if err == nil && reg.Beta[0] < 0 {
		// A negative per-request constant is not an overhead.
		for i := range x {
			x[i] = x[i][1:]
		}
		if len(x[0]) == 0 {
			return lossObjective(y, loss, sigma), y, 0, nil
		}
		reg, err = fitFixedScale(x, y, sigma, loss)
	}
	if err != nil {
		return 0, nil, 0, fmt.Errorf("token_scale profile: %w", err)
	}
	res := make([]float64, len(y))
	for i := range x {
		res[i] = y[i] - reg.Predict(x[i])
	}
	return lossObjective(res, loss, sigma), res, len(reg.Beta), nil
}

// overheadDesign is the profile's regression at one grid scale: rows of
// the constant and the fitted overhead columns, and rec − sim.
func overheadDesign(rec, sim, msg, tool []float64, fitMsg, fitTool bool) ([][]float64, []float64) {
	x := make([][]float64, len(rec))
	y := make([]float64, len(rec))
	for i := range rec {
		x[i] = overheadRow(msg, tool, fitMsg, fitTool, i)
		y[i] = rec[i] - sim[i]
	}
	return x, y
}

// overheadRow is row i of the design: the constant, then the message and
// tool counts where fitted.
func overheadRow(msg, tool []float64, fitMsg, fitTool bool, i int) []float64 {
	row := []float64{1}
	if fitMsg {
		row = append(row, msg[i])
	}
	if fitTool {
		row = append(row, tool[i])
	}
	return row
}

// lossObjective is the profile's objective over residuals res.
func lossObjective(res []float64, loss Loss, sigma float64) float64 {
	var s float64
	for _, r := range res {
		switch loss {
		case OLS:
			s += r * r
		case LAD:
			s += math.Abs(r)
		default:
			u := math.Abs(r / sigma)
			if u <= HuberK {
				s += u * u / 2
			} else {
				s += HuberK*u - HuberK*HuberK/2
			}
		}
	}
	return s
}

// objectiveBound is the greatest objective inside the 95% interval, best
// being the least, res its residuals and df the residual degrees of
// freedom (see the comment at the top of this file).
func objectiveBound(best float64, res []float64, loss Loss, sigma, df float64) float64 {
	t := studentT975(df)
	switch loss {
	case OLS:
		return best * (1 + t*t/df)
	case LAD:
		return best + t*t*sparsity(res)/4
	}
	// λ = mean ψ′ / mean ψ², ψ Huber's: u within ±HuberK, else ±HuberK.
	var inside, psi2 float64
	for _, r := range res {
		u := r / sigma
		if math.Abs(u) <= HuberK {
			inside++
			psi2 += u * u
		} else {
			psi2 += HuberK * HuberK
		}
	}
	if psi2 == 0 {
		// Every residual 0: only the minimum fits exactly.
		return best
	}
	return best + t*t*psi2/(2*inside)
}

// robustScaleAt is the robust residual scale (weighted MAD / 0.6745) of the
// overhead fit under loss, its scale re-estimated (Fit), at one grid
// scale: the σ the huber profile holds. It is 0 when the fit is exact.
func robustScaleAt(rec, sim, msg, tool []float64, fitMsg, fitTool bool, loss Loss) (float64, error) {
	x, y := overheadDesign(rec, sim, msg, tool, fitMsg, fitTool)
	reg, err := Fit(x, y, loss)
	if err == nil && reg.Beta[0] < 0 {
		for i := range x {
			x[i] = x[i][1:]
		}
		if len(x[0]) == 0 {
			return madScale(y), nil
		}
		reg, err = Fit(x, y, loss)
	}
	if err != nil {
		return 0, fmt.Errorf("token_scale profile: %w", err)
	}
	return reg.Scale, nil
}

// sparsity is 1/f(0), f the residuals' density at their median: the
// difference of their quantiles 0.5 ± h over 2h, h = Hall and Sheather's
// bandwidth for the median at 95%, n^(−1/3)·z^(2/3)·(1.5·φ(0)²)^(1/3)
// (z = 1.96, φ the normal density; at most 0.49).
func sparsity(res []float64) float64 {
	const z, phi0 = 1.959963984540054, 0.3989422804014327
	a := append([]float64(nil), res...)
	sort.Float64s(a)
	h := min(0.49, math.Pow(float64(len(a)), -1.0/3)*math.Pow(z, 2.0/3)*math.Cbrt(1.5*phi0*phi0))
	return (quantileSorted(a, 0.5+h) - quantileSorted(a, 0.5-h)) / (2 * h)
}
