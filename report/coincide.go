package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// Coincidence is a group of strategies whose outcomes were identical on
// every session of the run: on this data their differences changed
// nothing.
type Coincidence struct {
	Strategies []string `json:"strategies"`
	// Differ lists the parameters (dotted keys) in which they differ.
	Differ []string `json:"differ"`
	// Reason says why those differences changed nothing, as far as the
	// run's outcomes and catalogs show it ("" when nothing is derived).
	Reason string `json:"reason,omitempty"`
	// Unexplained lists the keys of Differ the reason does not cover.
	Unexplained []string `json:"unexplained,omitempty"`
}

// coincidences groups the strategies of res with the same outcomes
// (SameOutcomes: equal outcome digests, sim.RunState.Digests, and requests
// over the context window), in strategy order.
func coincidences(res *Results) []Coincidence {
	var out []Coincidence
	done := make([]bool, len(res.Strategies))
	for i := range res.Strategies {
		a := &res.Strategies[i]
		if done[i] || a.OutcomeDigest == "" {
			continue
		}
		group := []*StrategyResult{a}
		for j := i + 1; j < len(res.Strategies); j++ {
			if b := &res.Strategies[j]; !done[j] && SameOutcomes(a, b) {
				group = append(group, b)
				done[j] = true
			}
		}
		if len(group) < 2 {
			continue
		}
		c := Coincidence{}
		for _, s := range group {
			c.Strategies = append(c.Strategies, s.Name)
		}
		c.Differ = differingParams(group)
		c.Reason, c.Unexplained = ExplainUnchanged(c.Differ, group, &res.Run, "under each")
		out = append(out, c)
	}
	return out
}

// differingParams lists the parameter keys whose values are not the same
// in every strategy of group (name, description and source aside).
func differingParams(group []*StrategyResult) []string {
	values := make([]map[string]string, len(group))
	keys := map[string]bool{}
	for i, s := range group {
		values[i] = paramValues(s.Parameters)
		for k := range values[i] {
			keys[k] = true
		}
	}
	var out []string
	for k := range keys {
		for _, v := range values[1:] {
			if v[k] != values[0][k] {
				out = append(out, k)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// paramValues flattens a strategy into key → value text.
func paramValues(s sim.Strategy) map[string]string {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	flat, err := flattenJSON(raw, "name", "description", "source")
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, kv := range flat {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}

// ExplainUnchanged says why differences in keys (strategy parameters)
// left the outcomes of strategies unchanged (several strategies of one
// run, or one strategy at several points of a sweep: each names them,
// "under each" or "at every value"), from what their outcomes and the
// run's catalogs show: deferred mode on for every request (or for none),
// the same tools deferrable, no search at all, no version change within a
// session. It returns the reason ("" when nothing is derived) and the
// keys it does not cover.
func ExplainUnchanged(keys []string, strategies []*StrategyResult, run *sim.RunInfo, each string) (string, []string) {
	sum := func(s *StrategyResult, m int) float64 { return s.Metrics[sim.Metrics[m].Name].Sum }
	allOn, allOff, noSearch, categorical, allCached := true, true, true, false, true
	for _, s := range strategies {
		allCached = allCached && s.Parameters.Discovery == "cached"
		categorical = categorical || s.Parameters.Trigger.Categorical || s.Parameters.Trigger.Mode == "categorical"
		req, dm := sum(s, sim.MRequests), sum(s, sim.MDeferredModeRequests)
		allOn = allOn && req > 0 && dm == req
		allOff = allOff && dm == 0
		noSearch = noSearch && sum(s, sim.MSearches) == 0
	}
	deferTools, sameDeferrable := -1, len(run.Deferrable) > 0
	digest := ""
	for _, s := range strategies {
		d := deferrableOf(run, s.Name)
		switch {
		case d == nil:
			sameDeferrable = false
		case digest == "":
			digest, deferTools = d.Digest, d.Tools
		case d.Digest != digest:
			sameDeferrable = false
		}
	}
	// Reasons share a lead ("deferred mode was off for every request under
	// each") and add details to it, each said once.
	var leads, unexplained []string
	details := map[string][]string{}
	add := func(lead, detail string) {
		if _, ok := details[lead]; !ok {
			leads = append(leads, lead)
			details[lead] = nil
		}
		if detail != "" && !slices.Contains(details[lead], detail) {
			details[lead] = append(details[lead], detail)
		}
	}
	on, off := "deferred mode was on for every request "+each, "deferred mode was off for every request "+each
	for _, k := range keys {
		top, _, _ := strings.Cut(k, ".")
		th, isThreshold := thresholdOf[k]
		switch {
		case k == "params.relist_prob":
			switch {
			case run.Resolution != nil && run.Resolution.VersionChanges == 0:
				add("no server changed version within a session, so there was nothing to list again", "")
			case allCached:
				add("discovery cached makes no list call", "")
			default:
				unexplained = append(unexplained, k)
			}
		case isThreshold && allOn:
			add(on, th[0]+" (always deferred)")
		case isThreshold && allOff:
			add(off, th[1]+" (never deferred)")
		case allOff:
			add(off, "nothing was deferred, so how tools are deferred never applied")
		case top == "trigger" && allOn:
			add(on, "the trigger never decided anything")
		case (top == "always_defer" || top == "never_defer" || top == "scope") && sameDeferrable && (allOn || !categorical):
			add(fmt.Sprintf("they may defer the same %s of the catalogs", nouns.Count(deferTools, "tool")), "")
		case (top == "search" || top == "warm" || top == "injection" || top == "echo_schema") && noSearch:
			add("no tool was searched for or loaded", "")
		case k == "warm.key" && run.Resolution != nil && run.Resolution.VersionChanges == 0:
			add("no server changed version within a session, so warm sets keyed by name or by fingerprint held the same schemas", "")
		default:
			unexplained = append(unexplained, k)
		}
	}
	reasons := make([]string, len(leads))
	for i, l := range leads {
		reasons[i] = l
		if d := details[l]; len(d) > 0 {
			reasons[i] += ": " + strings.Join(d, ", and ")
		}
	}
	return strings.Join(reasons, "; "), unexplained
}

// thresholdOf says, for the built-in triggers' thresholds, what always
// firing and never firing mean.
var thresholdOf = map[string][2]string{
	"trigger.budget": {"every session's tools carry more estimated schema tokens than the largest trigger.budget",
		"no session's tools carry more estimated schema tokens than the smallest trigger.budget"},
	"trigger.count": {"every session's registry holds more tools than the largest trigger.count",
		"no session's registry holds more tools than the smallest trigger.count"},
	"trigger.percent": {"every session's deferrable tools reach the largest trigger.percent of the context window",
		"no session's deferrable tools reach the smallest trigger.percent of the context window"},
}

func deferrableOf(run *sim.RunInfo, name string) *sim.DeferrableTools {
	for i := range run.Deferrable {
		if run.Deferrable[i].Strategy == name {
			return &run.Deferrable[i]
		}
	}
	return nil
}
