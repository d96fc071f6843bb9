package report

import (
	"fmt"
	"math"

	"github.com/defersim/defersim/sim"
)

// deltaKind says how a column shows the difference from the baseline.
type deltaKind int

const (
	deltaRelative deltaKind = iota // percent change of the mean (ratio of means)
	deltaAbsolute                  // difference in the column's unit
	deltaPoints                    // difference of a ratio, in percentage points
)

// column is one key metric of the summary table.
type column struct {
	Title  string
	Unit   string
	metric int
	stat   string // mean | p50 | p95
	scale  float64
	format func(float64) string
	delta  deltaKind
}

// summaryColumns are the key metrics of the summary table.
func summaryColumns() []column {
	return []column{
		{Title: "Cost / session", Unit: "USD, mean", metric: sim.MCostUSD, stat: "mean", scale: 1, format: fmtUSD, delta: deltaRelative},
		{Title: "Input tokens / session", Unit: "tokens, mean", metric: sim.MInputTokens, stat: "mean", scale: 1, format: fmtInt, delta: deltaRelative},
		{Title: "First reply p50", Unit: "median", metric: sim.MFirstReplyMs, stat: "p50", scale: 1, format: fmtMs, delta: deltaAbsolute},
		{Title: "First reply p95", Unit: "95th percentile", metric: sim.MFirstReplyMs, stat: "p95", scale: 1, format: fmtMs, delta: deltaAbsolute},
		{Title: "Extra round trips / session", Unit: "requests, mean", metric: sim.MExtraRoundTrips, stat: "mean", scale: 1, format: fmtCount, delta: deltaAbsolute},
		{Title: "Malformed calls / 1,000 sessions", Unit: "calls", metric: sim.MMalformedCalls, stat: "mean", scale: perThousand, format: fmtCount, delta: deltaAbsolute},
		{Title: "Cache hit ratio", Unit: "mean of sessions", metric: sim.MCacheHitRatio, stat: "mean", scale: 1, format: fmtPercent, delta: deltaPoints},
	}
}

// cell is one strategy × key metric.
type cell struct {
	Value string
	// Delta is the difference from the baseline with its interval, "≈ n.s."
	// when the interval contains no difference, or empty.
	Delta string
	// Detail is the difference with its interval even when not significant.
	Detail      string
	Best        bool
	NS          bool
	Significant bool
	Missing     bool
	v           float64
}

// row is one strategy of the summary table.
type row struct {
	Name     string
	Baseline bool
	// Overflow: the strategy sent requests over the model's context
	// window; its name is marked (OverflowMark) and the table's Legend
	// says how many.
	Overflow bool
	Cells    []cell
}

// summaryTable is the table shared by the HTML, Markdown and terminal
// summaries.
type summaryTable struct {
	Columns  []column
	Rows     []row
	Baseline string
	// Legend explains the rows marked Overflow, one line each (none when
	// no strategy overflowed).
	Legend []string
}

// notSignificant is shown for differences whose interval contains zero.
const notSignificant = "≈ n.s."

// noChange is shown when every session has the baseline's value.
const noChange = "= baseline"

func buildTable(res *Results) summaryTable {
	t := summaryTable{Columns: summaryColumns(), Baseline: res.BaselineName()}
	for i := range res.Strategies {
		s := &res.Strategies[i]
		r := row{Name: s.Name, Baseline: s.Baseline}
		if c := s.ContextOverflow; c != nil && c.Requests > 0 {
			r.Overflow = true
			t.Legend = append(t.Legend, overflowLegend(s.Name, c, res.Sessions))
		}
		for _, c := range t.Columns {
			r.Cells = append(r.Cells, makeCell(s, c))
		}
		t.Rows = append(t.Rows, r)
	}
	markBest(res, &t)
	return t
}

func statOf(d Distribution, stat string) float64 {
	switch stat {
	case "p50":
		return d.P50
	case "p95":
		return d.P95
	}
	return d.Mean
}

func makeCell(s *StrategyResult, c column) cell {
	name := sim.Metrics[c.metric].Name
	d, ok := s.Metrics[name]
	if !ok || d.Count == 0 {
		return cell{Value: "–", Missing: true}
	}
	v := statOf(d, c.stat) * c.scale
	out := cell{Value: c.format(v), v: v}
	if s.Baseline {
		out.Delta = "baseline"
		return out
	}
	cmp, ok := s.VsBaseline[name]
	if !ok {
		return out
	}
	if cmp.Equal == 1 {
		out.Delta, out.Detail = noChange, noChange
		return out
	}
	text, ci, sig, hasCI := describeDelta(cmp, c)
	out.Detail = text
	if hasCI {
		out.Detail = text + " " + ci
	}
	switch {
	case !hasCI:
		out.Delta = text + " (no CI)"
	case sig:
		out.Delta = out.Detail
		out.Significant = true
	default:
		out.Delta = notSignificant
		out.NS = true
	}
	return out
}

// describeDelta formats the difference of column c, its interval, and
// whether the interval excludes no difference.
func describeDelta(cmp Comparison, c column) (text, ci string, sig, hasCI bool) {
	diff, iv := cmp.MeanDiff, cmp.MeanDiffCI
	switch c.stat {
	case "p50":
		diff, iv = cmp.P50Diff, cmp.P50DiffCI
	case "p95":
		diff, iv = cmp.P95Diff, cmp.P95DiffCI
	}
	if c.delta == deltaRelative && c.stat == "mean" && cmp.Ratio != nil {
		pct := func(r float64) string { return signed((r-1)*100, fmtSig) }
		text = pct(*cmp.Ratio) + "%"
		if cmp.RatioCI != nil {
			lo, hi := cmp.RatioCI.Low, cmp.RatioCI.High
			return text, fmt.Sprintf("[%s, %s]", pct(lo), pct(hi)), !(lo <= 1 && 1 <= hi), true
		}
		return text, "", false, false
	}
	f := func(v float64) string { return signed(v*c.scale, c.format) }
	switch {
	case c.delta == deltaPoints:
		f = func(v float64) string { return signed(v*c.scale*100, fmtSig) }
		text = f(diff) + " pp"
	case c.metric == sim.MFirstReplyMs:
		// One unit for the value and its interval.
		unit, div := " ms", 1.0
		m := math.Abs(diff)
		if iv != nil {
			m = math.Max(m, math.Max(math.Abs(iv.Low), math.Abs(iv.High)))
		}
		if m >= 1000 {
			unit, div = " s", 1000
		}
		f = func(v float64) string { return signed(v/div, fmtSig) }
		text = f(diff) + unit
	default:
		text = f(diff)
	}
	if iv == nil {
		return text, "", false, false
	}
	return text, fmt.Sprintf("[%s, %s]", f(iv.Low), f(iv.High)), !iv.Contains(0), true
}

// markBest marks, per column, the best value when values differ and at
// most half of the strategies share it (marking most rows would say
// nothing).
func markBest(res *Results, t *summaryTable) {
	for ci, c := range t.Columns {
		m, ok := res.Metric(sim.Metrics[c.metric].Name)
		lower := !ok || m.LowerIsBetter
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range t.Rows {
			if r.Cells[ci].Missing {
				continue
			}
			v := r.Cells[ci].v
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if !(hi > lo) {
			continue
		}
		best := hi
		if lower {
			best = lo
		}
		var at []*cell
		for ri := range t.Rows {
			if cl := &t.Rows[ri].Cells[ci]; !cl.Missing && cl.v == best {
				at = append(at, cl)
			}
		}
		if 2*len(at) > len(t.Rows) {
			continue
		}
		for _, cl := range at {
			cl.Best = true
		}
	}
}
