package stats

import (
	"slices"

	mstats "github.com/montanaflynn/stats"
)

// Summary describes one series.
type Summary struct {
	Count int
	// Mean, Sum and StdDev come from montanaflynn/stats; StdDev is the sample
	// standard deviation (n−1 divisor), 0 for fewer than two values.
	Mean, StdDev, Sum float64
	Min, Max          float64
	// P50…P99 are type-7 quantiles (see Quantile).
	P50, P90, P95, P99 float64
	// Grid holds quantiles at evenly spaced q from 0 to 1 (see Grid).
	Grid []float64
	// Constant is true when every value is equal.
	Constant bool
}

// Summarize describes x with a quantile grid of gridPoints values. x is not
// modified; the zero Summary describes an empty series.
func Summarize(x []float64, gridPoints int) Summary {
	if len(x) == 0 {
		return Summary{}
	}
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	s := Summary{
		Count:    len(x),
		Min:      sorted[0],
		Max:      sorted[len(sorted)-1],
		P50:      Quantile(sorted, 0.50),
		P90:      Quantile(sorted, 0.90),
		P95:      Quantile(sorted, 0.95),
		P99:      Quantile(sorted, 0.99),
		Grid:     Grid(sorted, gridPoints),
		Constant: sorted[0] == sorted[len(sorted)-1],
	}
	data := mstats.Float64Data(x)
	s.Sum, _ = data.Sum()
	s.Mean, _ = mstats.Mean(data)
	if len(x) > 1 && !s.Constant {
		s.StdDev, _ = mstats.StandardDeviationSample(data)
	}
	return s
}
