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
// a grid around the linear estimate, refits the overheads under the
// calibration's loss at each, and keeps the scale with the least
// objective; its 95% interval is every grid scale whose objective is
// within a likelihood-ratio bound of the least (profileloss.go), which
// holds for a step-function model.
const (
	// ScaleProfileStep is the spacing of the profile's grid of scales.
	ScaleProfileStep = 0.001
	// ScaleProfileSpan is the half-width of the first grid, in standard
	// errors of the linear estimate (at least ScaleProfileMinPoints
	// steps); the grid grows while the interval reaches its end.
	ScaleProfileSpan = 4
	// ScaleProfileMinPoints is the fewest grid steps on each side of the
	// linear estimate, and beyond the interval on each side.
	ScaleProfileMinPoints = 10
	// ScaleProfileTieTolerance is the relative difference below which two
	// grid scales' objectives count as equal (gridMinimum), unless
	// ScaleProfileTieTokens is less. The objectives are float sums over
	// the fit requests, so scales whose objectives are equal but for the
	// order of the additions (a scale that moves every request by the
	// same tokens, which the constant absorbs) differ by about 1e-15 of
	// them; compared exactly, which of them was the estimate depended on
	// that rounding (TestNearTiesFromSummationOrder). 1e-9 is far above
	// the rounding of sums of a few thousand terms.
	ScaleProfileTieTolerance = 1e-9
	// ScaleProfileTieTokens caps the tie tolerance at this fraction of
	// one token's weight in the objective: what moving one request's
	// residual by one token from the mean absolute residual at the least
	// objective adds (1 under lad, 2m+1 under ols, m the mean, and ρ's
	// step under huber). A relative 1e-9 alone is not always below it: a
	// lad objective of 1e9 (1e5 requests ~1e4 tokens off) tied scales a
	// token apart (TestTieToleranceAtScale).
	ScaleProfileTieTokens = 0.01
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
	// replayed counts the grid scales replayed so far, every pass's.
	replayed int
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
		c.replayed += len(scales)
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

// scaleProfile is the profile's result: the scale with the least
// objective under the loss and the least and greatest grid scale of its
// 95% interval.
type scaleProfile struct {
	Est, Lo, Hi float64
	// kEst, kLo, kHi are their grid indices.
	kEst, kLo, kHi int
	// Replayed counts the grid scales the profile replayed, over every
	// pass and every growth of the grid (the scales an earlier profile on
	// the same scaleSims replayed are not counted again).
	Replayed int
	// Sigma is the robust scale the huber objective divides by (0 under
	// ols and lad); Passes counts the profiles run to find it.
	Sigma  float64
	Passes int
	// Capped: σ had not settled after ScaleProfileScalePasses passes,
	// and the profile is the one cappedProfile keeps.
	Capped bool
}

// HalfWidth is the larger side of the interval around the estimate.
func (p scaleProfile) HalfWidth() float64 { return gridScale(max(p.kEst-p.kLo, p.kHi-p.kEst)) }

// Symmetric reports whether the interval reaches as far on each side of
// the estimate (in whole grid steps, the precision it is printed to).
func (p scaleProfile) Symmetric() bool { return p.kEst-p.kLo == p.kHi-p.kEst }

// profileTokenScale profiles token_scale over the grid around center (the
// linear estimate, with standard error se): rec are the fit rows' recorded
// prompt tokens and msg, tool the overhead columns (fitted where fitMsg,
// fitTool). At each grid scale the overheads are fitted under loss on
// rec − the replay's tokens at that scale (the constant at its bound 0
// when it would be negative), and the scale with the least objective is
// kept, its 95% interval bounded as profileloss.go says. Under huber the
// robust scale the objective divides by is the one at the minimum: the
// profile is run again with it until the minimum repeats or σ does (to
// ScaleProfileSigmaTolerance), at most ScaleProfileScalePasses times. It fails when the interval reaches maxHalf
// beyond center on either side (a note: the data do not bound the
// scale), or when a replay fails (an error). When σ has not settled
// after the last pass, the pass with the greatest σ is kept
// (cappedProfile) and marked Capped. Replayed counts every grid scale
// the profile replayed, σ's look-ups and every pass included.
func profileTokenScale(sims *scaleSims, rec, msg, tool []float64, fitMsg, fitTool bool, loss Loss, center, se, maxHalf float64) (scaleProfile, string, error) {
	before := sims.replayed
	p, note, err := profileByLoss(sims, rec, msg, tool, fitMsg, fitTool, loss, center, se, maxHalf)
	p.Replayed = sims.replayed - before
	return p, note, err
}

// profileByLoss is profileTokenScale but for the count of replays.
func profileByLoss(sims *scaleSims, rec, msg, tool []float64, fitMsg, fitTool bool, loss Loss, center, se, maxHalf float64) (scaleProfile, string, error) {
	if loss == OLS {
		return profilePass(sims, rec, msg, tool, fitMsg, fitTool, loss, 0, center, se, maxHalf)
	}
	sigmaAt := func(k int) (float64, error) {
		got, err := sims.get(k, k)
		if err != nil {
			return 0, err
		}
		return robustScaleAt(rec, got[0], msg, tool, fitMsg, fitTool, loss)
	}
	sigma, err := sigmaAt(max(1, int(math.Round(center/ScaleProfileStep))))
	if err != nil {
		return scaleProfile{}, "", err
	}
	if loss == LAD {
		// Σ |r| does not read σ: it only floors the reweighting.
		return profilePass(sims, rec, msg, tool, fitMsg, fitTool, loss, sigma, center, se, maxHalf)
	}
	prev := -1
	var passes []scaleProfile
	for pass := 1; ; pass++ {
		p, note, err := profilePass(sims, rec, msg, tool, fitMsg, fitTool, loss, sigma, center, se, maxHalf)
		if err != nil || note != "" {
			return p, note, err
		}
		p.Sigma, p.Passes = sigma, pass
		passes = append(passes, p)
		next, err := sigmaAt(p.kEst)
		if err != nil {
			return scaleProfile{}, "", err
		}
		if math.Abs(next-sigma) <= ScaleProfileSigmaTolerance*sigma || p.kEst == prev {
			return p, "", nil
		}
		if pass == ScaleProfileScalePasses {
			return cappedProfile(passes), "", nil
		}
		sigma, prev = next, p.kEst
	}
}

// cappedProfile is the huber profile kept when σ has not settled after
// ScaleProfileScalePasses passes (the minimum moved on every one, σ
// with it): the pass with the greatest σ, the first of them on a tie.
// Each pass is the whole profile at its σ, so its minimum has the least
// objective at that σ of every grid scale, the other passes' minima
// among them; and the greatest σ is the widest interval of theirs. The
// result is marked Capped, for calibrate's note to say so.
func cappedProfile(passes []scaleProfile) scaleProfile {
	best := passes[0]
	for _, p := range passes[1:] {
		if p.Sigma > best.Sigma {
			best = p
		}
	}
	best.Passes, best.Capped = len(passes), true
	return best
}

// profilePass is one profile under loss, the huber objective dividing by
// sigma (least squares when sigma is below ScaleProfileMinSigma).
func profilePass(sims *scaleSims, rec, msg, tool []float64, fitMsg, fitTool bool, loss Loss, sigma, center, se, maxHalf float64) (scaleProfile, string, error) {
	if sigma < ScaleProfileMinSigma {
		loss = OLS
	}
	n := len(rec)
	k0 := int(math.Round(center / ScaleProfileStep))
	limit := int(math.Ceil(maxHalf / ScaleProfileStep))
	// The first grid: ScaleProfileSpan standard errors each side, at least
	// ScaleProfileMinPoints steps and at most the limit (a linear interval
	// wider than it is no reason to replay more).
	w := ScaleProfileMinPoints
	if sp := ScaleProfileSpan * se / ScaleProfileStep; sp > float64(w) {
		w = max(w, int(math.Ceil(min(sp, float64(limit)))))
	}
	lo, hi := max(1, k0-w), k0+w
	obj := map[int]float64{}
	res := map[int][]float64{}
	params := 0
	for {
		got, err := sims.get(lo, hi)
		if err != nil {
			return scaleProfile{}, "", err
		}
		for k := lo; k <= hi; k++ {
			if _, ok := obj[k]; ok {
				continue
			}
			o, r, p, err := overheadObjective(rec, got[k-lo], msg, tool, fitMsg, fitTool, loss, sigma)
			if err != nil {
				return scaleProfile{}, "", err
			}
			obj[k], res[k], params = o, r, max(params, p)
		}
		best, ties := gridMinimum(obj, lo, hi, func(k int) float64 { return tokenWeight(res[k], loss, sigma) })
		// Equal objectives (a step of the replay wider than the grid, or
		// sums equal but for rounding): the middle of them.
		e := middleTie(ties)
		// p counts the scale with the overheads.
		df := float64(n - params - 1)
		if df < 1 {
			return scaleProfile{}, fmt.Sprintf("%d fit requests for %d coefficients", n, params+1), nil
		}
		bound := objectiveBound(best, res[e], loss, sigma, df)
		a, b := hi+1, lo-1
		for k := lo; k <= hi; k++ {
			if obj[k] <= bound {
				a, b = min(a, k), max(b, k)
			}
		}
		grow := false
		// The grid reaches ScaleProfileMinPoints steps beyond the interval
		// on each side: the objective is a step function, not convex, so
		// a lower minimum may lie just past a rise.
		if a-lo < ScaleProfileMinPoints && lo > 1 {
			if k0-lo >= limit {
				return scaleProfile{}, fmt.Sprintf("its 95%% interval reaches %g, %g below the linear estimate %.3f", gridScale(lo), maxHalf, center), nil
			}
			lo, grow = max(1, lo-w), true
		}
		if hi-b < ScaleProfileMinPoints {
			if hi-k0 >= limit {
				return scaleProfile{}, fmt.Sprintf("its 95%% interval reaches %g, %g above the linear estimate %.3f", gridScale(hi), maxHalf, center), nil
			}
			hi, grow = hi+w, true
		}
		if !grow {
			return scaleProfile{Est: gridScale(e), Lo: gridScale(a), Hi: gridScale(b), kEst: e, kLo: a, kHi: b}, "", nil
		}
	}
}

// gridMinimum returns the least of the objectives at grid scales lo..hi
// and, in increasing order, the scales tied with it: those whose
// objective exceeds it by at most ScaleProfileTieTolerance of it, and at
// most ScaleProfileTieTokens of token(k), one token's weight in the
// objective at the first scale k with the least. Which scales tie does
// not depend on the order of the sums (but where a difference lies
// within rounding of the tolerance itself).
func gridMinimum(obj map[int]float64, lo, hi int, token func(k int) float64) (float64, []int) {
	best, kb := math.Inf(1), lo
	for k := lo; k <= hi; k++ {
		if obj[k] < best {
			best, kb = obj[k], k
		}
	}
	tol := min(ScaleProfileTieTolerance*math.Abs(best), ScaleProfileTieTokens*token(kb))
	var ties []int
	for k := lo; k <= hi; k++ {
		if obj[k]-best <= tol {
			ties = append(ties, k)
		}
	}
	return best, ties
}

// tokenWeight is one token's weight in the objective of residuals res
// under loss (huber dividing by sigma): how much moving one residual
// from the mean absolute residual m to m+1 adds (lad 1, ols 2m+1).
func tokenWeight(res []float64, loss Loss, sigma float64) float64 {
	var m float64
	for _, r := range res {
		m += math.Abs(r)
	}
	if len(res) > 0 {
		m /= float64(len(res))
	}
	return lossObjective([]float64{m + 1}, loss, sigma) - lossObjective([]float64{m}, loss, sigma)
}

// middleTie is the estimate among tied grid scales (increasing): the
// middle one, the greater of the two middle ones of an even number.
func middleTie(ties []int) int { return ties[len(ties)/2] }

// studentT975 is the 97.5% quantile of Student's t with df degrees of
// freedom (Cornish–Fisher expansion about the normal's 1.96; within 0.1%
// from df 10).
func studentT975(df float64) float64 {
	const z = 1.959963984540054
	z3, z5, z7 := z*z*z, z*z*z*z*z, z*z*z*z*z*z*z
	return z + (z3+z)/(4*df) + (5*z5+16*z3+3*z)/(96*df*df) + (3*z7+19*z5+17*z3-15*z)/(384*df*df*df)
}
