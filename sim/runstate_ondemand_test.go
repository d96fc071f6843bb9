package sim_test

import (
	"bytes"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestOnDemandSummaryMatchesReference pins RunOptions.SummaryOnDemand's
// state: sessions whose values wait in the sample are filed, when the
// state is read (Complete, a merge, a checkpoint's flush, the sample
// filling up), in the order they were added, so the series and paired
// descriptions encode to the bytes of filing every value at once; and
// Outcomes leaves them waiting only while the sample holds every session.
func TestOnDemandSummaryMatchesReference(t *testing.T) {
	const S = 4
	strategies := stateStrategies(S)
	for _, tc := range []struct {
		name      string
		exact     int // the sample's size
		baseline  int
		completes []int // sessions after which Complete is called
	}{
		{"sample keeps all", 0, 0, nil},
		{"sample never fills", 5000, 2, []int{17}},
		{"sample fills mid-run", 40, 0, []int{9}},
		{"sample fills at once", 1, 1, nil},
		{"completed often", 300, 3, []int{0, 1, 2, 100, 299, 300, 301}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := sim.SummaryOptions{ExactSessions: tc.exact, EqualTolerance: 1e-9, Seed: 9, Baseline: tc.baseline}
			got, _ := sim.NewRunState(strategies, opt)
			got.SetOnDemand(true)
			want, _ := sim.NewRunState(strategies, opt)
			n := 2*got.CollectBatch() + 37
			vals := collectValues(n, S, uint64(len(tc.name)))
			for i, v := range vals {
				got.AddSessionBuffered(int64(i), "s", v)
				want.AddSessionReference(v)
				keepsAll := tc.exact <= 0 || i < tc.exact
				if keepsAll && got.Waiting() != i+1-lastComplete(tc.completes, i) {
					t.Fatalf("session %d: %d waiting, want %d", i, got.Waiting(), i+1-lastComplete(tc.completes, i))
				}
				if !keepsAll && got.Waiting() != 0 {
					t.Fatalf("session %d: %d values wait in a full sample", i, got.Waiting())
				}
				for _, c := range tc.completes {
					if c == i {
						got.Complete()
						if got.Waiting() != 0 || !bytes.Equal(seriesBytes(t, got), seriesBytes(t, want)) {
							t.Fatalf("after %d sessions: completed state differs from the reference", i+1)
						}
					}
				}
			}
			o := got.Outcomes(strategies)
			sampled := tc.exact > 0 && n > tc.exact
			if o.Sampled() != sampled {
				t.Fatalf("Sampled() = %v, want %v", o.Sampled(), sampled)
			}
			if waiting := got.Waiting() > 0; sampled == waiting || (o.Summary.Series == nil) != waiting {
				t.Fatalf("sampled %v: %d waiting after Outcomes, summary series %v", sampled, got.Waiting(), o.Summary.Series != nil)
			}
			// A merge completes both sides.
			into, _ := sim.NewRunState(strategies, opt)
			if err := into.Merge(got); err != nil {
				t.Fatal(err)
			}
			if got.Waiting() != 0 || !bytes.Equal(seriesBytes(t, got), seriesBytes(t, want)) {
				t.Fatal("state differs from the reference after a merge")
			}
			if o := got.Outcomes(strategies); o.Summary.Series == nil {
				t.Fatal("a completed state's summary has no series")
			}
		})
	}
}

// lastComplete is the number of sessions added when Complete was last
// called before session i was added (0: never).
func lastComplete(completes []int, i int) int {
	last := 0
	for _, c := range completes {
		if c < i {
			last = c + 1
		}
	}
	return last
}
