package sim_test

import "github.com/defersim/defersim/sim"

// An example trigger, as a contributor adds one: this file plus one call of
// registerDeferrableCount (components_test.go replays it end to end).
// Deferred mode turns on when the strategy could defer more than
// trigger.count tools (the built-in "count" counts every tool, direct ones
// included).
type deferrableCount struct{ n int }

func (t deferrableCount) On(r sim.RegistryStats) bool { return r.DeferrableTools > t.n }

func registerDeferrableCount(r *sim.Registry) error {
	return r.RegisterTrigger(sim.Info{Name: "deferrable-count",
		Description: "deferred mode when more than trigger.count tools are deferrable",
		Params:      []sim.Param{{Name: "trigger.count", Type: "int", Default: "0", Meaning: "deferrable tools above which deferred mode is on"}}},
		func(cfg sim.Trigger) (sim.TriggerRule, error) {
			if cfg.Count < 0 {
				return nil, &sim.FieldError{Field: "trigger.count", Msg: "negative"}
			}
			return deferrableCount{cfg.Count}, nil
		})
}
