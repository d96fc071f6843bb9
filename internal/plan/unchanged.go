package plan

import (
	"strings"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// Unchanged is a strategy whose every outcome a sweep left identical at
// every value, and why where that can be derived.
type Unchanged struct {
	Strategy string `json:"strategy"`
	Reason   string `json:"reason,omitempty"`
}

// notReading returns, for a sweep path, the strategies that do not read
// it and why. For a strategy.KEY path: sim.Registry.NotReading (KEY is a
// parameter of some registered component, and none of the strategy's
// components declares it — the count trigger does not read
// trigger.budget; exact select does not read search.k); a key no
// component declares is taken to be read by every strategy, and readers
// names the components that declare KEY. For a params.* or model.* path:
// sim.Registry.StrategyUnread (the loading params under a strategy that
// loads no tool, list_ms under discovery cached; model.context_window,
// read by every strategy, never).
func notReading(strategies []sim.Strategy, path string, reg *sim.Registry) (why map[string]string, readers []string) {
	key, ok := strings.CutPrefix(path, "strategy.")
	if !ok {
		for _, s := range strategies {
			if w := reg.StrategyUnread(s, path); w != "" {
				if why == nil {
					why = map[string]string{}
				}
				why[s.Name] = w
			}
		}
		return why, nil
	}
	readers = reg.KeyReaders(key)
	if len(readers) == 0 {
		return nil, nil
	}
	why = map[string]string{}
	for _, s := range strategies {
		if w, _ := reg.NotReading(s, key); w != "" {
			why[s.Name] = w
		}
	}
	return why, readers
}

// modelParamUnread says why a model.* or params.* sweep path changes
// nothing whatever its value, with the scenario's other values and its
// strategies (the run's, after --strategies): a cache key its cache kind
// does not read (sim.Registry.CacheKeyUnread), the cached prefill rate
// without a prompt cache (sim.LatencyKeyUnread), a param another value
// leaves unread (sim.ParamUnread), a param or model key no strategy reads
// (sim.Registry.UnreadBy). "" otherwise.
func modelParamUnread(sc *scenarios.Scenario, path string, reg *sim.Registry) string {
	if key, ok := strings.CutPrefix(path, "model."); ok {
		if strings.HasPrefix(key, "cache.") {
			return reg.CacheKeyUnread(sc.Model, key)
		}
		if why := sim.LatencyKeyUnread(sc.Model, key); why != "" {
			return why
		}
	}
	if key, ok := strings.CutPrefix(path, "params."); ok {
		if why, _ := sim.ParamUnread(sc.Model, sc.Params, key); why != "" {
			return why
		}
	}
	if why, fix := reg.UnreadBy(sc.Strategies, path); why != "" {
		return why + " (" + fix + ")"
	}
	return ""
}

// unchangedStrategies flags the strategies whose outcomes are identical
// at every point, with the reason: the strategy does not read the swept
// key, the value was never set on it, the traces recorded every value the
// key fills in (fillReason), or what the outcomes show
// (report.ExplainUnchanged); for a sweep over the context window, the
// requests over it and its trigger (windowUnchanged, with ignores from
// windowTriggers).
func unchangedStrategies(points []Point, spec SweepSpec, notRead, notSet, ignores map[string]string) []Unchanged {
	results := make([]*report.Results, len(points))
	for i, p := range points {
		results[i] = p.Results
	}
	flagged := report.UnchangedStrategies(results)
	fill := fillReason(spec.Param, points)
	var out []Unchanged
	for _, s := range results[0].Strategies {
		if !flagged[s.Name] {
			continue
		}
		u := Unchanged{Strategy: s.Name}
		switch {
		case notRead[s.Name] != "":
			u.Reason = notRead[s.Name]
		case notSet[s.Name] != "":
			u.Reason = "not set at any value: " + notSet[s.Name]
		case fill != "":
			u.Reason = fill
		case spec.Param == windowPath:
			explained := ""
			if ignores[s.Name] == "" {
				explained = outcomesReason(results, s.Name, spec.Param)
			}
			u.Reason = windowUnchanged(s.ContextOverflow, ignores[s.Name], explained)
		case !sim.OutcomesExplain(spec.Param):
			// The outcomes' reasons (deferred mode off, no search) speak of
			// deferral; a key read outside it (a cache, latency or price
			// key, a token overhead) would get a reason that is not its.
		default:
			u.Reason = outcomesReason(results, s.Name, spec.Param)
		}
		out = append(out, u)
	}
	return out
}

// outcomesReason is what strategy name's outcomes at every point of a
// sweep over param show of why they were the same
// (report.ExplainUnchanged; "" when nothing is derived).
func outcomesReason(results []*report.Results, name, param string) string {
	var same []*report.StrategyResult
	for _, r := range results {
		same = append(same, r.Strategy(name))
	}
	key := strings.TrimPrefix(param, "strategy.")
	why, _ := report.ExplainUnchanged([]string{key}, same, &results[0].Run, "at every value")
	return why
}

// markRepeats sets Unchanged on the rows of a strategy whose outcomes are
// those of the previous point (report.SameOutcomes: the same values on
// every session and the same requests over the context window).
func markRepeats(rows []SeriesRow, points []Point) {
	prev := map[string]*report.StrategyResult{}
	i := 0
	for _, p := range points {
		for k := range p.Results.Strategies {
			s := &p.Results.Strategies[k]
			if i < len(rows) && rows[i].Strategy == s.Name && rows[i].Label == p.Label {
				d, seen := prev[s.Name]
				rows[i].Unchanged = seen && report.SameOutcomes(d, s)
				i++
			}
			prev[s.Name] = s
		}
	}
}

// unchangedGroup is the strategies of a sweep left unchanged for one
// reason.
type unchangedGroup struct {
	strategies []string
	reason     string
}

// groupUnchanged groups us by reason, in the order of each reason's first
// strategy: a reason that holds for every strategy (a parameter that fills
// only what the trace does not record) is said once, not once a strategy.
func groupUnchanged(us []Unchanged) []unchangedGroup {
	var out []unchangedGroup
	at := map[string]int{}
	for _, u := range us {
		reason := u.Reason
		if reason == "" {
			reason = "no reason derived"
		}
		i, ok := at[reason]
		if !ok {
			i = len(out)
			at[reason] = i
			out = append(out, unchangedGroup{reason: reason})
		}
		out[i].strategies = append(out[i].strategies, u.Strategy)
	}
	return out
}
