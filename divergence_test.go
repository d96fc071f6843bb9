package defersim_test

import (
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestStrategiesDivergeEarly pins the measurement docs/performance.md ("The
// 2× target") quotes against replaying strategies together until they
// diverge: on the benchmark trace, under the 8 benchmark strategies, the
// share of simulated model requests such a replay could skip. A request of
// strategy j counts as shareable when it lies within the longest common
// prefix (equal token split, kind and extra flag, request by request) of j
// with some strategy replayed before it; equal outputs are necessary for a
// shared state, so this is an upper bound on what sharing saves.
//
//	go test -run TestStrategiesDivergeEarly -v .
func TestStrategiesDivergeEarly(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and replays the benchmark trace")
	}
	path, _ := benchData(t)
	eng := benchEngine(t, 8, "")
	r, err := traces.Open(path, traces.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var requests, shareable, atFirst, sessions, distinct int
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		sessions++
		outs := eng.ReplayNeed(sim.ExtractNeed(s))
		seen := map[[sim.NumMetrics]float64]bool{}
		for j := range outs {
			seen[outs[j].Values] = true
			b := outs[j].PerRequest
			requests += len(b)
			best := 0
			for i := range j {
				a := outs[i].PerRequest
				k := 0
				for k < len(a) && k < len(b) && a[k] == b[k] {
					k++
				}
				best = max(best, k)
			}
			if j > 0 && best == 0 {
				atFirst++
			}
			shareable += best
		}
		distinct += len(seen)
	}
	share := float64(shareable) / float64(requests)
	t.Logf("%d sessions, %d simulated requests under 8 strategies: %d (%.1f%%) within a common prefix with an earlier strategy; %d of %d later strategies differ from every earlier one at the first request; %.2f distinct outcomes per session",
		sessions, requests, shareable, 100*share, atFirst, sessions*(len(eng.Strategies())-1), float64(distinct)/float64(sessions))
	if sessions != benchSessions || requests == 0 {
		t.Fatalf("replayed %d sessions (%d requests), want %d", sessions, requests, benchSessions)
	}
	// docs/performance.md says sharing could skip at most about a quarter
	// of the requests; a change of the generator or presets that moves the
	// bound past 30% makes that paragraph wrong.
	if share > 0.30 {
		t.Errorf("shareable share %.1f%% > 30%%: update docs/performance.md (\"The 2× target\")", 100*share)
	}
}
