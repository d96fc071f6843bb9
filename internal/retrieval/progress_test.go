package retrieval

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd/routed"
	"github.com/defersim/defersim/tokens"
)

// TestProgressCountsInOrder pins that Evaluate's progress calls come one
// at a time with counts that never decrease and end at every query: the
// workers called it as they finished, so a worker that counted 3 could
// report after one that counted 5, and srd eval's closing line read
// "scored 3 queries" (TestSRDEvalProgress failed now and then).
func TestProgressCountsInOrder(t *testing.T) {
	s, _ := tinySet(t)
	arms, err := Arms([]string{"bm25"}, search.Factories(), nil, routed.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for round := range 200 {
		opt := DefaultEvalOptions()
		opt.Resamples, opt.Counter, opt.Workers = 10, tokens.NewEstimator(4), 8
		var got []int
		inCall := false
		opt.Progress = func(n int) {
			if inCall {
				t.Error("progress called while another call runs")
			}
			inCall = true
			got = append(got, n)
			inCall = false
		}
		if _, err := Evaluate(s, arms, opt); err != nil {
			t.Fatal(err)
		}
		if !slices.IsSorted(got) || len(got) == 0 || got[len(got)-1] != len(s.Queries) {
			t.Fatalf("round %d: progress counts %v: want non-decreasing, ending at %d", round, got, len(s.Queries))
		}
	}
}
