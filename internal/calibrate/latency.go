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

// Param is one fitted latency parameter.
type Param struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	// Fitted is false when the value was kept from the scenario; Note says why.
	Fitted bool   `json:"fitted"`
	Note   string `json:"note,omitempty"`
}

// LatencyFit is the fitted latency model with its quality.
type LatencyFit struct {
	Split string `json:"split"`
	// Relative: residuals were measured relative to the recorded time.
	Relative    bool `json:"relative_errors"`
	FitSessions int  `json:"fit_sessions"`
	FitRequests int  `json:"fit_requests"`
	// Params: overhead_ms, prefill_tps, cached_prefill_tps, decode_tps, jitter_cv.
	Params []Param `json:"params"`
	// Fit quality on the fit set.
	RSquared     float64   `json:"r_squared"`
	ScaleMs      float64   `json:"robust_scale_ms"`
	Iterations   int       `json:"iterations"`
	FitResiduals Residuals `json:"fit_residuals_ms"`
	// Held-out requests: error of the fitted model and of the scenario's.
	HeldSessions     int          `json:"held_out_sessions"`
	HeldOut          ErrorSummary `json:"held_out"`
	HeldOutBefore    ErrorSummary `json:"held_out_before"`
	HeldOutResiduals Residuals    `json:"held_out_residuals_ms"`
	HeldOutRSquared  float64      `json:"held_out_r_squared"`
	Latency          sim.Latency  `json:"latency"`
	ScenarioLatency  sim.Latency  `json:"scenario_latency"`
}

type latencyRow struct {
	unc, read, out, ms float64
	session            string
	fit                bool
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
			if !r.Fit || r.RecordedMs <= 0 {
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
		if r.RecordedMs <= 0 {
			continue
		}
		row := latencyRow{ms: r.RecordedMs, session: r.Session, fit: r.Fit}
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

// predict returns a request's time under lat, without jitter.
func predict(lat sim.Latency, r latencyRow) float64 {
	return lat.OverheadMs + r.unc/lat.PrefillTPS*1000 + r.read/lat.CachedPrefillTPS*1000 + r.out/lat.DecodeTPS*1000
}

// fitLatency fits time = overhead + uncached·a + read·b + output·c (ms) on
// the fit requests with a recorded duration; the rates are 1000/a etc. A
// column that is zero everywhere, or whose coefficient comes out zero or
// negative, keeps the scenario's value (its contribution is subtracted and
// the rest refitted); a negative overhead is fixed at 0.
func fitLatency(reqs []Request, split string, scen sim.Latency, loss Loss) (*LatencyFit, error) {
	rows, split := latencyRows(reqs, split)
	var fitRows, held []latencyRow
	for _, r := range rows {
		if r.fit {
			fitRows = append(fitRows, r)
		} else {
			held = append(held, r)
		}
	}
	if len(fitRows) < 5 {
		return nil, fmt.Errorf("latency: %d fit requests with a recorded duration (need 5 or more)", len(fitRows))
	}
	f := &LatencyFit{Split: split, FitRequests: len(fitRows), ScenarioLatency: scen}
	f.FitSessions = countSessions(fitRows)
	f.HeldSessions = countSessions(held)

	names := []string{"overhead_ms", "prefill_tps", "cached_prefill_tps", "decode_tps"}
	kept := [4]float64{scen.OverheadMs, 1000 / scen.PrefillTPS, 1000 / scen.CachedPrefillTPS, 1000 / scen.DecodeTPS}
	free := [4]bool{true, true, true, true}
	notes := [4]string{}
	col := func(r latencyRow, j int) float64 {
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
	for j := 1; j < 4; j++ {
		var xs []float64
		for _, r := range fitRows {
			xs = append(xs, col(r, j))
		}
		if variance(xs) == 0 {
			free[j] = false
			notes[j] = "kept: this column does not vary in the fit set"
			if j == 2 && split == SplitRecorded {
				notes[j] = "kept: the recorded usage does not split cached from uncached prompt tokens"
			}
		}
	}
	var beta [4]float64
	for round := 0; ; round++ {
		var idx []int
		for j := range free {
			if free[j] {
				idx = append(idx, j)
			}
		}
		x := make([][]float64, len(fitRows))
		y := make([]float64, len(fitRows))
		for i, r := range fitRows {
			y[i] = r.ms
			for j := range free {
				if !free[j] {
					y[i] -= kept[j] * col(r, j)
				}
			}
			for _, j := range idx {
				x[i] = append(x[i], col(r, j))
			}
		}
		if len(idx) == 0 {
			break
		}
		reg, err := FitWeighted(x, y, sessionWeights(fitRows), loss)
		if err != nil {
			return nil, fmt.Errorf("latency: %w", err)
		}
		f.Iterations = reg.Iterations
		again := false
		for k, j := range idx {
			v := reg.Beta[k]
			beta[j] = v
			if j == 0 && v < 0 {
				free[0], kept[0] = false, 0
				notes[0] = fmt.Sprintf("fixed at 0 (fitted %.0f ms)", v)
				again = true
			} else if j > 0 && v <= 0 {
				free[j] = false
				notes[j] = fmt.Sprintf("kept: fitted %.3g ms per token, not a positive rate", v)
				again = true
			}
		}
		if !again || round > 4 {
			break
		}
	}
	lat := scen
	vals := [4]float64{}
	for j := range free {
		c := kept[j]
		if free[j] {
			c = beta[j]
		}
		if j == 0 {
			vals[j] = c
		} else {
			vals[j] = 1000 / c
		}
	}
	lat.OverheadMs = round(vals[0], 0)
	lat.PrefillTPS = round(vals[1], 0)
	lat.CachedPrefillTPS = round(vals[2], 0)
	lat.DecodeTPS = round(vals[3], 1)
	for j, n := range names {
		v := []float64{lat.OverheadMs, lat.PrefillTPS, lat.CachedPrefillTPS, lat.DecodeTPS}[j]
		f.Params = append(f.Params, Param{Name: n, Value: v, Fitted: free[j], Note: notes[j]})
	}
	// Quality on the fit set, then jitter from the log-ratio spread.
	lat.JitterCV = 0
	pred, rec := predictions(lat, fitRows)
	f.RSquared = rSquared(pred, rec)
	f.FitResiduals = residualQuantiles(pred, rec)
	res := make([]float64, len(pred))
	for i := range pred {
		res[i] = rec[i] - pred[i]
	}
	f.ScaleMs = madScale(res)
	lat.JitterCV = round(jitterCV(pred, rec), 2)
	f.Params = append(f.Params, Param{Name: "jitter_cv", Value: lat.JitterCV, Fitted: true,
		Note: "spread of recorded / predicted time (robust)"})
	f.Latency = lat
	if len(held) > 0 {
		noJitter := lat
		noJitter.JitterCV = 0
		p, r := predictions(noJitter, held)
		f.HeldOut = summarizeErrors(p, r)
		f.HeldOutResiduals = residualQuantiles(p, r)
		f.HeldOutRSquared = rSquared(p, r)
		p0, _ := predictions(scen, held)
		f.HeldOutBefore = summarizeErrors(p0, r)
	}
	return f, nil
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
