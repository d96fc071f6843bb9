package plan

import (
	"fmt"
	"strings"
)

// GrowthCache states, for every growth point, the prompt-cache assumption
// its replay ran under (its results' run.assumptions) against the
// projection's sessions per day: each point's Cache is set, and the lines
// returned say it for the text and Markdown plans. The growth factors
// multiply the catalog, not the traffic, so the mean gap between session
// starts is the projection's at every point; what can differ is the
// assumption itself (a --scenario with another params.cache_warm_start or
// model than the results', said when it differs from proj's). When every
// point agrees the lines are one; otherwise one per point, and a warning
// from the first point where a cold start is unlikely. Where it is, each point's cost per session and where
// cost breaks down are cold-start figures, overstated most where the
// static prefix is largest (eager on the larger catalogs).
func GrowthCache(proj *Projection, pts []GrowthPoint) []string {
	perDay := proj.SessionsPerDay
	for i := range pts {
		pts[i].Cache, _ = cacheStart(pts[i].Results, perDay)
	}
	if len(pts) == 0 {
		return nil
	}
	same := true
	for _, p := range pts[1:] {
		same = same && p.Cache.verdict() == pts[0].Cache.verdict()
	}
	const coldFigures = "each point's cost per session, and the size at which cost breaks down, are cold-start figures, overstated most where the static prefix is largest (eager on the larger catalogs)"
	if same {
		line := fmt.Sprintf("cache (every point): %s; the growth factors multiply the catalog, not the traffic, so this is so at every size", pts[0].Cache.verdict())
		if v := proj.Cache.verdict(); v != pts[0].Cache.verdict() {
			line += fmt.Sprintf(" (not the projection's assumption, %s: the growth scenario's params or model differ from the results')", v)
		}
		if pts[0].Cache.ColdStartUnlikely {
			line = "warning: " + line + ": " + coldFigures
		}
		return []string{line}
	}
	var lines []string
	first := ""
	for _, p := range pts {
		lines = append(lines, fmt.Sprintf("cache (×%g): %s", p.Factor, p.Cache.verdict()))
		if p.Cache.ColdStartUnlikely && first == "" {
			first = fmt.Sprintf("×%g", p.Factor)
		}
	}
	if first != "" {
		lines = append(lines, fmt.Sprintf("warning: from %s the points were replayed with every session starting cold, which is unlikely at %s sessions/day: %s", first, count(perDay), coldFigures))
	}
	return lines
}

// verdict says in a phrase the cache assumption of c and whether it holds
// at c's traffic.
func (c *CacheStart) verdict() string {
	switch {
	case c.WarmStart == nil:
		// Not recorded, or a model without a prompt cache: the statement
		// says which.
		return strings.SplitN(c.Statement, ";", 2)[0]
	case *c.WarmStart != 0:
		return fmt.Sprintf("params.cache_warm_start %g (a session finds its static prefix cached with probability %g)", *c.WarmStart, *c.WarmStart)
	case c.TTLSeconds == 0:
		return "params.cache_warm_start 0 (every session starts with a cold prompt cache); the results record no cache TTL to judge it by"
	case c.ColdStartUnlikely:
		return fmt.Sprintf("params.cache_warm_start 0 (every session starts with a cold prompt cache), unlikely when a session starts every %s s on average, within the %g s cache TTL",
			count(c.MeanStartGapSeconds), c.TTLSeconds)
	}
	return fmt.Sprintf("params.cache_warm_start 0 (every session starts with a cold prompt cache), which holds when a session starts every %s s on average, past the %g s cache TTL",
		count(c.MeanStartGapSeconds), c.TTLSeconds)
}
