package check

import (
	"slices"
	"strings"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// withoutStrategyWording drops from a structural diff the source lines of
// the assumptions whose value is the same in both runs and whose source,
// on both sides, only explains which of the run's strategies read them
// (strategyDerived: "no strategy of the run reads it: strategy "ours": its
// trigger "always" does not compare tokens …"). A changed trigger mode
// rewords such a source without changing the assumption: the strategy's
// own lines (strategies[ours].parameters.trigger.mode) say what changed,
// and the source line repeated it as a change of assumptions, several
// hundred characters long. A changed value, and a changed source of any
// other assumption (a latency taken from a preset's defaults or
// calibrated), are still listed.
func withoutStrategyWording(lines []string, base, cur *report.Results) []string {
	drop := strategyWorded(base.Run.Assumptions, cur.Run.Assumptions)
	if len(drop) == 0 {
		return lines
	}
	return slices.DeleteFunc(lines, func(l string) bool {
		for _, name := range drop {
			if strings.HasPrefix(l, name) {
				return true
			}
		}
		return false
	})
}

// strategyWorded lists the line prefixes ("run.assumptions[NAME].source: ")
// of the assumptions, named once on each side, that withoutStrategyWording
// drops.
func strategyWorded(base, cur []sim.Assumption) []string {
	once := func(as []sim.Assumption) map[string]*sim.Assumption {
		m := map[string]*sim.Assumption{}
		seen := map[string]int{}
		for i := range as {
			seen[as[i].Name]++
			m[as[i].Name] = &as[i]
		}
		for name, n := range seen {
			if n > 1 {
				delete(m, name)
			}
		}
		return m
	}
	bm, cm := once(base), once(cur)
	var out []string
	for name, b := range bm {
		c := cm[name]
		if c == nil || b.Value != c.Value || b.Source == c.Source ||
			!strategyDerived(name, b.Source) || !strategyDerived(name, c.Source) {
			continue
		}
		out = append(out, "run.assumptions["+name+"].source: ")
	}
	slices.Sort(out)
	return out
}
