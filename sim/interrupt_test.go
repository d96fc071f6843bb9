package sim_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestInterruptStopsAtTheSessionAskedFor pins that a run cancelled from
// its progress callback after session k has replayed exactly k sessions,
// whatever its workers had replayed ahead: the collector used to go on
// adding the results already in flight, so an interrupt asked after the
// third of six sessions could still report six (and runner's
// TestEpochDatedCountMerges failed now and then on a loaded machine).
func TestInterruptStopsAtTheSessionAskedFor(t *testing.T) {
	cat, sessions := genTrace(t, 12)
	eng := newReuseEngine(t, cat)
	for _, workers := range []int{1, 2, 4} {
		for k := int64(1); k < int64(len(sessions)); k += 3 {
			for round := range 5 {
				t.Run(fmt.Sprintf("workers=%d/k=%d/%d", workers, k, round), func(t *testing.T) {
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					res, err := eng.Run(ctx, sessionSeq(sessions), sim.RunOptions{Workers: workers,
						Progress: func(n int64) {
							if n == k {
								cancel()
							}
						}})
					if !errors.Is(err, context.Canceled) {
						t.Fatalf("run cancelled after session %d returned %v, want context.Canceled", k, err)
					}
					if res == nil {
						t.Fatal("no result")
					}
					if res.State.Replayed != k || res.State.Next != k {
						t.Errorf("replayed %d, next %d; want %d and %d", res.State.Replayed, res.State.Next, k, k)
					}
				})
			}
		}
	}
}
