package sim

import (
	"math"
	"sort"
)

// SummarizeFidelity turns per-request pairs into error figures: the median
// and 90th percentile of |simulated − recorded| / recorded, and the mean
// signed relative error (positive: the replay over-counts).
func SummarizeFidelity(strategy string, pairs []FidelityPair) *Fidelity {
	if len(pairs) == 0 {
		return nil
	}
	f := &Fidelity{Strategy: strategy}
	var abs, lat []float64
	var sum float64
	for _, p := range pairs {
		if p.RecordedInput > 0 {
			rel := float64(p.SimInput-p.RecordedInput) / float64(p.RecordedInput)
			abs = append(abs, math.Abs(rel))
			sum += rel
		}
		if p.RecordedMs > 0 {
			lat = append(lat, math.Abs(p.SimMs-p.RecordedMs)/p.RecordedMs)
		}
	}
	f.Requests = int64(len(abs))
	if len(abs) > 0 {
		f.InputMedianAbsRelErr = quantile(abs, 0.5)
		f.InputP90AbsRelErr = quantile(abs, 0.9)
		f.InputMeanRelErr = sum / float64(len(abs))
	}
	f.LatencyRequests = int64(len(lat))
	if len(lat) > 0 {
		f.LatencyMedianAbsRelErr = quantile(lat, 0.5)
		f.LatencyP90AbsRelErr = quantile(lat, 0.9)
	}
	return f
}

// quantile is the linear-interpolation quantile (type 7) of xs; xs is sorted in place.
func quantile(xs []float64, q float64) float64 {
	sort.Float64s(xs)
	if len(xs) == 1 {
		return xs[0]
	}
	pos := q * float64(len(xs)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(xs)-1)
	return xs[lo] + (xs[hi]-xs[lo])*(pos-float64(lo))
}
