package calibrate

import "math"

// round rounds v to places decimal places.
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
