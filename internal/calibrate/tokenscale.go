package calibrate

import (
	"fmt"
	"math"
	"strconv"
)

// The token_scale fit (docs/calibrate.md, "Token scale"). A model whose
// tokenizer is not published is counted with a stand-in (params.tokenizer)
// times params.token_scale; when its own tokenizer counts the same text
// X% differently, the gap grows with the prompt's content, and the
// additive overheads would absorb it. Calibrate fits it jointly with them:
// recorded − Sim0 ≈ request + message·m + tool·t + k·ScaleUnits, where
// ScaleUnits is the part of Sim0 the scale multiplies, and token_scale =
// s0·(1 + k) with s0 the scenario's.
const (
	// MinScaleRequests is the fewest fit requests with usage that
	// token_scale is fitted on; with fewer the scenario's is kept.
	MinScaleRequests = 20
	// ScaleMinUnexplained is the share of the scaled tokens' variance over
	// the fit requests that the overhead columns (the per-request
	// constant, and the message and tool counts where they are fitted)
	// must leave unexplained for the scale to be told apart from them
	// (1 − R² of the one regressed on the others; 0.01 is a variance
	// inflation factor of 100). Below it the scale is kept.
	ScaleMinUnexplained = 0.01
	// TokenScaleStep is what the fitted token_scale is rounded to.
	TokenScaleStep = 0.01
	// MaxScaleHalfWidth is half the widest 95% interval of the fitted
	// token_scale that is written (its bounds at most 2·MaxScaleHalfWidth
	// apart, on whichever sides of the estimate); a wider one keeps the
	// scenario's: the data do not tell the scale from the overheads.
	MaxScaleHalfWidth = 0.05
	// TokenScaleHalfWidthPlaces is the decimal places the bounds and the
	// half-width of the 95% interval are rounded to: the text prints
	// them, --json holds them and MaxScaleHalfWidth is compared with
	// them, the same values (whole grid steps of ScaleProfileStep).
	TokenScaleHalfWidthPlaces = 3
)

// scaleFit is fitTokenScale's result.
type scaleFit struct {
	// Scale is the fitted scale rounded to TokenScaleStep, or s0 when
	// Note says why it is kept.
	Scale float64
	// Lo, Hi bound its 95% interval (of the estimate before rounding);
	// Half is the interval's larger side, all rounded to
	// TokenScaleHalfWidthPlaces as the text prints them.
	Lo, Hi, Half float64
	// Symmetric: the interval reaches as far on each side of the estimate.
	Symmetric bool
	// Estimate is the profile's estimate before rounding.
	Estimate float64
	// Added is what the scale adds to each row's Sim0 (the replay at it).
	Added []float64
	Note  string
	// Capped: huber's σ had not settled after ScaleProfileScalePasses
	// profiles, and the one at the greatest σ, Sigma, is kept.
	Capped bool
	Sigma  float64
	// Replays counts the fit sessions' replays at grid scales the fit
	// took (one per scale: the profile's, every pass and σ look-up, and
	// the rounded scale's).
	Replays int
}

// fitTokenScale fits token_scale on the fit rows, y being recorded − Sim0
// and msg, tool the overhead columns (fitted where fitMsg, fitTool): the
// linear fit (estimateTokenScale) centres the profile over replays at
// grid scales under loss (profileTokenScale, replayed by replay), which
// decides the scale and its 95% interval. The scale is kept at s0, with a
// note saying why, when the data cannot tell it from the overheads: among
// others, when the interval is wider than 2·MaxScaleHalfWidth (its bounds
// as printed, whichever side of the estimate they fall). An error when a
// replay fails.
func fitTokenScale(rows []*Request, y, msg, tool []float64, fitMsg, fitTool bool, s0 float64, loss Loss, replay scaleReplay) (scaleFit, error) {
	sims := newScaleSims(rows, replay)
	f, err := fitTokenScaleOn(sims, rows, y, msg, tool, fitMsg, fitTool, s0, loss)
	f.Replays = sims.replayed
	return f, err
}

// fitTokenScaleOn is fitTokenScale replaying through sims.
func fitTokenScaleOn(sims *scaleSims, rows []*Request, y, msg, tool []float64, fitMsg, fitTool bool, s0 float64, loss Loss) (scaleFit, error) {
	kept := func(why string, args ...any) (scaleFit, error) {
		return scaleFit{Scale: s0, Note: fmt.Sprintf("token_scale kept (the scenario's %g): ", s0) + fmt.Sprintf(why, args...)}, nil
	}
	const unbounded = ", its 95%% interval's bounds more than %g apart, the widest written (2 × calibrate.MaxScaleHalfWidth): the recorded usage does not tell the scale from the overheads"
	lin, linHalf, note := estimateTokenScale(rows, y, msg, tool, fitMsg, fitTool, s0, loss)
	if note != "" {
		return kept("%s", note)
	}
	rec := make([]float64, len(rows))
	for i, r := range rows {
		rec[i] = float64(r.RecordedInput())
	}
	prof, note, err := profileTokenScale(sims, rec, msg, tool, fitMsg, fitTool, loss, lin, linHalf/1.96, 2*MaxScaleHalfWidth)
	if err != nil {
		return scaleFit{}, fmt.Errorf("token_scale: %w", err)
	}
	if note != "" {
		return kept("%s"+unbounded, note, 2*MaxScaleHalfWidth)
	}
	f := profiledScale(prof)
	if tooWide(prof) {
		return kept("fitted %s"+unbounded+"%s", f.interval(), 2*MaxScaleHalfWidth, f.cappedNote())
	}
	k := int(math.Round(prof.Est/TokenScaleStep)) * int(math.Round(TokenScaleStep/ScaleProfileStep))
	if k < 1 {
		return kept("fitted %.3f, not a positive factor: the replay counts more than was recorded whatever the scale", prof.Est)
	}
	at, err := sims.get(k, k)
	if err != nil {
		return scaleFit{}, fmt.Errorf("token_scale: %w", err)
	}
	f.Added = make([]float64, len(rows))
	for i, r := range rows {
		f.Added[i] = at[0][i] - float64(r.Sim0)
	}
	// Two decimals exactly as written (1.3, not 1.3000000000000003).
	f.Scale, _ = strconv.ParseFloat(strconv.FormatFloat(gridScale(k), 'f', 2, 64), 64)
	return f, nil
}

// profiledScale is the profile's estimate and interval, rounded to
// TokenScaleHalfWidthPlaces as printed.
func profiledScale(prof scaleProfile) scaleFit {
	places := TokenScaleHalfWidthPlaces
	return scaleFit{Lo: round(prof.Lo, places), Hi: round(prof.Hi, places), Half: round(prof.HalfWidth(), places),
		Symmetric: prof.Symmetric(), Estimate: round(prof.Est, places), Capped: prof.Capped, Sigma: prof.Sigma}
}

// cappedNote is what the note adds when huber's σ did not settle
// (cappedProfile), "" when it did.
func (f scaleFit) cappedNote() string {
	if !f.Capped {
		return ""
	}
	return fmt.Sprintf("; huber's σ had not settled after %d profiles (calibrate.ScaleProfileScalePasses), so the one at the greatest σ, %.3f tokens, is kept",
		ScaleProfileScalePasses, f.Sigma)
}

// tooWide reports whether the profile's interval is wider than
// 2·MaxScaleHalfWidth, compared in whole grid steps: the bounds as
// printed, whichever side of the estimate is longer.
func tooWide(prof scaleProfile) bool {
	return prof.kHi-prof.kLo > int(math.Round(2*MaxScaleHalfWidth/ScaleProfileStep))
}

// interval is the estimate before rounding and its 95% interval as the
// notes print them: "1.301 ± 0.006 (95%)" when symmetric, else
// "1.301 (95%: 1.296 to 1.305)".
func (f scaleFit) interval() string {
	if f.Symmetric {
		return fmt.Sprintf("%.3f ± %.3f (95%%)", f.Estimate, f.Half)
	}
	return fmt.Sprintf("%.3f (95%%: %.3f to %.3f)", f.Estimate, f.Lo, f.Hi)
}

// estimateTokenScale is fitTokenScale's estimate before rounding and the
// half-width of its 95% interval, or a note saying why there is none.
func estimateTokenScale(rows []*Request, y, msg, tool []float64, fitMsg, fitTool bool, s0 float64, loss Loss) (float64, float64, string) {
	return linearTokenScale(rows, y, msg, tool, fitMsg, fitTool, s0, loss, loss)
}

// linearTokenScale is estimateTokenScale with the interval's σ read as
// under intervalLoss (startSigma): the fit's own loss, or ols to compare.
func linearTokenScale(rows []*Request, y, msg, tool []float64, fitMsg, fitTool bool, s0 float64, loss, intervalLoss Loss) (float64, float64, string) {
	if len(rows) < MinScaleRequests {
		return 0, 0, fmt.Sprintf("%d fit requests with usage, fewer than the %d it is fitted on (calibrate.MinScaleRequests)", len(rows), MinScaleRequests)
	}
	su := make([]float64, len(rows))
	for i, r := range rows {
		if !r.HasScaleUnits {
			return 0, 0, "the replay at twice the scale did not give the recorded requests, so the tokens it scales are not measured"
		}
		su[i] = float64(r.ScaleUnits)
	}
	if variance(su) == 0 {
		return 0, 0, fmt.Sprintf("every fit request has the same %g scaled tokens, so a scale cannot be told from the per-request constant", su[0])
	}
	var cols [][]float64
	var names string
	if fitMsg {
		cols, names = append(cols, msg), " and their message count"
	}
	if fitTool {
		cols = append(cols, tool)
		names = " and their message and tool counts"
		if !fitMsg {
			names = " and their tool count"
		}
	}
	u := unexplained(su, cols)
	if u < ScaleMinUnexplained {
		return 0, 0, fmt.Sprintf("the tokens it scales follow from a per-request constant%s (%.2f%% of their variance left, below the %g%% it needs: collinear), "+
			"so a scale cannot be told from the overheads; fit on requests whose content varies apart from them",
			names, 100*u, 100*ScaleMinUnexplained)
	}
	// step fits yy ≈ constant + overhead columns + k·ScaleUnits and returns
	// the move in scale, s0·k, and the half-width of its 95% interval.
	step := func(yy []float64) (float64, float64, error) {
		x := make([][]float64, len(rows))
		for i := range rows {
			x[i] = []float64{1}
			for _, c := range cols {
				x[i] = append(x[i], c[i])
			}
			x[i] = append(x[i], su[i])
		}
		reg, err := Fit(x, yy, loss)
		if err == nil && reg.Beta[0] < 0 {
			// A negative per-request constant is not an overhead: the
			// scale is the one that leaves none (the constant at its
			// bound 0).
			for i := range x {
				x[i] = x[i][1:]
			}
			reg, err = Fit(x, yy, loss)
		}
		if err != nil {
			return 0, 0, err
		}
		k := reg.Beta[len(reg.Beta)-1]
		// The 95% interval of k from the residuals: 1.96 standard errors,
		// σ / √(n · var(scaled tokens) · the share the other columns leave).
		n := float64(len(x))
		sigma := startSigma(reg, x, yy, intervalLoss)
		return s0 * k, 1.96 * s0 * sigma / math.Sqrt(n*variance(su)*u), nil
	}
	d, half, err := step(y)
	if err != nil {
		return 0, 0, err.Error()
	}
	return s0 + d, half, ""
}

// startSigma is the σ of the linear start's interval, reg being the fit
// of y on x under loss: the standard error of a coefficient is σ over the
// root of its column's spread. Under ols it is the residuals' root mean
// square (n − p degrees of freedom); under huber and lad the robust fit's
// own, so a few outlying residuals do not widen the profile's first grid
// (each grid scale is one more replay): huber's σ·√(mean ψ²)/mean ψ′, σ
// the fit's robust scale (Huber's asymptotic variance of an M-estimate),
// and lad's s/2, s the residuals' sparsity 1/f(0) (that of median
// regression). 0 when the fit is exact.
func startSigma(reg *Regression, x [][]float64, y []float64, loss Loss) float64 {
	res := make([]float64, len(x))
	for i := range x {
		res[i] = y[i] - reg.Predict(x[i])
	}
	switch loss {
	case Huber:
		if reg.Scale == 0 {
			return 0
		}
		var inside, psi2 float64
		for _, r := range res {
			u := r / reg.Scale
			if math.Abs(u) <= HuberK {
				inside++
				psi2 += u * u
			} else {
				psi2 += HuberK * HuberK
			}
		}
		n := float64(len(res))
		if inside == 0 {
			return 0
		}
		return reg.Scale * math.Sqrt(psi2/n) / (inside / n)
	case LAD:
		return sparsity(res) / 2
	}
	var ss float64
	for _, r := range res {
		ss += r * r
	}
	return math.Sqrt(ss / math.Max(1, float64(len(x)-len(reg.Beta))))
}

// unexplained is the share of ys's variance that an ordinary least-squares
// fit on a constant and cols leaves (1 − R²); 1 with no columns.
func unexplained(ys []float64, cols [][]float64) float64 {
	v := variance(ys)
	if v == 0 {
		return 0
	}
	if len(cols) == 0 {
		return 1
	}
	x := make([][]float64, len(ys))
	for i := range ys {
		x[i] = []float64{1}
		for _, c := range cols {
			x[i] = append(x[i], c[i])
		}
	}
	reg, err := Fit(x, ys, OLS)
	if err != nil {
		return 0
	}
	return squaredResiduals(reg, x, ys) / (v * float64(len(ys)))
}

// squaredResiduals is the sum of the squared residuals of reg on x, y.
func squaredResiduals(reg *Regression, x [][]float64, y []float64) float64 {
	var ss float64
	for i := range x {
		d := y[i] - reg.Predict(x[i])
		ss += d * d
	}
	return ss
}
