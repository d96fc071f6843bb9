package stats

import "math"

// Z95 is the standard normal quantile of 0.975: a two-sided 95% interval
// of a normal estimate is ±Z95 standard errors.
const Z95 = 1.959964

// NormalHalfWidth is the half-width of the normal-approximation 95%
// interval of a mean of n values with sample standard deviation sd,
// Z95·sd/√n; 0 when n < 2 (no spread is known). `plan` projects and
// `check` compares the means the results did not bootstrap with it.
func NormalHalfWidth(sd float64, n int) float64 {
	if n < 2 {
		return 0
	}
	return Z95 * sd / math.Sqrt(float64(n))
}
