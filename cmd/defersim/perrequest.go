package main

import "github.com/defersim/defersim/sim"

// noFidelityPairs says why a run wrote no fidelity pair (run --per-request):
// no strategy replays the recorded rule, or no request of the traces
// recorded what the replay is compared with.
func noFidelityPairs(strategies []sim.Strategy) string {
	for _, s := range strategies {
		if s.Trigger.Mode == sim.TriggerNever {
			return "no model request of the traces records its token usage or its duration, so no request of the replay under " +
				s.Name + " has a recorded value to be compared with (docs/fidelity.md)"
		}
	}
	return "no strategy of the run has trigger \"never\" (as eager): the requests compared with the recording are those of the " +
		"first such strategy, the rule the sessions were recorded under (docs/fidelity.md; add eager to --strategies)"
}
