package plan

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// overflowHead is the header of the column a sweep or growth table gains
// when some row sent requests over the model's context window
// (SeriesRow.ContextOverflow); a table where none did has no such column.
const overflowHead = "requests over window"

// anyOverflow says whether some row sent a request over the context window.
func anyOverflow(rows []SeriesRow) bool {
	for _, r := range rows {
		if r.ContextOverflow != nil && r.ContextOverflow.Requests > 0 {
			return true
		}
	}
	return false
}

// overflowCell is a row's cell of the overflowHead column: how many
// requests exceeded the window, in how many sessions; "0" for none.
func overflowCell(r SeriesRow) string {
	o := r.ContextOverflow
	if o == nil || o.Requests == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%s)", o.Requests, nouns.Count(o.Sessions, "session"))
}

// overflowAt is one point where a strategy sent requests over the window.
type overflowAt struct {
	strategy string
	// at names the point in the warning.
	at string
	o  *sim.ContextOverflow
}

// seriesOverflow says, strategy by strategy in the order they first
// overflow, at which points each sent requests over the context window
// and how many ("eager at P: N requests over the W-token window in S
// sessions, the largest M tokens; eager at Q: …"), given every point's
// overflowing strategies in point order; "" when there are none.
func seriesOverflow(list []overflowAt) string {
	var order []string
	by := map[string][]overflowAt{}
	for _, p := range list {
		if _, ok := by[p.strategy]; !ok {
			order = append(order, p.strategy)
		}
		by[p.strategy] = append(by[p.strategy], p)
	}
	var parts []string
	for _, name := range order {
		for _, p := range by[name] {
			parts = append(parts, fmt.Sprintf("%s at %s: %s over the %d-token window in %s, the largest %d tokens", name, p.at,
				nouns.Count(p.o.Requests, "request"), p.o.Window, nouns.Count(p.o.Sessions, "session"), p.o.MaxInput))
		}
	}
	return strings.Join(parts, "; ")
}

// refusedRequests is what the sweep's and growth's warnings say of a
// request over the context window.
const refusedRequests = `a provider refuses such a request ("prompt is too long"), so the cost and times of those rows describe requests that could not be made`

// SweepOverflowWarning says which strategies of a sweep sent requests over
// the model's context window, at which points, for `defersim sweep` to
// print on stderr once; "" when none did.
func SweepOverflowWarning(rows []SeriesRow) string {
	var list []overflowAt
	for _, r := range rows {
		if r.ContextOverflow != nil && r.ContextOverflow.Requests > 0 {
			list = append(list, overflowAt{strategy: r.Strategy, at: r.Label, o: r.ContextOverflow})
		}
	}
	s := seriesOverflow(list)
	if s == "" {
		return ""
	}
	return fmt.Sprintf("requests over the context window in the sweep: %s; %s (sweep.json rows[].context_overflow, the column %q)", s, refusedRequests, overflowHead)
}

// StrategyOverflow is one strategy's requests over the context window at
// one growth point (sim.ContextOverflow's fields).
type StrategyOverflow struct {
	Strategy string `json:"strategy"`
	sim.ContextOverflow
}

// GrowthOverflowWarning says at which catalog sizes of a growth series
// which strategies send requests over the model's context window ("at ×4
// eager's requests exceed the window"), from each point's ContextOverflow
// (set by Growth), for plan to print as a warning line after GrowthCache's;
// false when none does.
func GrowthOverflowWarning(points []GrowthPoint) (Line, bool) {
	var list []overflowAt
	for _, p := range points {
		for i := range p.ContextOverflow {
			o := &p.ContextOverflow[i]
			list = append(list, overflowAt{strategy: o.Strategy, at: p.FactorText(p.Label), o: &o.ContextOverflow})
		}
	}
	s := seriesOverflow(list)
	if s == "" {
		return Line{}, false
	}
	return Line{Warning: true, Text: fmt.Sprintf("requests over the context window as the catalog grows: %s; %s (plan.json growth[].context_overflow)", s, refusedRequests)}, true
}

// growthOverflow lists the strategies of p's replay that sent requests over the
// context window (GrowthPoint.ContextOverflow), in strategy order.
func growthOverflow(p Point) []StrategyOverflow {
	var out []StrategyOverflow
	for _, s := range p.Results.Strategies {
		if s.ContextOverflow != nil && s.ContextOverflow.Requests > 0 {
			out = append(out, StrategyOverflow{Strategy: s.Name, ContextOverflow: *s.ContextOverflow})
		}
	}
	return out
}

// projectionOverflow is the projection's warning of a strategy whose
// replayed requests exceed the model's context window (o, over sessions
// sessions): its projected amounts count requests a provider refuses.
func projectionOverflow(strategy string, o *sim.ContextOverflow, sessions int) string {
	return fmt.Sprintf("%s sent %s over the model's %d-token context window in %d of %s (the largest %d tokens, session %s); "+
		"a provider refuses such a request (\"prompt is too long\"), so %s projected tokens, cost and latency count requests that could not be made "+
		"(a model with a larger window, or deferring more tools, avoids them: defersim run's warning says how)",
		strategy, nouns.Count(o.Requests, "request"), o.Window, o.Sessions, nouns.Count(sessions, "session"), o.MaxInput, o.MaxSession, strategy+"'s")
}

// overflowOf is s's requests over the context window, nil when none.
func overflowOf(s *report.StrategyResult) *sim.ContextOverflow {
	if o := s.ContextOverflow; o != nil && o.Requests > 0 {
		return o
	}
	return nil
}

// breakCell is a "breaks at" cell of the breakdown table: the size at
// which a rule breaks down, "never", or the size marked
// (report.OverflowMark) when the strategy's requests at that size exceed
// the context window (o non-nil): the break is measured on figures of
// requests a provider refuses.
func breakCell(at string, o *sim.ContextOverflow) string {
	if at == "" {
		return orNever(at)
	}
	if o != nil {
		return at + " " + report.OverflowMark
	}
	return at
}

// breakdownLegend is the line under the breakdown table that explains its
// marked cells (breakCell); "" when no cell is marked, so that a table
// where nothing overflows prints as before.
func breakdownLegend(bs []Breakdown) string {
	for _, b := range bs {
		for _, o := range []*sim.ContextOverflow{b.costOver, b.latencyOver} {
			if o != nil {
				return fmt.Sprintf("%s at that size the strategy sends requests over the %d-token context window: its break is measured on figures that include requests a provider would refuse (the warning above says how many)",
					report.OverflowMark, o.Window)
			}
		}
	}
	return ""
}
