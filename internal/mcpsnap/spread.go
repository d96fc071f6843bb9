package mcpsnap

import (
	"math"
	"slices"
	"time"
)

// Spread summarises one timing over several captures, in milliseconds.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	// Samples are the per-capture values in capture order.
	Samples []float64 `json:"samples"`
}

// newSpread summarises durations; the median of an even count is the mean
// of the two middle values. Values are rounded to the microsecond.
func newSpread(ds []time.Duration) Spread {
	s := Spread{Samples: make([]float64, len(ds))}
	if len(ds) == 0 {
		return s
	}
	for i, d := range ds {
		s.Samples[i] = ms(d)
	}
	sorted := slices.Clone(s.Samples)
	slices.Sort(sorted)
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	n := len(sorted)
	if n%2 == 1 {
		s.Median = sorted[n/2]
	} else {
		s.Median = round3((sorted[n/2-1] + sorted[n/2]) / 2)
	}
	return s
}

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
