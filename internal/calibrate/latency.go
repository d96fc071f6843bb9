package calibrate

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/defersim/defersim/sim"
)

// Token splits a latency fit can use.
const (
	// SplitAuto: recorded when every fit request has recorded usage that
	// splits cached from uncached tokens, else replay.
	SplitAuto = "auto"
	// SplitRecorded: the recorded usage (uncached + cache write, cache read, output).
	SplitRecorded = "recorded"
	// SplitReplay: the replay's split under the scenario's cache model.
	SplitReplay = "replay"
)

// Residual scales of the latency fit.
const (
	// Log residuals, log(recorded / predicted): multiplicative errors,
	// every request counting by its ratio to the prediction whatever its
	// length (the engine's jitter is multiplicative too).
	Log = "log"
	// Absolute residuals in milliseconds: long requests count more.
	Absolute = "absolute"
)

// MaxRateTPS bounds every fitted rate (prefill, cached prefill, decode) in
// tokens per second: the fit keeps each time per token at or above
// 1000/MaxRateTPS ms, so no rate comes out negative or infinite. A rate at
// this bound means the data shows no measurable time for those tokens.
const MaxRateTPS = 1e6

// Param is one fitted latency parameter.
type Param struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	// Scenario is the starting value.
	Scenario float64 `json:"scenario"`
	// Fitted is false when the value was kept from the scenario; Note says
	// why, or how a fitted value was decided (a bound).
	Fitted bool   `json:"fitted"`
	Note   string `json:"note,omitempty"`
	// AtBound: the fit put the value at its bound (an overhead of 0, a
	// rate of MaxRateTPS): the data would have gone past it.
	AtBound bool `json:"at_bound,omitempty"`
}

// LatencyFit is the fitted latency model with its quality on the fit set.
type LatencyFit struct {
	Split string `json:"split"`
	// Residuals: log or absolute.
	Residuals string `json:"residuals"`
	// TTFT: time to first token and decoding were fitted separately, on the
	// recorded time to first token.
	TTFT bool `json:"ttft_separate"`
	// Kinds: an intercept per request kind (kind_ms) rather than one.
	Kinds       bool `json:"request_kinds"`
	FitSessions int  `json:"fit_sessions"`
	FitRequests int  `json:"fit_requests"`
	// Coefficients is how many coefficients were fitted on FitRequests:
	// an intercept per request kind of the fit set (or one) and the rates
	// whose column varies.
	Coefficients int `json:"coefficients"`
	// Params: overhead_ms, prefill_tps, cached_prefill_tps, decode_tps
	// and, with Kinds, kind_ms.KIND for every request kind.
	Params []Param `json:"params"`
	// Fit quality on the fit set (deterministic predictions).
	RSquared     float64   `json:"r_squared"`
	ScaleMs      float64   `json:"robust_scale_ms"`
	Iterations   int       `json:"iterations"`
	FitResiduals Residuals `json:"fit_residuals_ms"`
	// ResidualSessions are the fewest fit sessions, largest first, whose
	// requests hold at least ResidualMostShare of the fit's squared error
	// (what R² measures): one session here is the place to look.
	ResidualSessions []SessionShare `json:"fit_residual_sessions,omitempty"`
	// JitterCV is the spread of recorded / predicted time on the fit set
	// (always measured; in Latency only when asked for).
	JitterCV float64 `json:"fitted_jitter_cv"`
	// Latency is what the written scenario gets; ScenarioLatency the start.
	Latency         sim.Latency `json:"latency"`
	ScenarioLatency sim.Latency `json:"scenario_latency"`
	// loss is the regression loss the fit used.
	loss Loss
}

type latencyRow struct {
	unc, read, out, ms, ttft float64
	session                  string
	role                     Role
	afterUser                bool
	kind                     sim.RequestKind
}

func latencyRows(reqs []Request, split string) ([]latencyRow, string) {
	if split == SplitAuto {
		// The recorded split only when every fit request has usage and the
		// recording tells cached from uncached tokens; else the replay's,
		// which is also what the engine will use.
		split = SplitReplay
		all, cached := true, false
		for i := range reqs {
			r := &reqs[i]
			if !r.Fit() || r.RecordedMs <= 0 {
				continue
			}
			all = all && r.HasUsage
			cached = cached || r.Usage.CacheRead > 0 || r.Usage.CacheWrite > 0
		}
		if all && cached {
			split = SplitRecorded
		}
	}
	var rows []latencyRow
	for i := range reqs {
		r := &reqs[i]
		if r.RecordedMs <= 0 || r.Role == Unused {
			continue
		}
		row := latencyRow{ms: r.RecordedMs, ttft: r.TTFTMs, session: r.Session, role: r.Role, afterUser: r.AfterUser, kind: r.Kind}
		if split == SplitRecorded {
			if !r.HasUsage {
				continue
			}
			row.unc = float64(r.Usage.Input + r.Usage.CacheWrite)
			row.read = float64(r.Usage.CacheRead)
			row.out = float64(r.Usage.Output)
		} else {
			row.unc, row.read, row.out = float64(r.SimUncached), float64(r.SimRead), float64(r.SimOutput)
		}
		rows = append(rows, row)
	}
	return rows, split
}

// withoutCacheReads counts the cache reads of rows as uncached tokens:
// under a model without a prompt cache the replay prefills every prompt
// token at prefill_tps, recorded cache reads included.
func withoutCacheReads(rows []latencyRow) {
	for i := range rows {
		rows[i].unc += rows[i].read
		rows[i].read = 0
	}
}

// predict returns a request's time under lat, without jitter: the engine's
// formula (sim.Latency.DurationMs), time to first token plus decoding.
func predict(lat sim.Latency, r latencyRow) float64 {
	return lat.DurationMs(r.kind, int64(r.unc), int64(r.read), int64(r.out))
}

func predictTTFT(lat sim.Latency, r latencyRow) float64 {
	return lat.TTFTMs(r.kind, int64(r.unc), int64(r.read))
}

// The rate columns of a latency fit, after its intercepts.
const (
	colUncached = iota
	colRead
	colOutput
	numRates
)

var rateNames = [numRates]string{"prefill_tps", "cached_prefill_tps", "decode_tps"}

// design is the columns of a latency fit: one intercept per request kind
// in kinds (or a single one, the overhead, when kinds is nil), then the
// time per uncached, cached and output token.
type design struct {
	kinds []sim.RequestKind
}

func (d design) intercepts() int { return max(1, len(d.kinds)) }
func (d design) width() int      { return d.intercepts() + numRates }

// rate is the column of rate j.
func (d design) rate(j int) int { return d.intercepts() + j }

// col is row r's value in column j.
func (d design) col(r latencyRow, j int) float64 {
	n := d.intercepts()
	switch {
	case j < n:
		if d.kinds == nil || d.kinds[j] == r.kind {
			return 1
		}
		return 0
	case j == n+colUncached:
		return r.unc
	case j == n+colRead:
		return r.read
	}
	return r.out
}

// kindsIn lists the request kinds of rows, in kind order.
func kindsIn(rows []latencyRow) []sim.RequestKind {
	var seen [sim.NumRequestKinds]bool
	for _, r := range rows {
		seen[r.kind] = true
	}
	var out []sim.RequestKind
	for _, k := range sim.RequestKinds() {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// fitLatency fits time = intercept + uncached·a + read·b + output·c (ms) on
// the fit requests with a recorded duration, by robust regression bounded
// below (intercepts ≥ 0, a, b, c ≥ 1000/MaxRateTPS); the rates are 1000/a
// etc. With kinds, each request kind of the fit set has its own intercept:
// the least is overhead_ms and each kind's excess its kind_ms term (a kind
// absent from the fit set keeps the scenario's term); without, one
// intercept is overhead_ms. When every fit request records its time to
// first token, the intercepts, a and b are fitted on it and c on the
// decoding time that follows. A rate column that does not vary in the fit
// set keeps the scenario's value. cachedUnread says why the model never
// applies cached_prefill_tps (sim.LatencyKeyUnread, "" when it does): the
// rate is then not fitted but kept, with that reason, and recorded cache
// reads count as uncached tokens (withoutCacheReads), as the replay
// prefills them.
func fitLatency(reqs []Request, split, residuals string, scen sim.Latency, loss Loss, kinds bool, cachedUnread string) (*LatencyFit, error) {
	rows, split := latencyRows(reqs, split)
	if cachedUnread != "" {
		withoutCacheReads(rows)
	}
	var fitRows []latencyRow
	ttft := true
	for _, r := range rows {
		if r.role == FitRole {
			fitRows = append(fitRows, r)
			ttft = ttft && r.ttft > 0 && r.ttft <= r.ms
		}
	}
	if len(fitRows) < 5 {
		return nil, fmt.Errorf("latency: %d fit requests with a recorded duration (need 5 or more)", len(fitRows))
	}
	if err := timesVary(fitRows); err != nil {
		return nil, err
	}
	f := &LatencyFit{Split: split, Residuals: residuals, TTFT: ttft, Kinds: kinds, FitRequests: len(fitRows), ScenarioLatency: scen, loss: loss}
	f.FitSessions = countSessions(fitRows)

	var d design
	if kinds {
		d.kinds = kindsIn(fitRows)
	}
	n, w := d.intercepts(), d.width()
	kept := make([]float64, w)
	free := make([]bool, w)
	rateNotes := [numRates]string{}
	for j := range n {
		free[j] = true
		kept[j] = scen.OverheadMs
		if kinds {
			kept[j] += scen.Kinds.Of(d.kinds[j])
		}
	}
	for j, v := range []float64{1000 / scen.PrefillTPS, 1000 / scen.CachedPrefillTPS, 1000 / scen.DecodeTPS} {
		c := d.rate(j)
		kept[c] = v
		xs := make([]float64, len(fitRows))
		for i, r := range fitRows {
			xs[i] = d.col(r, c)
		}
		free[c] = variance(xs) > 0
		switch {
		case j == colRead && cachedUnread != "":
			// Every row reads 0 tokens from a cache: the rate times
			// nothing (and may be 0, left out).
			free[c], kept[c] = false, 0
			rateNotes[j] = "kept: not read: " + cachedUnread
		case !free[c]:
			rateNotes[j] = "kept: this column does not vary in the fit set"
			if j == colRead && split == SplitRecorded {
				rateNotes[j] = "kept: the recorded usage does not split cached from uncached prompt tokens"
			}
		}
	}
	target := func(r latencyRow) float64 { return r.ms }
	all := make([]int, w)
	for j := range all {
		all[j] = j
	}
	groups := [][]int{all}
	if ttft {
		// Time to first token on the intercepts, uncached and read; decoding on output.
		groups = [][]int{all[:w-1], {d.rate(colOutput)}}
	}
	if err := enoughRows(len(fitRows), groups, free, n, kinds); err != nil {
		return nil, err
	}
	for _, fr := range free {
		if fr {
			f.Coefficients++
		}
	}
	coef := append([]float64(nil), kept...)
	atBound := make([]bool, w)
	for gi, g := range groups {
		tgt := target
		if ttft {
			if gi == 0 {
				tgt = func(r latencyRow) float64 { return r.ttft }
			} else {
				tgt = func(r latencyRow) float64 { return r.ms - r.ttft }
			}
		}
		res, err := fitColumns(fitRows, d, g, free, kept, tgt, residuals, loss)
		if err != nil {
			return nil, fmt.Errorf("latency: %w", err)
		}
		f.Iterations = max(f.Iterations, res.iterations)
		for _, j := range g {
			if free[j] {
				coef[j], atBound[j] = res.beta[j], res.atBound[j]
			}
		}
	}
	lat := scen
	lat.OverheadMs = round(slices.Min(coef[:n]), 0)
	lat.PrefillTPS = roundRate(1000 / coef[d.rate(colUncached)])
	if cachedUnread == "" {
		lat.CachedPrefillTPS = roundRate(1000 / coef[d.rate(colRead)])
	}
	lat.DecodeTPS = round(1000/coef[d.rate(colOutput)], 1)
	lat.JitterCV = 0
	overheadNote := ""
	overheadBound := atBound[slices.Index(coef[:n], slices.Min(coef[:n]))]
	if overheadBound {
		overheadNote = "at its bound 0: the data would give a negative overhead"
	}
	f.Params = append(f.Params, Param{Name: "overhead_ms", Value: lat.OverheadMs, Scenario: scen.OverheadMs, Fitted: true, Note: overheadNote, AtBound: overheadBound})
	for j, name := range rateNames {
		c := d.rate(j)
		note := rateNotes[j]
		if free[c] && atBound[c] {
			note = fmt.Sprintf("at its bound %g tokens/s: these tokens show no measurable time", MaxRateTPS)
		}
		f.Params = append(f.Params, Param{Name: name, Value: []float64{lat.PrefillTPS, lat.CachedPrefillTPS, lat.DecodeTPS}[j],
			Scenario: []float64{scen.PrefillTPS, scen.CachedPrefillTPS, scen.DecodeTPS}[j], Fitted: free[c], Note: note, AtBound: free[c] && atBound[c]})
	}
	if kinds {
		for _, k := range sim.RequestKinds() {
			j := slices.Index(d.kinds, k)
			if j < 0 {
				f.Params = append(f.Params, Param{Name: "kind_ms." + k.String(), Value: scen.Kinds.Of(k), Scenario: scen.Kinds.Of(k),
					Note: "kept: no request of this kind in the fit set"})
				continue
			}
			v := math.Max(0, round(coef[j], 0)-lat.OverheadMs)
			lat.Kinds.Set(k, v)
			note := ""
			if v == 0 {
				note = "the fastest kind: its time is overhead_ms"
			}
			f.Params = append(f.Params, Param{Name: "kind_ms." + k.String(), Value: v, Scenario: scen.Kinds.Of(k), Fitted: true, Note: note})
		}
	}
	pred, rec := predictions(lat, fitRows)
	f.RSquared = rSquared(pred, rec)
	f.FitResiduals = residualQuantiles(pred, rec)
	f.ResidualSessions = residualSessions(fitRows, pred, rec)
	res := make([]float64, len(pred))
	for i := range pred {
		res[i] = rec[i] - pred[i]
	}
	f.ScaleMs = madScale(res)
	f.JitterCV = round(jitterCV(pred, rec), 2)
	f.Latency = lat
	return f, nil
}

type columnsFit struct {
	beta       []float64
	atBound    []bool
	iterations int
}

// fitColumns fits target ≈ Σ_j∈g coef_j · col_j over the free columns of g
// (the kept ones' contribution known), bounded below, with residuals on a
// log scale or absolute, every session weighing the same.
func fitColumns(rows []latencyRow, d design, g []int, free []bool, kept []float64, target func(latencyRow) float64, residuals string, loss Loss) (columnsFit, error) {
	out := columnsFit{beta: make([]float64, d.width()), atBound: make([]bool, d.width())}
	var idx []int
	for _, j := range g {
		if free[j] {
			idx = append(idx, j)
		}
	}
	if len(idx) == 0 {
		return out, nil
	}
	var x [][]float64
	var y, w, off []float64
	weights := sessionWeights(rows)
	for i, r := range rows {
		t := target(r)
		if t <= 0 {
			continue
		}
		var o float64
		for _, j := range g {
			if !free[j] {
				o += kept[j] * d.col(r, j)
			}
		}
		xi := make([]float64, len(idx))
		for k, j := range idx {
			xi[k] = d.col(r, j)
		}
		x, y, w, off = append(x, xi), append(y, t), append(w, weights[i]), append(off, o)
	}
	lower := make([]float64, len(idx))
	for k, j := range idx {
		if j >= d.intercepts() {
			lower[k] = 1000 / MaxRateTPS
		}
	}
	var reg *Regression
	var err error
	if residuals == Log {
		reg, err = FitLog(x, y, off, w, lower, loss)
	} else {
		for i := range y {
			y[i] -= off[i]
		}
		reg, err = FitBounded(x, y, w, lower, loss)
	}
	if err != nil {
		return out, err
	}
	out.iterations = reg.Iterations
	for k, j := range idx {
		out.beta[j] = reg.Beta[k]
		out.atBound[j] = reg.AtBound[k]
	}
	return out, nil
}

func predictions(lat sim.Latency, rows []latencyRow) (pred, rec []float64) {
	for _, r := range rows {
		pred = append(pred, predict(lat, r))
		rec = append(rec, r.ms)
	}
	return pred, rec
}

// jitterCV is the coefficient of variation of a lognormal factor whose σ is
// the robust spread (MAD / 0.6745) of log(recorded / predicted).
func jitterCV(pred, rec []float64) float64 {
	var l []float64
	for i := range pred {
		if pred[i] > 0 && rec[i] > 0 {
			l = append(l, math.Log(rec[i]/pred[i]))
		}
	}
	if len(l) < 2 {
		return 0
	}
	sort.Float64s(l)
	med := quantileSorted(l, 0.5)
	dev := make([]float64, len(l))
	for i, v := range l {
		dev[i] = math.Abs(v - med)
	}
	sort.Float64s(dev)
	s := quantileSorted(dev, 0.5) / 0.6745
	return math.Sqrt(math.Exp(s*s) - 1)
}

// sessionWeights gives each session the same total weight, so a few long
// sessions (agents looping to a step limit) do not decide the fit.
func sessionWeights(rows []latencyRow) []float64 {
	n := map[string]int{}
	for _, r := range rows {
		n[r.session]++
	}
	w := make([]float64, len(rows))
	for i, r := range rows {
		w[i] = 1 / float64(n[r.session])
	}
	return w
}

func countSessions(rows []latencyRow) int {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.session] = true
	}
	return len(seen)
}
