package sim

import "testing"

// TestByModelStepAligned pins the per-step aggregation behind the report's
// cache plot: extra round trips join the model step they precede, so step
// k is the same point of the session under every strategy, while request k
// is not (a search shifts every later request by one).
func TestByModelStepAligned(t *testing.T) {
	st, err := NewRunState([]Strategy{{Name: "eager"}, {Name: "deferred"}}, SummaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eager := []RequestTokens{{Input: 100}, {Input: 200, CacheRead: 100}, {Input: 300, CacheRead: 200}}
	// Step 2 needs a search first: one extra round trip before it.
	deferred := []RequestTokens{{Input: 50}, {Input: 80, CacheRead: 50, Extra: true}, {Input: 120, CacheRead: 0}, {Input: 170, CacheRead: 120}}
	st.add(&jobResult{id: "s", values: make([][NumMetrics]float64, 2), perReq: [][]RequestTokens{eager, deferred}})

	want := [][3]int64{ // per step: sessions, requests, input
		{1, 1, 100}, {1, 1, 200}, {1, 1, 300},
	}
	for k, w := range want {
		got := st.ByRequestIndex[0][k]
		if got.StepSessions != w[0] || got.StepRequests != w[1] || got.StepInput != w[2] {
			t.Errorf("eager step %d: %+v", k+1, got)
		}
	}
	d := st.ByRequestIndex[1]
	if d[0].StepRequests != 1 || d[1].StepRequests != 2 || d[1].StepInput != 80+120 || d[1].StepCacheRead != 50 || d[1].StepSessions != 1 {
		t.Errorf("deferred step 2 should hold the search and its own request: %+v", d[1])
	}
	if d[2].StepInput != 170 || d[3].StepSessions != 0 {
		t.Errorf("deferred step 3 (the trace's third request) is request 4: %+v, %+v", d[2], d[3])
	}
	if d[3].Sessions != 1 {
		t.Errorf("by request, the deferred session has a 4th request: %+v", d[3])
	}
}
