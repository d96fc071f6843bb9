package runner

import (
	"context"
	"testing"

	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// runScenario replays a scenario (over the embedded data when it names
// embedded: inputs) without bootstrap intervals, failing the test on error.
func runScenario(t *testing.T, sc *scenarios.Scenario, ov Overrides) *Output {
	t.Helper()
	cfg, err := FromScenario(sc, ov, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Bootstrap = -1
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runYAML parses a scenario's YAML and replays it with runScenario.
func runYAML(t *testing.T, yaml string, ov Overrides) *Output {
	t.Helper()
	sc, err := scenarios.Parse([]byte(yaml), "test.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	return runScenario(t, sc, ov)
}
