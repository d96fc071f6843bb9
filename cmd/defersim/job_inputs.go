package main

import (
	"fmt"

	"github.com/defersim/defersim/internal/calibrate"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// jobInputs resolves what recommend and calibrate start from: the scenario
// (default: the embedded one), the model (--model, else the traces'
// recorded model when it is a preset and no scenario was given, else the
// scenario's) and the catalogs (--catalogs, else those beside the traces).
// srcs are the traces, read more than once (runner.Rereadable).
func jobInputs(scenario, model string, catalogs []string, srcs []runner.Source) (*scenarios.Scenario, sim.Model, []string, error) {
	var paths []string
	for _, s := range srcs {
		paths = append(paths, s.Path)
	}
	sc, err := loadScenario(scenario)
	if err != nil {
		return nil, sim.Model{}, nil, err
	}
	m := sc.Model
	if model == "" && scenario == "" {
		rec, err := calibrate.RecordedModel(runner.SessionSource(srcs, traces.ReadOptions{}))
		if err != nil {
			return nil, sim.Model{}, nil, err
		}
		if _, err := presets.Model(rec); err == nil {
			model = rec
		}
	}
	if model != "" {
		if m, err = presets.Model(model); err != nil {
			return nil, sim.Model{}, nil, err
		}
	}
	if len(catalogs) == 0 {
		catalogs = runner.CatalogsBeside(paths)
	}
	if len(catalogs) == 0 {
		return nil, sim.Model{}, nil, fmt.Errorf("no catalog: pass --catalogs DIR (none found beside the traces)")
	}
	return sc, m, catalogs, nil
}
