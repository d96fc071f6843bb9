package calibrate

import (
	"fmt"
	"math"
)

// The token_scale profile (docs/calibrate.md, "Token scale"). The engine
// rounds every scaled item to a whole token, so the prompt a scale gives
// is a step function of it, not the linear one the first fit assumes
// (biased where scaled counts are not whole: +0.0085 at 1.3 on the
// generated sessions). The profile replays the fit sessions at scales on
// a grid around the linear estimate, refits the overheads by least
// squares at each, and keeps the scale with the least sum of squared
// residuals; its 95% interval is every grid scale whose sum is within the
// F bound of the least (a likelihood-ratio interval, which holds for a
// step-function model).
const (
	// ScaleProfileStep is the spacing of the profile's grid of scales.
	ScaleProfileStep = 0.001
	// ScaleProfileSpan is the half-width of the first grid, in standard
	// errors of the linear estimate (at least ScaleProfileMinPoints
	// steps); the grid grows while the interval reaches its end.
	ScaleProfileSpan = 4
	// ScaleProfileMinPoints is the fewest grid steps on each side of the
	// linear estimate.
	ScaleProfileMinPoints = 10
)

// reqKey names a recorded model request: its session and position.
type reqKey struct {
	session string
	index   int
}

// scaleReplay replays the fit sessions at each of scales with every
// overhead at zero and returns, for each scale, every fit request's prompt
// tokens by reqKey.
type scaleReplay func(scales []float64) ([]map[reqKey]int64, error)

// scaleSims holds the fit rows' prompt tokens with every overhead at zero
// at grid scales k·ScaleProfileStep, replaying the scales it lacks.
type scaleSims struct {
	rows   []*Request
	replay scaleReplay
	byK    map[int][]float64
}

func newScaleSims(rows []*Request, replay scaleReplay) *scaleSims {
	return &scaleSims{rows: rows, replay: replay, byK: map[int][]float64{}}
}

// gridScale is the k-th grid scale (1300 is 1.3 exactly as written).
func gridScale(k int) float64 { return float64(k) / (1 / ScaleProfileStep) }

// get returns the rows' prompt tokens at grid scales lo..hi, replaying
// the missing scales in one pass.
func (c *scaleSims) get(lo, hi int) ([][]float64, error) {
	var miss []int
	var scales []float64
	for k := lo; k <= hi; k++ {
		if _, ok := c.byK[k]; !ok {
			miss, scales = append(miss, k), append(scales, gridScale(k))
		}
	}
	if len(miss) > 0 {
		got, err := c.replay(scales)
		if err != nil {
			return nil, err
		}
		for j, k := range miss {
			v := make([]float64, len(c.rows))
			for i, r := range c.rows {
				n, ok := got[j][reqKey{r.Session, r.Index}]
				if !ok {
					return nil, fmt.Errorf("the replay at token_scale %g did not give request %d of session %s", scales[j], r.Index, r.Session)
				}
				v[i] = float64(n)
			}
			c.byK[k] = v
		}
	}
	out := make([][]float64, 0, hi-lo+1)
	for k := lo; k <= hi; k++ {
		out = append(out, c.byK[k])
	}
	return out, nil
}

// scaleProfile is the profile's result: the scale with the least sum of
// squared residuals and the least and greatest grid scale of its 95%
// interval.
type scaleProfile struct {
	Est, Lo, Hi float64
	// kEst, kLo, kHi are their grid indices.
	kEst, kLo, kHi int
	// Replayed counts the grid scales looked at.
	Replayed int
}

// HalfWidth is the larger side of the interval around the estimate.
func (p scaleProfile) HalfWidth() float64 { return gridScale(max(p.kEst-p.kLo, p.kHi-p.kEst)) }

// profileTokenScale profiles token_scale over the grid around center (the
// linear estimate, with standard error se): rec are the fit rows' recorded
// prompt tokens and msg, tool the overhead columns (fitted where fitMsg,
// fitTool). At each grid scale the overheads are fitted by least squares
// on rec − the replay's tokens at that scale (the constant at its bound 0
// when it would be negative). It fails when the interval reaches
// maxHalf beyond center on either side (a note: the data do not bound
// the scale), or when a replay fails (an error).
func profileTokenScale(sims *scaleSims, rec, msg, tool []float64, fitMsg, fitTool bool, center, se, maxHalf float64) (scaleProfile, string, error) {
	n := len(rec)
	k0 := int(math.Round(center / ScaleProfileStep))
	w := max(ScaleProfileMinPoints, int(math.Ceil(ScaleProfileSpan*se/ScaleProfileStep)))
	limit := int(math.Ceil(maxHalf / ScaleProfileStep))
	lo, hi := max(1, k0-w), k0+w
	sse := map[int]float64{}
	params := 0
	for {
		got, err := sims.get(lo, hi)
		if err != nil {
			return scaleProfile{}, "", err
		}
		for k := lo; k <= hi; k++ {
			if _, ok := sse[k]; ok {
				continue
			}
			ss, p, err := overheadSSE(rec, got[k-lo], msg, tool, fitMsg, fitTool)
			if err != nil {
				return scaleProfile{}, "", err
			}
			sse[k], params = ss, max(params, p)
		}
		best := math.Inf(1)
		for k := lo; k <= hi; k++ {
			best = min(best, sse[k])
		}
		// The interval: F(1, n − p) at 95%, p counting the scale.
		df := float64(n - params - 1)
		if df < 1 {
			return scaleProfile{}, fmt.Sprintf("%d fit requests for %d coefficients", n, params+1), nil
		}
		t := studentT975(df)
		bound := best * (1 + t*t/df)
		var ties []int
		a, b := hi+1, lo-1
		for k := lo; k <= hi; k++ {
			if sse[k] == best {
				ties = append(ties, k)
			}
			if sse[k] <= bound {
				a, b = min(a, k), max(b, k)
			}
		}
		grow := false
		if a == lo && lo > 1 {
			if k0-lo >= limit {
				return scaleProfile{}, fmt.Sprintf("its 95%% interval reaches %g, %g below the linear estimate %.3f", gridScale(lo), maxHalf, center), nil
			}
			lo, grow = max(1, lo-w), true
		}
		if b == hi {
			if hi-k0 >= limit {
				return scaleProfile{}, fmt.Sprintf("its 95%% interval reaches %g, %g above the linear estimate %.3f", gridScale(hi), maxHalf, center), nil
			}
			hi, grow = hi+w, true
		}
		if !grow {
			// Equal sums (a step of the replay wider than the grid): the
			// middle of them.
			e := ties[len(ties)/2]
			return scaleProfile{Est: gridScale(e), Lo: gridScale(a), Hi: gridScale(b), kEst: e, kLo: a, kHi: b, Replayed: len(sse)}, "", nil
		}
	}
}

// overheadSSE fits rec − sim ≈ constant + the overhead columns by least
// squares (the constant at 0 when it would be negative) and returns the
// sum of squared residuals and the number of coefficients fitted.
func overheadSSE(rec, sim, msg, tool []float64, fitMsg, fitTool bool) (float64, int, error) {
	x := make([][]float64, len(rec))
	y := make([]float64, len(rec))
	for i := range rec {
		x[i] = []float64{1}
		if fitMsg {
			x[i] = append(x[i], msg[i])
		}
		if fitTool {
			x[i] = append(x[i], tool[i])
		}
		y[i] = rec[i] - sim[i]
	}
	reg, err := Fit(x, y, OLS)
	if err == nil && reg.Beta[0] < 0 {
		for i := range x {
			x[i] = x[i][1:]
		}
		if len(x[0]) == 0 {
			var ss float64
			for _, v := range y {
				ss += v * v
			}
			return ss, 0, nil
		}
		reg, err = Fit(x, y, OLS)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("token_scale profile: %w", err)
	}
	return squaredResiduals(reg, x, y), len(reg.Beta), nil
}

// studentT975 is the 97.5% quantile of Student's t with df degrees of
// freedom (Cornish–Fisher expansion about the normal's 1.96; within 0.1%
// from df 10).
func studentT975(df float64) float64 {
	const z = 1.959963984540054
	z3, z5, z7 := z*z*z, z*z*z*z*z, z*z*z*z*z*z*z
	return z + (z3+z)/(4*df) + (5*z5+16*z3+3*z)/(96*df*df) + (3*z7+19*z5+17*z3-15*z)/(384*df*df*df)
}
