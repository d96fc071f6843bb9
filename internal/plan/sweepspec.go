package plan

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// maxSweepPoints bounds the values of one sweep.
const maxSweepPoints = 200

// SweepSpec varies one numeric scenario parameter over [From, To] by Step.
type SweepSpec struct {
	Param string  `json:"param"`
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Step  float64 `json:"step"`
}

// ParseSweep parses PATH=FROM:TO:STEP, e.g. strategy.trigger.budget=2000:16000:2000.
func ParseSweep(s string) (SweepSpec, error) {
	path, rng, ok := strings.Cut(s, "=")
	parts := strings.Split(rng, ":")
	if !ok || path == "" || len(parts) != 3 {
		return SweepSpec{}, fmt.Errorf("%q: want PATH=FROM:TO:STEP (e.g. strategy.trigger.budget=2000:16000:2000)", s)
	}
	var v [3]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SweepSpec{}, fmt.Errorf("%q: %q is not a number", s, p)
		}
		v[i] = x
	}
	sp := SweepSpec{Param: path, From: v[0], To: v[1], Step: v[2]}
	return sp, sp.Check()
}

// Check validates the range and the parameter path.
func (s SweepSpec) Check() error {
	switch {
	case !(s.Step > 0):
		return fmt.Errorf("sweep %s: step %v must be positive", s.Param, s.Step)
	case s.To < s.From:
		return fmt.Errorf("sweep %s: to %v is below from %v", s.Param, s.To, s.From)
	case s.To == s.From:
		// One value compares nothing: no row could be marked unchanged
		// and the plots would hold one point per strategy.
		return fmt.Errorf("sweep %s: from and to are both %v: one value compares nothing; give a to above it (e.g. %v:%v:%v), or set the value in the scenario and use defersim run",
			s.Param, s.From, s.From, roundValue(s.From+2*s.Step), s.Step)
	case (s.To-s.From)/s.Step >= maxSweepPoints:
		return fmt.Errorf("sweep %s: more than %d values", s.Param, maxSweepPoints)
	}
	// The last value is To: a range whose end is off the grid would end
	// short of it without saying so.
	if n := (s.To - s.From) / s.Step; math.Abs(n-math.Round(n)) > 1e-6 {
		last := s.From + math.Floor(n)*s.Step
		return fmt.Errorf("sweep %s: to %v is not reached from %v in steps of %v (the last value would be %v): choose to %v or %v",
			s.Param, s.To, s.From, s.Step, roundValue(last), roundValue(last), roundValue(last+s.Step))
	}
	fields, err := numericField(&scenarios.Scenario{Strategies: []sim.Strategy{{}}}, s.Param)
	if err != nil {
		return err
	}
	return s.checkValues(fields[0].Kind() != reflect.Float64)
}

// Values lists From, From+Step, … up to To (within rounding). Values are
// rounded to 9 decimals where that is finer than a float64's resolution.
func (s SweepSpec) Values() []float64 {
	var out []float64
	for i := 0; ; i++ {
		v := s.From + float64(i)*s.Step
		if v > s.To+s.Step*1e-9 || i >= maxSweepPoints {
			break
		}
		out = append(out, roundValue(v))
	}
	return out
}

// roundValue rounds a sweep value to 9 decimals where that is finer than
// a float64's resolution.
func roundValue(v float64) float64 {
	if math.Abs(v) < 1e6 {
		v = math.Round(v*1e9) / 1e9
	}
	return v
}

// maxExactInt is 2^63, the first float64 above every int64.
const maxExactInt = 9223372036854775808.0

// checkValues refuses values that cannot be told apart (a step below the
// resolution of a float64 at that magnitude) and, for an integer
// parameter, values outside int64 (they would wrap around).
func (s SweepSpec) checkValues(integer bool) error {
	vs := s.Values()
	for i, v := range vs {
		if i > 0 && v == vs[i-1] {
			return fmt.Errorf("sweep %s: step %v is below the resolution of a float64 at %v (the values repeat)", s.Param, s.Step, v)
		}
		if integer && (v >= maxExactInt || v < -maxExactInt) {
			return fmt.Errorf("sweep %s: %v does not fit a 64-bit integer", s.Param, v)
		}
	}
	return nil
}
