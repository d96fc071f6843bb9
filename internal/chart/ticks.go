package chart

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Format turns an axis or label value into text.
type Format func(float64) string

func (f Format) apply(v float64) string {
	if f == nil {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	return f(v)
}

// linearTicks returns about six labelled ticks at a 1-2-5 step.
func linearTicks(f Format) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		if !(max > min) || math.IsInf(max-min, 0) {
			return []plot.Tick{{Value: min, Label: f.apply(min)}}
		}
		step := niceStep((max - min) / 6)
		var ticks []plot.Tick
		for i := math.Ceil(min/step - 1e-9); ; i++ {
			v := i * step
			if v > max+step*1e-9 || len(ticks) > 50 {
				break
			}
			if math.Abs(v) < step*1e-9 {
				v = 0
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: f.apply(v)})
		}
		return ticks
	})
}

// niceRange widens [min, max] to whole steps of the ticks linearTicks
// draws, after a margin of 3% of the span, so that the lowest and highest
// data (and whisker caps) sit inside the axis between labelled ticks.
func niceRange(min, max float64) (float64, float64) {
	if !(max >= min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return min, max
	}
	span := max - min
	if span == 0 {
		span = math.Max(math.Abs(max)*0.1, 1)
	}
	lo, hi := min-0.03*span, max+0.03*span
	if min >= 0 && lo < 0 {
		lo = 0 // a non-negative quantity keeps its axis at 0 or above
	}
	step := niceStep((hi - lo) / 6)
	return math.Floor(lo/step+1e-9) * step, math.Ceil(hi/step-1e-9) * step
}

// logRange widens [min, max] (both > 0) to the nearest 1, 2 or 5 times a
// power of ten outside it: labelled ticks of logTicks at both ends.
func logRange(min, max float64) (float64, float64) {
	down := func(v float64) float64 {
		p := math.Pow10(int(math.Floor(math.Log10(v))))
		for _, m := range []float64{5, 2, 1} {
			if m*p <= v*(1+1e-9) {
				return m * p
			}
		}
		return p
	}
	up := func(v float64) float64 {
		p := math.Pow10(int(math.Floor(math.Log10(v))))
		for _, m := range []float64{1, 2, 5, 10} {
			if m*p >= v*(1-1e-9) {
				return m * p
			}
		}
		return 10 * p
	}
	return down(min), up(max)
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	p := math.Pow10(int(math.Floor(math.Log10(x))))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// logTicks returns ticks for a log axis: labels at 1, 2 and 5 per decade
// (only at 1 when the range spans more than three decades), minor ticks at
// the other integers.
func logTicks(f Format) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		if min <= 0 || !(max > min) {
			return nil
		}
		wide := math.Log10(max/min) > 3
		var ticks []plot.Tick
		for d := math.Floor(math.Log10(min)); d <= math.Ceil(math.Log10(max)) && len(ticks) < 200; d++ {
			p := math.Pow10(int(d))
			for m := 1; m < 10; m++ {
				v := float64(m) * p
				if v < min*(1-1e-9) || v > max*(1+1e-9) {
					continue
				}
				t := plot.Tick{Value: v}
				if m == 1 || (!wide && (m == 2 || m == 5)) {
					t.Label = f.apply(v)
				}
				ticks = append(ticks, t)
			}
		}
		return ticks
	})
}
