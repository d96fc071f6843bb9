package check

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/sim"
)

// dist is a distribution with a mean, p95 and their intervals.
func dist(mean, lo, hi float64) report.Distribution {
	return report.Distribution{Count: 100, Mean: mean, P50: mean, P95: mean * 2,
		MeanCI: &report.Interval{Low: lo, High: hi}, P95CI: &report.Interval{Low: 2 * lo, High: 2 * hi}}
}

// results builds a small results value with one metric per strategy.
func results(fp string, strategies map[string]map[string]report.Distribution) *report.Results {
	r := &report.Results{SchemaVersion: report.SchemaVersion, Metrics: sim.Metrics[:],
		Run: sim.RunInfo{Scenario: "t", ScenarioFingerprint: fp, Seed: 1, Model: "m", Baseline: "a"}}
	for _, name := range []string{"a", "b", "c"} {
		ms, ok := strategies[name]
		if !ok {
			continue
		}
		r.Strategies = append(r.Strategies, report.StrategyResult{Name: name, Metrics: ms,
			Parameters: sim.Strategy{Name: name, Trigger: sim.Trigger{Mode: "never"}}})
	}
	return r
}

// defaultRuns replays a slice of the embedded default scenario (three
// strategies) twice; deterministic replay makes the two results equal.
var defaultRuns = sync.OnceValues(func() ([2]string, error) {
	dir, err := tempDir()
	if err != nil {
		return [2]string{}, err
	}
	var out [2]string
	for i := range out {
		res, err := runDefault(nil)
		if err != nil {
			return out, err
		}
		out[i] = filepath.Join(dir, []string{"base.json", "cur.json"}[i])
		if err := report.WriteResults(out[i], res); err != nil {
			return out, err
		}
	}
	return out, nil
})

// runDefault replays the embedded default with three strategies;
// catalogs, when set, replace its catalogs.
func runDefault(catalogs []string) (*report.Results, error) {
	sc, err := scenarios.Default()
	if err != nil {
		return nil, err
	}
	cfg, err := runner.FromScenario(sc, runner.Overrides{Catalogs: catalogs,
		Strategies: []string{"eager", "anchor-e1-budget8k", "claude-code-default"}}, defaultdata.FS())
	if err != nil {
		return nil, err
	}
	cfg.Bootstrap = 200
	out, err := runner.Run(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	return out.Results, nil
}

func mustRuns(t *testing.T) (string, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("replays the embedded default (-short)")
	}
	p, err := defaultRuns()
	if err != nil {
		t.Fatal(err)
	}
	return p[0], p[1]
}
