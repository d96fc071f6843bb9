package sim

import (
	"math"
	"testing"

	"github.com/defersim/defersim/component"
)

// TestNoCacheNeedsNoCachedPrefillRate pins that a model without a prompt
// cache replays with latency.cached_prefill_tps left out (0): the rate is
// never applied, so every time is the one a written rate gives (it was
// demanded, and a 0 would have divided 0 by 0).
func TestNoCacheNeedsNoCachedPrefillRate(t *testing.T) {
	replay := func(rate float64) Outcome {
		e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}}}, []testTool{{"x", 100, 0}})
		e.model.Cache = CacheConfig{Kind: CacheNone}
		e.model.Latency.CachedPrefillTPS = rate
		cm, err := resolveAs[CacheModel](NewRegistry(), component.Cache, "cache.kind", CacheNone)
		if err != nil {
			t.Fatal(err)
		}
		e.cache = cm
		return e.ReplayNeed(&Need{SessionID: "s1", SystemTokens: 1000, Steps: []Step{user(10), call("x"), reply(), user(5), reply()}})[0]
	}
	with, without := replay(33000), replay(0)
	if with.Values[MCacheReadTokens] != 0 {
		t.Fatalf("a model without a cache read %v tokens from it", with.Values[MCacheReadTokens])
	}
	for _, m := range []int{MFirstReplyMs, MSessionMs, MCostUSD, MInputTokens} {
		if math.IsNaN(without.Values[m]) || without.Values[m] != with.Values[m] {
			t.Errorf("%s: %v without the cached rate, %v with it", Metrics[m].Name, without.Values[m], with.Values[m])
		}
	}
	if with.Values[MSessionMs] <= 0 {
		t.Errorf("session time %v: want the replayed time", with.Values[MSessionMs])
	}
}
