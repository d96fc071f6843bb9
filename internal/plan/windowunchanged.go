package plan

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// windowPath is the sweep path of the model's context window. Every
// strategy reads it: its requests over the window are counted
// (sim.ContextOverflow), and a percent trigger also compares tokens with
// it. A strategy a sweep over it leaves unchanged (report.SameOutcomes:
// the same requests over the window at every value) takes its reason from
// windowUnchanged, not from what the outcomes show of deferral alone.
const windowPath = "model.context_window"

// windowTriggers maps each strategy to why its trigger does not compare
// tokens with the context window (sim.Registry.TriggerIgnoresWindow; ""
// for a trigger that may), for a sweep over windowPath; nil for any other
// path.
func windowTriggers(strategies []sim.Strategy, path string, reg *sim.Registry) map[string]string {
	if path != windowPath {
		return nil
	}
	out := map[string]string{}
	for _, s := range strategies {
		out[s.Name] = reg.TriggerIgnoresWindow(s)
	}
	return out
}

// windowUnchanged says why a sweep over the context window left a
// strategy unchanged: the requests over the window (o, at the first
// value; the same at every value, or the strategy would not be flagged)
// and its trigger, either why it ignores the window (ignores) or, for
// one that compares tokens with it, what its outcomes show (explained, ""
// when nothing is derived).
func windowUnchanged(o *sim.ContextOverflow, ignores, explained string) string {
	over := "no request exceeded the context window at any value"
	if o != nil && o.Requests > 0 {
		over = fmt.Sprintf("the same %s in %s exceeded the context window at every value",
			nouns.Count(o.Requests, "request"), nouns.Count(o.Sessions, "session"))
	}
	switch {
	case ignores != "":
		return over + "; " + ignores
	case explained != "":
		return over + "; its trigger compares tokens with the window: " + explained
	}
	return over + "; its trigger compares tokens with the window, and why it decided the same at every value is not derived"
}
