package runner

import (
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestScenarioAllowListDenies pins that a scenario's permissions.allow
// reaches the engine (issue 15: only deny did): every call outside the
// list counts as denied under every strategy, deferred or not, and the
// results name the rule.
func TestScenarioAllowListDenies(t *testing.T) {
	run := func(perm string) *Output {
		t.Helper()
		return runYAML(t, "name: p\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"+
			"strategies: [eager, claude-code-default]\n"+perm, Overrides{})
	}
	name := sim.Metrics[sim.MDeniedCalls].Name
	open := run("")
	web := run("permissions: {allow: [\"web:*\"]}\n")
	calls := web.Info.Resolution.Calls
	for _, s := range []string{"eager", "claude-code-default"} {
		if d := open.Results.Strategy(s).Metrics[name].Sum; d != 0 {
			t.Errorf("%s: %v denied calls without permissions", s, d)
		}
		d := web.Results.Strategy(s).Metrics[name].Sum
		if !(d > 0 && d < float64(calls)) {
			t.Errorf("%s: %v of %d calls denied with allow [web:*], want the calls of other servers", s, d, calls)
		}
		if s == "eager" && !(web.Results.Strategy(s).Metrics["session_ms"].Mean < open.Results.Strategy(s).Metrics["session_ms"].Mean) {
			t.Errorf("denied calls should save their tools' time")
		}
	}
	found := false
	for _, a := range web.Info.Assumptions {
		found = found || (a.Name == "permissions" && a.Value != "every call allowed")
	}
	if !found {
		t.Errorf("the assumptions do not state the allow list: %+v", web.Info.Assumptions)
	}
}
