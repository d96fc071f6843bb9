package calibrate

import (
	"math"
	"sort"
)

// ErrorSummary describes relative errors |pred − rec| / rec over requests.
type ErrorSummary struct {
	Requests int `json:"requests"`
	// MedianAbsRel and P90AbsRel: median and 90th percentile of the
	// absolute relative error; MeanRel: mean signed relative error
	// (positive: the model over-predicts).
	MedianAbsRel float64 `json:"median_abs_rel_err"`
	P90AbsRel    float64 `json:"p90_abs_rel_err"`
	MeanRel      float64 `json:"mean_rel_err"`
}

func summarizeErrors(pred, rec []float64) ErrorSummary {
	var abs []float64
	var sum float64
	for i := range pred {
		if rec[i] <= 0 {
			continue
		}
		r := (pred[i] - rec[i]) / rec[i]
		abs = append(abs, math.Abs(r))
		sum += r
	}
	s := ErrorSummary{Requests: len(abs)}
	if len(abs) == 0 {
		return s
	}
	sort.Float64s(abs)
	s.MedianAbsRel = quantileSorted(abs, 0.5)
	s.P90AbsRel = quantileSorted(abs, 0.9)
	s.MeanRel = sum / float64(len(abs))
	return s
}

// Residuals are quantiles of recorded − predicted, in the fitted unit.
type Residuals struct {
	P05 float64 `json:"p05"`
	P25 float64 `json:"p25"`
	P50 float64 `json:"p50"`
	P75 float64 `json:"p75"`
	P95 float64 `json:"p95"`
}

func residualQuantiles(pred, rec []float64) Residuals {
	r := make([]float64, len(pred))
	for i := range pred {
		r[i] = rec[i] - pred[i]
	}
	sort.Float64s(r)
	return Residuals{P05: quantileSorted(r, 0.05), P25: quantileSorted(r, 0.25), P50: quantileSorted(r, 0.5),
		P75: quantileSorted(r, 0.75), P95: quantileSorted(r, 0.95)}
}

// rSquared is 1 − SSres/SStot of predictions.
func rSquared(pred, rec []float64) float64 {
	var mean float64
	for _, v := range rec {
		mean += v
	}
	mean /= float64(len(rec))
	var ssr, sst float64
	for i := range rec {
		ssr += (rec[i] - pred[i]) * (rec[i] - pred[i])
		sst += (rec[i] - mean) * (rec[i] - mean)
	}
	if sst == 0 {
		return math.NaN()
	}
	return 1 - ssr/sst
}

// rSquaredLog is rSquared of the logarithms: the share of the variance of
// log times the predictions explain (NaN without positive values).
func rSquaredLog(pred, rec []float64) float64 {
	var lp, lr []float64
	for i := range rec {
		if pred[i] > 0 && rec[i] > 0 {
			lp, lr = append(lp, math.Log(pred[i])), append(lr, math.Log(rec[i]))
		}
	}
	if len(lr) == 0 {
		return math.NaN()
	}
	return rSquared(lp, lr)
}

// sessionsOf counts distinct sessions of the requests.
func sessionsOf(rs []*Request) int {
	seen := map[string]bool{}
	for _, r := range rs {
		seen[r.Session] = true
	}
	return len(seen)
}

// variance of xs (population).
func variance(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return v / float64(len(xs))
}
