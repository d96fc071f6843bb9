package sim_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/sim"
)

// exampleScenario names the example components of example_*_test.go next
// to built-in ones, over the embedded default data.
const exampleScenario = `
name: example-components
seed: 42
traces: [embedded:trace.jsonl.gz]
catalogs: [embedded:catalog]
model: claude-sonnet-4.5
params: {select_prob: 0}
strategies:
  - eager
  - {name: always-select, base: codex-cli, search: {mode: select}}
  - {name: deferrable-0, base: always-select, trigger: {mode: deferrable-count, count: 0}}
  - {name: deferrable-huge, base: always-select, trigger: {mode: deferrable-count, count: 1000000}}
  - {name: overlap, base: codex-cli, search: {mode: name-overlap, k: 3}}
  - {name: capped-lrl, base: codex-cli, warm: {max_tools: 2, eviction: lrl}}
  - {name: capped-largest, base: capped-lrl, warm: {max_tools: 2, eviction: largest}}
`

// TestExampleComponentsEndToEnd registers a new ranker, a new trigger and a
// new eviction policy (each one file: example_*_test.go), names them in a
// scenario file and replays it as `defersim run` does. Each must resolve,
// be used, and behave as its rule says: the deferrable-count trigger with
// count 0 is "always" (every outcome equal), with a huge count it never
// turns deferred mode on (every outcome equal to eager's); the ranker is
// asked; the eviction is consulted and changes outcomes against lrl.
func TestExampleComponentsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the default trace")
	}
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var rankCalls, evictCalls atomic.Int64
	for _, err := range []error{registerNameOverlap(reg, &rankCalls), registerDeferrableCount(reg), registerLargestFirst(reg, &evictCalls)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for kind, name := range map[component.Kind]string{component.Ranker: "name-overlap", component.Trigger: "deferrable-count", component.Eviction: "largest"} {
		if !slices.Contains(reg.Names(kind), name) {
			t.Errorf("%s %q is not listed (have %v)", kind, name, reg.Names(kind))
		}
	}
	// Without the registry, the scenario's names do not resolve.
	if _, err := scenarios.Parse([]byte(exampleScenario), "example.yaml", ""); err == nil {
		t.Fatal("the example components resolved without their registry")
	}
	sc, err := scenarios.ParseWith([]byte(exampleScenario), "example.yaml", "", reg)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := runner.FromScenario(sc, runner.Overrides{}, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Registry = reg
	out, err := runner.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	o := out.Run.Outcomes
	idx := map[string]int{}
	for i, s := range o.Strategies {
		idx[s.Name] = i
	}
	same := func(a, b string) {
		t.Helper()
		for m := range sim.NumMetrics {
			if !slices.Equal(o.Values[idx[a]][m], o.Values[idx[b]][m]) {
				t.Errorf("%s and %s differ in %s", a, b, sim.Metrics[m].Name)
			}
		}
	}
	total := func(s string, m int) (sum float64) {
		for _, v := range o.Values[idx[s]][m] {
			sum += v
		}
		return sum
	}
	same("deferrable-0", "always-select")
	same("deferrable-huge", "eager")
	if total("always-select", sim.MSearches) == 0 {
		t.Error("always-select never searched: the trigger comparison is empty")
	}
	if rankCalls.Load() == 0 || total("overlap", sim.MSearches) == 0 {
		t.Errorf("name-overlap: %d rank calls, %v searches", rankCalls.Load(), total("overlap", sim.MSearches))
	}
	if evictCalls.Load() == 0 {
		t.Error("the largest-first eviction was never consulted")
	}
	if total("capped-largest", sim.MSearches) == total("capped-lrl", sim.MSearches) &&
		total("capped-largest", sim.MSchemaTokens) == total("capped-lrl", sim.MSchemaTokens) {
		t.Error("largest-first eviction replays exactly as lrl")
	}
	t.Logf("searches: always %v, overlap %v (%d rank calls), capped lrl %v, capped largest %v (%d eviction calls)",
		total("always-select", sim.MSearches), total("overlap", sim.MSearches), rankCalls.Load(),
		total("capped-lrl", sim.MSearches), total("capped-largest", sim.MSearches), evictCalls.Load())
}
