package sim_test

import (
	"sync/atomic"

	"github.com/defersim/defersim/sim"
)

// An example warm-set eviction policy, as a contributor adds one: this
// file plus one call of registerLargestFirst (components_test.go replays it
// end to end). Over a cap it evicts the largest schema, the least recently
// loaded among equals, never the one just loaded.
type largestFirst struct{ calls *atomic.Int64 }

func (l largestFirst) Victim(entries []sim.WarmEntry, newest int) int {
	l.calls.Add(1)
	victim := -1
	for i, e := range entries {
		if i == newest {
			continue
		}
		if victim < 0 {
			victim = i
			continue
		}
		v := entries[victim]
		if e.Tool.Tokens() > v.Tool.Tokens() || (e.Tool.Tokens() == v.Tool.Tokens() && e.LoadedAt < v.LoadedAt) {
			victim = i
		}
	}
	return victim
}

func registerLargestFirst(r *sim.Registry, calls *atomic.Int64) error {
	return r.RegisterEviction(sim.Info{Name: "largest",
		Description: "over a cap, evict the largest schema (the least recently loaded of equals), never the newest"},
		largestFirst{calls})
}
