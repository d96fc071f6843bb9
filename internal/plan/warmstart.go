package plan

import (
	"fmt"
	"math"
	"strconv"

	"github.com/defersim/defersim/report"
)

// DefaultWarmStartTolerance is how far params.cache_warm_start may lie from
// the warm start the projected traffic implies before plan warns
// (--warm-start-tolerance). The replay draws a warm start per session with
// that probability, so every expected per-session figure is linear in it: a
// difference of 0.1 moves cache writes, cost and first reply by a tenth of
// the way between an all-cold and an all-warm fleet (docs/plan.md measures
// that way on the default run). The implied value itself rests on Poisson
// starts at the daily mean rate, which traffic bunched into working hours
// does not follow: closer than about a tenth, the model does not tell the
// two apart.
const DefaultWarmStartTolerance = 0.1

// CheckWarmStartTolerance refuses a tolerance that is not a probability
// difference below 1 (flag names it in the message): a negative one, and 1
// or more, which no two probabilities differ by, so nothing would ever be
// said.
func CheckWarmStartTolerance(flag string, tol float64) error {
	switch {
	case math.IsNaN(tol) || tol < 0:
		return fmt.Errorf("%s %v: want a difference of probabilities, 0 or more and below 1 (default %g)", flag, tol, DefaultWarmStartTolerance)
	case tol >= 1:
		hint := ""
		if tol > 1 {
			hint = fmt.Sprintf("; for %g%% type %g", tol, tol/100)
		}
		return fmt.Errorf("%s %v: two warm-start probabilities never differ by more than 1, so plan would never warn: want 0 or more and below 1 (default %g)%s",
			flag, tol, DefaultWarmStartTolerance, hint)
	}
	return nil
}

// Directions of CacheStart.Mismatch: the assumption against the traffic.
const (
	// assumedColder: params.cache_warm_start is below the implied value
	// by more than the tolerance.
	assumedColder = "colder"
	// assumedWarmer: above it by more than the tolerance.
	assumedWarmer = "warmer"
)

// impliedWarmStart is the probability that a session finds its static
// prefix cached when sessions start as a Poisson process with mean gap gap
// seconds and each keeps the cache entry alive for lifetime seconds from
// its start: the number of live entries at a start is Poisson with mean
// lifetime/gap (whatever the lifetimes' spread, only their mean counts),
// and the prefix is warm when that number is not 0.
func impliedWarmStart(lifetime, gap float64) float64 {
	return -math.Expm1(-lifetime / gap)
}

// sessionLifetime is the mean time, in seconds, that a session keeps its
// static prefix's cache entry alive beyond the TTL: the mean session_ms of
// res's baseline strategy (its first when none is marked), whose every
// request refreshes the entry. 0 and "" when the results record no
// session time.
func sessionLifetime(res *report.Results) (seconds float64, strategy string) {
	if len(res.Strategies) == 0 {
		return 0, ""
	}
	s := res.Strategies[0]
	for _, o := range res.Strategies {
		if o.Name == res.BaselineName() {
			s = o
			break
		}
	}
	d, ok := s.Metrics["session_ms"]
	if !ok || d.Count == 0 || !(d.Mean > 0) || math.IsInf(d.Mean, 0) {
		return 0, ""
	}
	return d.Mean / 1000, s.Name
}

// judge sets c's implied warm start, from its TTL, the mean session time
// (seconds, of strategy) and its mean start gap, and whether c's assumed
// warm start differs from it by more than tol.
func (c *CacheStart) judge(session float64, strategy string, tol float64) {
	c.Tolerance = tol
	c.MeanSessionSeconds, c.SessionStrategy = session, strategy
	c.LifetimeSeconds = c.TTLSeconds + session
	implied := impliedWarmStart(c.LifetimeSeconds, c.MeanStartGapSeconds)
	c.ImpliedWarmStart = &implied
	if session > 0 {
		c.ImpliedTTLOnly = impliedWarmStart(c.TTLSeconds, c.MeanStartGapSeconds)
	}
	switch d := *c.WarmStart - implied; {
	case d < -tol:
		c.Mismatch = assumedColder
	case d > tol:
		c.Mismatch = assumedWarmer
	}
}

// probability writes a warm-start probability as a scenario would take it:
// two decimals, trailing zeros dropped ("0.6", "0.09", "1").
func probability(p float64) string {
	return strconv.FormatFloat(math.Round(p*100)/100, 'f', -1, 64)
}
