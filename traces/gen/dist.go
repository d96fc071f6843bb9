package gen

import (
	"fmt"
	"math"
)

// Dist is a log-normal distribution given by its median and the standard
// deviation of its logarithm (Sigma), clipped to [Min, Max]. Sigma 0 always
// gives the median. Max is required (a bound keeps every draw, and so memory
// and output size, finite). Right-skewed positive
// quantities (schema sizes, text lengths, pauses, counts) all use it.
type Dist struct {
	Median float64 `yaml:"median" json:"median"`
	Sigma  float64 `yaml:"sigma" json:"sigma"`
	Min    float64 `yaml:"min,omitempty" json:"min,omitempty"`
	Max    float64 `yaml:"max,omitempty" json:"max,omitempty"`
}

// LogNormal returns a Dist with the given median and log-space deviation,
// clipped to [lo, hi].
func LogNormal(median, sigma, lo, hi float64) Dist {
	return Dist{Median: median, Sigma: sigma, Min: lo, Max: hi}
}

// sample draws one value.
func (d Dist) sample(r *rng) float64 {
	x := d.Median
	if d.Sigma > 0 {
		x = d.Median * math.Exp(d.Sigma*r.normal())
	}
	return d.clip(x)
}

// sampleInt draws one value rounded to the nearest integer (after clipping).
func (d Dist) sampleInt(r *rng) int {
	return int(math.Round(d.sample(r)))
}

func (d Dist) clip(x float64) float64 {
	if x < d.Min {
		x = d.Min
	}
	if x > d.Max {
		x = d.Max
	}
	return x
}

// quantile returns the value at cumulative probability u in (0, 1).
func (d Dist) quantile(u float64) float64 {
	z := math.Sqrt2 * math.Erfinv(2*u-1)
	return d.clip(d.Median * math.Exp(d.Sigma*z))
}

// Mean returns the mean of the clipped distribution, computed by numerical
// integration of its quantile function. When rounded is true it is the mean
// of sampleInt (values rounded to integers).
func (d Dist) Mean(rounded bool) float64 {
	const n = 20000
	sum := 0.0
	for i := 0; i < n; i++ {
		x := d.quantile((float64(i) + 0.5) / n)
		if rounded {
			x = math.Round(x)
		}
		sum += x
	}
	return sum / n
}

// validate checks that the distribution is usable: finite, a positive
// median within [lo, hi], non-negative sigma, and 0 <= Min <= Max <= hi.
func (d Dist) validate(name string, lo, hi float64) error {
	for _, f := range []struct {
		n string
		v float64
	}{{"median", d.Median}, {"sigma", d.Sigma}, {"min", d.Min}, {"max", d.Max}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s.%s: not a finite number", name, f.n)
		}
	}
	switch {
	case d.Median <= 0:
		return fmt.Errorf("%s.median: must be > 0 (got %g)", name, d.Median)
	case d.Sigma < 0 || d.Sigma > 5:
		return fmt.Errorf("%s.sigma: must be in [0, 5] (got %g)", name, d.Sigma)
	case d.Min < 0:
		return fmt.Errorf("%s.min: must be >= 0 (got %g)", name, d.Min)
	case d.Max < d.Min || d.Max <= 0:
		return fmt.Errorf("%s.max: must be >= min (got %g < %g)", name, d.Max, d.Min)
	case d.Median < lo || d.Median > hi:
		return fmt.Errorf("%s.median: must be in [%g, %g] (got %g)", name, lo, hi, d.Median)
	case d.Max > hi:
		return fmt.Errorf("%s.max: must be <= %g (got %g)", name, hi, d.Max)
	}
	return nil
}
