package plan

import (
	"fmt"
	"math"
	"strconv"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// secondsPerDay turns sessions per day into the mean gap between session
// starts.
const secondsPerDay = 86400

// Names of the results' run.assumptions the cache statement reads.
const (
	warmStartAssumption = "cache_warm_start"
	ttlAssumption       = "cache.ttl_s"
)

// CacheStart states the prompt-cache assumption the per-session figures
// were replayed under (params.cache_warm_start, docs/engine.md §5) against
// the traffic the projection multiplies them by: the warm start that
// Poisson session starts at the projected volume imply, and whether the
// assumption lies within Tolerance of it, colder or warmer.
type CacheStart struct {
	// WarmStart is params.cache_warm_start as the results record it; nil
	// when they record none (a file of an earlier build) or the run did
	// not read it (a model without a prompt cache).
	WarmStart *float64 `json:"cache_warm_start"`
	// Source says where WarmStart comes from.
	Source string `json:"source"`
	// TTLSeconds is the model's cache.ttl_s as the results record it (0:
	// not recorded, or not read).
	TTLSeconds float64 `json:"ttl_s,omitempty"`
	// MeanStartGapSeconds is 86400 s / sessions per day: the mean time
	// between two session starts at the projected volume.
	MeanStartGapSeconds float64 `json:"mean_session_start_gap_s"`
	// MeanSessionSeconds is the mean session_ms, in seconds, of
	// SessionStrategy (the results' baseline): how long past its start a
	// session's requests keep refreshing the cache entry. 0 when the
	// results record none.
	MeanSessionSeconds float64 `json:"mean_session_s,omitempty"`
	SessionStrategy    string  `json:"session_strategy,omitempty"`
	// LifetimeSeconds is TTLSeconds + MeanSessionSeconds: how long a
	// session keeps the static prefix cached from its start.
	LifetimeSeconds float64 `json:"cache_lifetime_s,omitempty"`
	// ImpliedWarmStart is 1 − exp(−LifetimeSeconds/MeanStartGapSeconds):
	// the probability that another session's entry is alive at a
	// session's start under Poisson starts; nil without a WarmStart and a
	// TTL to judge. An upper bound as far as sessions differ in their
	// static prefix (all are taken to share one).
	ImpliedWarmStart *float64 `json:"implied_warm_start"`
	// ImpliedTTLOnly is the same with the TTL alone as the lifetime (the
	// lower bound, should pauses within sessions outlast the TTL); 0 when
	// there is no session time, the implied value being that already.
	ImpliedTTLOnly float64 `json:"implied_warm_start_ttl_only,omitempty"`
	// Tolerance is how far WarmStart may lie from ImpliedWarmStart
	// without a warning (--warm-start-tolerance).
	Tolerance float64 `json:"warm_start_tolerance"`
	// Mismatch is "colder" when WarmStart is below ImpliedWarmStart by
	// more than Tolerance, "warmer" when above it; absent within it. The
	// projection then warns (Projection.Warnings).
	Mismatch string `json:"mismatch,omitempty"`
	// Statement is the line the text and Markdown plans print.
	Statement string `json:"statement"`
}

// cacheStart reads res's cache assumptions and judges the warm start they
// assume against the one perDay sessions a day imply, within tol; the
// second result is the warning when the two differ by more than tol (""
// else).
func cacheStart(res *report.Results, perDay, tol float64) (*CacheStart, string) {
	values := map[string]string{}
	for _, a := range res.Run.Assumptions {
		values[a.Name] = a.Value
	}
	model := res.Run.Model
	if model == "" {
		model = "the run's model"
	}
	c := &CacheStart{MeanStartGapSeconds: secondsPerDay / perDay, Tolerance: tol}
	gap := fmt.Sprintf("sessions start every %s s on average (86400 s / %s sessions/day)", count(c.MeanStartGapSeconds), count(perDay))
	if ttl, err := strconv.ParseFloat(values[ttlAssumption], 64); err == nil && ttl > 0 {
		c.TTLSeconds = ttl
	}
	raw, recorded := values[warmStartAssumption]
	warm, err := strconv.ParseFloat(raw, 64)
	switch {
	case !recorded:
		c.Source = "not recorded in the results (a file of an earlier build)"
		c.Statement = fmt.Sprintf("the results record no params.cache_warm_start (a file of an earlier build): whether each session started with a cold prompt cache is not stated; %s", gap)
		return c, ""
	case err != nil:
		// "not read": a model without a prompt cache.
		c.Source = "results.json run.assumptions: " + raw
		c.Statement = fmt.Sprintf("params.cache_warm_start is %s under %s (no prompt cache to find warm); %s", raw, model, gap)
		return c, ""
	}
	c.WarmStart = &warm
	c.Source = warmStartSource(&res.Run)
	c.Statement = fmt.Sprintf("params.cache_warm_start %g (%s): %s; %s", warm, c.Source, assumedWhat(warm), gap)
	if c.TTLSeconds == 0 {
		c.Statement += fmt.Sprintf("; the results record no cache TTL of %s, so no warm start is implied", model)
		return c, ""
	}
	c.Statement += fmt.Sprintf(", against a cache TTL of %g s (%s)", c.TTLSeconds, model)
	session, strategy := sessionLifetime(res)
	c.judge(session, strategy, tol)
	c.Statement += "; " + c.impliedHow()
	if c.Mismatch == "" {
		return c, ""
	}
	return c, c.warning(perDay, model, sweptWarmStart(&res.Run))
}

// sweptWarmStart is the sweep point that set the results'
// cache_warm_start; nil when the scenario set it (or left it at 0).
func sweptWarmStart(run *sim.RunInfo) *sim.SweepPoint {
	if p := run.SweepPoint; p != nil && p.Param == "params."+warmStartAssumption {
		return p
	}
	return nil
}

// warmStartSource says where the results' cache_warm_start comes from:
// the sweep point that set it (run.sweep_point), else the scenario's
// params.
func warmStartSource(run *sim.RunInfo) string {
	if p := sweptWarmStart(run); p != nil {
		return fmt.Sprintf("results.json run.sweep_point: set by the sweep point %s in place of scenario %q's value", p, run.Scenario)
	}
	s := fmt.Sprintf("results.json run.assumptions: the params of scenario %q, 0 unless it sets the key", run.Scenario)
	if p := run.SweepPoint; p != nil {
		s += fmt.Sprintf("; the sweep point %s set another key", p)
	}
	return s
}

// assumedWhat says in words what a warm start of w means for each session.
func assumedWhat(w float64) string {
	switch w {
	case 0:
		return "every session starts with a cold prompt cache"
	case 1:
		return "every session finds its static prefix already cached by another session"
	}
	return fmt.Sprintf("a session finds its static prefix already cached by another session with probability %g", w)
}

// impliedHow states c's implied warm start with how it is derived and what
// it assumes.
func (c *CacheStart) impliedHow() string {
	lifetime := fmt.Sprintf("the %g s TTL alone (the results record no session time: a lower bound, a live session's requests keep refreshing the entry)", c.TTLSeconds)
	if c.MeanSessionSeconds > 0 {
		lifetime = fmt.Sprintf("the %g s TTL plus %s's (the baseline's) mean session of %s s, every request of a live session refreshing the entry (%s with the TTL alone, should pauses within sessions outlast it)",
			c.TTLSeconds, c.SessionStrategy, count(c.MeanSessionSeconds), probability(c.ImpliedTTLOnly))
	}
	return fmt.Sprintf("the traffic implies a warm start of %s: under Poisson session starts, 1 − exp(−lifetime/gap), the cache lifetime being %s; "+
		"an upper bound, taking every session to share one static prefix (the same tools, system prompt and directory, sent under one account), which the results do not say: "+
		"k equally used server sets start each k times less often; %s",
		probability(*c.ImpliedWarmStart), lifetime, c.verdictTail())
}

// verdictTail says whether c's assumed warm start lies within the
// tolerance of the implied one.
func (c *CacheStart) verdictTail() string {
	if c.Mismatch == "" {
		return fmt.Sprintf("the assumption holds within the %g tolerance", c.Tolerance)
	}
	return fmt.Sprintf("the assumption is %s by %s, more than the %g tolerance", c.Mismatch, c.difference(), c.Tolerance)
}

// difference writes how far c's assumed warm start lies from the implied
// one: two decimals, or as many as it takes to show a difference past the
// tolerance as more than it (0.104 against 0.1 is not "0.1").
func (c *CacheStart) difference() string {
	d := math.Abs(*c.WarmStart - *c.ImpliedWarmStart)
	for digits := 2; digits < 6; digits++ {
		s := strconv.FormatFloat(d, 'f', digits, 64)
		if v, _ := strconv.ParseFloat(s, 64); c.Mismatch == "" || v > c.Tolerance {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return strconv.FormatFloat(d, 'g', -1, 64)
}

// warning is the projection's warning when c's assumption is off the
// traffic's by more than its tolerance, with the way to replay at the
// implied value.
func (c *CacheStart) warning(perDay float64, model string, swept *sim.SweepPoint) string {
	implied := probability(*c.ImpliedWarmStart)
	effect := "sessions that share a static prefix (the same tools and system prompt, sent under the same account or organisation: that depends on the deployment) would find it cached more often than assumed, " +
		"so cache writes, cost and first reply are overstated, most for strategies with a large static prefix (eager)"
	if c.Mismatch == assumedWarmer {
		effect = "sessions would find their static prefix cached less often than assumed (and less often still where they differ in tools or system prompt), " +
			"so cache writes, cost and first reply are understated, most for strategies with a large static prefix (eager)"
	}
	fix := fmt.Sprintf("set cache_warm_start: %s under params: in the scenario's file and rerun it (defersim run SCENARIO.yaml), or measure its effect with defersim sweep SCENARIO.yaml --param params.cache_warm_start=0:1:0.25", implied)
	if swept != nil {
		fix = fmt.Sprintf("these results are the sweep point %s: plan the sweep's point nearest %s instead, or set cache_warm_start: %s under params: in the scenario's file and rerun it (defersim run SCENARIO.yaml)", swept, implied, implied)
	}
	return fmt.Sprintf("params.cache_warm_start is %g (%s), but at %s sessions/day a session starts every %s s on average against %s's %g s cache TTL, "+
		"which implies a warm start of %s (Poisson starts, a %s s cache lifetime: the cache line says how); the assumption is %s by %s, more than the warm-start tolerance %g (--warm-start-tolerance): %s; %s",
		*c.WarmStart, assumedWhat(*c.WarmStart), count(perDay), count(c.MeanStartGapSeconds), model, c.TTLSeconds,
		implied, count(c.LifetimeSeconds), c.Mismatch, c.difference(), c.Tolerance, effect, fix)
}
