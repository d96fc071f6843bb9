package plan

import (
	"fmt"
	"strconv"

	"github.com/defersim/defersim/report"
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
// the traffic the projection multiplies them by: a fleet whose sessions
// start closer together than the model's cache TTL finds a shared static
// prefix cached far more often than a cold-start replay assumes.
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
	// ColdStartUnlikely is true when WarmStart is 0 and sessions start,
	// on average, within TTLSeconds of each other: the projection then
	// warns (Projection.Warnings).
	ColdStartUnlikely bool `json:"cold_start_unlikely"`
	// Statement is the line the text and Markdown plans print.
	Statement string `json:"statement"`
}

// cacheStart reads res's cache assumptions and compares the model's TTL
// with the mean gap between session starts at perDay sessions a day; the
// second result is the warning when a cold start is unlikely ("" else).
func cacheStart(res *report.Results, perDay float64) (*CacheStart, string) {
	values := map[string]string{}
	for _, a := range res.Run.Assumptions {
		values[a.Name] = a.Value
	}
	model := res.Run.Model
	if model == "" {
		model = "the run's model"
	}
	c := &CacheStart{MeanStartGapSeconds: secondsPerDay / perDay}
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
	c.Source = fmt.Sprintf("results.json run.assumptions: the params of scenario %q, 0 unless it sets the key", res.Run.Scenario)
	what := fmt.Sprintf("a session finds its static prefix (tools, system prompt) cached by another session with probability %g", warm)
	if warm == 0 {
		what = "every session starts with a cold prompt cache"
	}
	c.Statement = fmt.Sprintf("params.cache_warm_start %g (%s): %s; %s", warm, c.Source, what, gap)
	if c.TTLSeconds == 0 {
		c.Statement += fmt.Sprintf("; the results record no cache TTL of %s", model)
		return c, ""
	}
	c.Statement += fmt.Sprintf(", against a cache TTL of %g s (%s)", c.TTLSeconds, model)
	if warm != 0 || c.MeanStartGapSeconds >= c.TTLSeconds {
		return c, ""
	}
	c.ColdStartUnlikely = true
	return c, fmt.Sprintf("params.cache_warm_start is 0 (every session starts with a cold prompt cache), but at %s sessions/day a session starts every %s s on average, within %s's %g s cache TTL: "+
		"sessions that share a static prefix (the same tools and system prompt, sent under the same account or organisation: that depends on the deployment) would mostly find it cached, "+
		"so cache writes, cost and first reply are overstated, most for strategies with a large static prefix (eager); "+
		"set params.cache_warm_start in the scenario and rerun, or measure its effect with defersim sweep SCENARIO --param params.cache_warm_start=0:1:0.25",
		count(perDay), count(c.MeanStartGapSeconds), model, c.TTLSeconds)
}
