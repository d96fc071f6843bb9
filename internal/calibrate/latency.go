package calibrate

import (
	"fmt"
	"math"
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
	// Fitted is false when the value was kept from the scenario; Note says
	// why, or how a fitted value was decided (a bound).
	Fitted bool   `json:"fitted"`
	Note   string `json:"note,omitempty"`
}

// LatencyFit is the fitted latency model with its quality on the fit set.
type LatencyFit struct {
	Split string `json:"split"`
	// Residuals: log or absolute.
	Residuals string `json:"residuals"`
	// TTFT: time to first token and decoding were fitted separately, on the
	// recorded time to first token.
	TTFT        bool `json:"ttft_separate"`
	FitSessions int  `json:"fit_sessions"`
	FitRequests int  `json:"fit_requests"`
	// Params: overhead_ms, prefill_tps, cached_prefill_tps, decode_tps, jitter_cv.
	Params []Param `json:"params"`
	// Fit quality on the fit set (deterministic predictions).
	RSquared     float64   `json:"r_squared"`
	ScaleMs      float64   `json:"robust_scale_ms"`
	Iterations   int       `json:"iterations"`
	FitResiduals Residuals `json:"fit_residuals_ms"`
	// JitterCV is the spread of recorded / predicted time on the fit set
	// (always measured; in Latency only when asked for).
	JitterCV float64 `json:"fitted_jitter_cv"`
	// Latency is what the written scenario gets; ScenarioLatency the start.
	Latency         sim.Latency `json:"latency"`
	ScenarioLatency sim.Latency `json:"scenario_latency"`
}

type latencyRow struct {
	unc, read, out, ms, ttft float64
	session                  string
	role                     Role
	afterUser                bool
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
		row := latencyRow{ms: r.RecordedMs, ttft: r.TTFTMs, session: r.Session, role: r.Role, afterUser: r.AfterUser}
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

// predict returns a request's time under lat, without jitter: the engine's
// formula (sim replay), time to first token plus decoding.
func predict(lat sim.Latency, r latencyRow) float64 {
	return predictTTFT(lat, r) + r.out/lat.DecodeTPS*1000
}

func predictTTFT(lat sim.Latency, r latencyRow) float64 {
	return lat.OverheadMs + r.unc/lat.PrefillTPS*1000 + r.read/lat.CachedPrefillTPS*1000
}

// Latency columns: the constant and the three token counts.
var latencyNames = [4]string{"overhead_ms", "prefill_tps", "cached_prefill_tps", "decode_tps"}

func col(r latencyRow, j int) float64 {
	switch j {
	case 1:
		return r.unc
	case 2:
		return r.read
	case 3:
		return r.out
	}
	return 1
}

// fitLatency fits time = overhead + uncached·a + read·b + output·c (ms) on
// the fit requests with a recorded duration, by robust regression bounded
// below (overhead ≥ 0, a, b, c ≥ 1000/MaxRateTPS); the rates are 1000/a
// etc. When every fit request records its time to first token, the first
// three terms are fitted on it and c on the decoding time that follows. A
// column that does not vary in the fit set keeps the scenario's value.
func fitLatency(reqs []Request, split, residuals string, scen sim.Latency, loss Loss) (*LatencyFit, error) {
	rows, split := latencyRows(reqs, split)
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
	f := &LatencyFit{Split: split, Residuals: residuals, TTFT: ttft, FitRequests: len(fitRows), ScenarioLatency: scen}
	f.FitSessions = countSessions(fitRows)

	kept := [4]float64{scen.OverheadMs, 1000 / scen.PrefillTPS, 1000 / scen.CachedPrefillTPS, 1000 / scen.DecodeTPS}
	var coef [4]float64
	var free [4]bool
	var notes [4]string
	free[0] = true
	for j := 1; j < 4; j++ {
		xs := make([]float64, len(fitRows))
		for i, r := range fitRows {
			xs[i] = col(r, j)
		}
		free[j] = variance(xs) > 0
		if !free[j] {
			notes[j] = "kept: this column does not vary in the fit set"
			if j == 2 && split == SplitRecorded {
				notes[j] = "kept: the recorded usage does not split cached from uncached prompt tokens"
			}
		}
	}
	target := func(r latencyRow) float64 { return r.ms }
	groups := [][]int{{0, 1, 2, 3}}
	if ttft {
		// Time to first token on (1, uncached, read); decoding on output.
		groups = [][]int{{0, 1, 2}, {3}}
	}
	for gi, g := range groups {
		tgt := target
		if ttft {
			if gi == 0 {
				tgt = func(r latencyRow) float64 { return r.ttft }
			} else {
				tgt = func(r latencyRow) float64 { return r.ms - r.ttft }
			}
		}
		res, err := fitColumns(fitRows, g, free, kept, tgt, residuals, loss)
		if err != nil {
			return nil, fmt.Errorf("latency: %w", err)
		}
		f.Iterations = max(f.Iterations, res.iterations)
		for _, j := range g {
			if free[j] {
				coef[j] = res.beta[j]
				if res.atBound[j] {
					if j == 0 {
						notes[j] = "at its bound 0: the data would give a negative overhead"
					} else {
						notes[j] = fmt.Sprintf("at its bound %g tokens/s: these tokens show no measurable time", MaxRateTPS)
					}
				}
			} else {
				coef[j] = kept[j]
			}
		}
	}
	lat := scen
	lat.OverheadMs = round(coef[0], 0)
	lat.PrefillTPS = roundRate(1000 / coef[1])
	lat.CachedPrefillTPS = roundRate(1000 / coef[2])
	lat.DecodeTPS = round(1000/coef[3], 1)
	lat.JitterCV = 0
	vals := []float64{lat.OverheadMs, lat.PrefillTPS, lat.CachedPrefillTPS, lat.DecodeTPS}
	for j, n := range latencyNames {
		f.Params = append(f.Params, Param{Name: n, Value: vals[j], Fitted: free[j], Note: notes[j]})
	}
	pred, rec := predictions(lat, fitRows)
	f.RSquared = rSquared(pred, rec)
	f.FitResiduals = residualQuantiles(pred, rec)
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
	beta       [4]float64
	atBound    [4]bool
	iterations int
}

// fitColumns fits target ≈ Σ_j∈g coef_j · col_j over the free columns of g
// (the kept ones' contribution known), bounded below, with residuals on a
// log scale or absolute, every session weighing the same.
func fitColumns(rows []latencyRow, g []int, free [4]bool, kept [4]float64, target func(latencyRow) float64, residuals string, loss Loss) (columnsFit, error) {
	var out columnsFit
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
				o += kept[j] * col(r, j)
			}
		}
		xi := make([]float64, len(idx))
		for k, j := range idx {
			xi[k] = col(r, j)
		}
		x, y, w, off = append(x, xi), append(y, t), append(w, weights[i]), append(off, o)
	}
	lower := make([]float64, len(idx))
	for k, j := range idx {
		if j == 0 {
			lower[k] = 0
		} else {
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

func round(v float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(v*p) / p
}

// roundRate rounds a rate to whole tokens per second (three significant
// digits below 1,000).
func roundRate(v float64) float64 {
	if v < 1000 {
		return round(v, 2-int(math.Floor(math.Log10(math.Max(v, 1e-9)))))
	}
	return round(v, 0)
}
