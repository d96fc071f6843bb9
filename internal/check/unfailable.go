package check

import (
	"fmt"

	"github.com/defersim/defersim/report"
)

// unfailableWarnings warns of checks that cannot regress whatever the
// current run measures: a metric where higher is better (cache_hit_ratio)
// falls at most to 0, so a check whose allowed fall is at least the
// baseline value, for every strategy with a value above 0, cannot fail.
// Such a tolerance (--rel 100% or more, an absolute one above the values)
// is a gate that looks armed and is not.
func unfailableWarnings(base *report.Results, rows []Row) []string {
	type tally struct {
		rule     Rule
		positive int // strategies whose baseline value is above 0
		covered  int // ... whose allowed fall reaches 0
	}
	var order []string
	byKey := map[string]*tally{}
	for _, r := range rows {
		if r.Status == Missing || r.Base <= 0 {
			continue
		}
		m, ok := base.Metric(r.Rule.Metric)
		if !ok || m.LowerIsBetter {
			continue
		}
		k := r.Rule.Key()
		t := byKey[k]
		if t == nil {
			t = &tally{rule: r.Rule}
			byKey[k] = t
			order = append(order, k)
		}
		t.positive++
		if r.Allowed >= r.Base {
			t.covered++
		}
	}
	var out []string
	for _, k := range order {
		t := byKey[k]
		if t.covered < t.positive {
			continue
		}
		out = append(out, fmt.Sprintf("check %s cannot regress: its tolerance (relative %s, absolute %s) allows a fall of the whole baseline value "+
			"for every strategy, and %s cannot fall below 0; lower it (--rel %s=…, --abs %s=…, or the scenario's check: block)",
			k, fmt.Sprintf("%g%%", t.rule.Rel*100), fmt.Sprintf("%g", t.rule.Abs), t.rule.Metric, k, k))
	}
	return out
}
