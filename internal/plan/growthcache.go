package plan

import (
	"fmt"
	"strings"
)

// GrowthCache states, for every growth point, the prompt-cache assumption
// its replay ran under (its results' run.assumptions) against the
// projection's sessions per day, judged as the projection's is (cacheStart,
// with the projection's tolerance): each point's Cache is set, and the
// lines returned say it for the text and Markdown plans. The growth
// factors multiply the catalog, not the traffic, so the mean gap between
// session starts is the projection's at every point; what can differ is
// the assumption itself (a --scenario with another params.cache_warm_start
// or model than the results', said when it differs from proj's) and, a
// little, the mean session time that keeps the cache alive. When every
// point's verdict agrees the lines are one; otherwise one per point. A
// warning follows for the points whose assumption is off the implied warm
// start by more than the tolerance: their cost per session and where cost
// breaks down are overstated where the assumption is colder, understated
// where it is warmer, most where the static prefix is largest (eager on
// the larger catalogs).
func GrowthCache(proj *Projection, pts []GrowthPoint) []Line {
	perDay := proj.SessionsPerDay
	tol := DefaultWarmStartTolerance
	if proj.Cache != nil {
		tol = proj.Cache.Tolerance
	}
	for i := range pts {
		pts[i].Cache, _ = cacheStart(pts[i].Results, perDay, tol)
	}
	if len(pts) == 0 {
		return nil
	}
	same := true
	for _, p := range pts[1:] {
		same = same && p.Cache.verdict() == pts[0].Cache.verdict()
	}
	if same {
		line := fmt.Sprintf("cache (every point): %s; the growth factors multiply the catalog, not the traffic, so this is so at every size", pts[0].Cache.verdict())
		if proj.Cache != nil {
			if v := proj.Cache.verdict(); v != pts[0].Cache.verdict() {
				line += fmt.Sprintf(" (not the projection's assumption, %s: the growth scenario's params or model differ from the results')", v)
			}
		}
		if m := pts[0].Cache.Mismatch; m != "" {
			return []Line{{Warning: true, Text: line + ": " + offFigures(m)}}
		}
		return []Line{{Text: line}}
	}
	var lines []Line
	off := map[string][]string{}
	for _, p := range pts {
		lines = append(lines, Line{Text: fmt.Sprintf("cache %s: %s", FactorsAt([]string{p.FactorText("")}), p.Cache.verdict())})
		if m := p.Cache.Mismatch; m != "" {
			off[m] = append(off[m], p.FactorText(""))
		}
	}
	for _, m := range []string{assumedColder, assumedWarmer} {
		if len(off[m]) > 0 {
			lines = append(lines, Line{Warning: true, Text: fmt.Sprintf("%s the points were replayed with a params.cache_warm_start %s than %s sessions/day implies, by more than the %g tolerance: %s",
				FactorsAt(off[m]), m, count(perDay), tol, offFigures(m))})
		}
	}
	return lines
}

// offFigures says what the growth points' figures are when their warm
// start is colder or warmer (mismatch) than the traffic implies.
func offFigures(mismatch string) string {
	fewer, which := "fewer", "overstated"
	if mismatch == assumedWarmer {
		fewer, which = "more", "understated"
	}
	return fmt.Sprintf("each point's cost per session, and the size at which cost breaks down, assume %s warm starts than this traffic gives: they are %s, most where the static prefix is largest (eager on the larger catalogs)",
		fewer, which)
}

// verdict says in a phrase the cache assumption of c and whether it holds
// at c's traffic: the same judgement as the projection's statement, without
// the derivation (which the cache line gives).
func (c *CacheStart) verdict() string {
	switch {
	case c.WarmStart == nil:
		// Not recorded, or a model without a prompt cache: the statement
		// says which.
		return strings.SplitN(c.Statement, ";", 2)[0]
	case c.ImpliedWarmStart == nil:
		return fmt.Sprintf("params.cache_warm_start %g (%s); the results record no cache TTL to judge it by", *c.WarmStart, assumedWhat(*c.WarmStart))
	}
	return fmt.Sprintf("params.cache_warm_start %g (%s), against a warm start of %s implied when a session starts every %s s on average and the %g s cache TTL: %s",
		*c.WarmStart, assumedWhat(*c.WarmStart), probability(*c.ImpliedWarmStart), count(c.MeanStartGapSeconds), c.TTLSeconds, c.verdictTail())
}
