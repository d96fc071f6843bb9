package main

import (
	"fmt"

	"github.com/defersim/defersim/internal/calibrate"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	tracesPkg "github.com/defersim/defersim/traces"
)

// jobInputs resolves what recommend and calibrate start from: the scenario
// (default: the embedded one), the model (--model, else the traces'
// recorded model when it is a preset and no scenario was given, else the
// scenario's) and the catalogs (--catalogs, else the traces' own:
// traces.CatalogsFor).
func jobInputs(scenario, model string, catalogs, traces []string) (*scenarios.Scenario, sim.Model, []string, error) {
	sc, err := loadScenario(scenario)
	if err != nil {
		return nil, sim.Model{}, nil, err
	}
	m := sc.Model
	if model == "" && scenario == "" {
		rec, err := calibrate.RecordedModel(traces)
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
		if catalogs, err = tracesPkg.CatalogsFor(traces); err != nil {
			return nil, sim.Model{}, nil, err
		}
	}
	if len(catalogs) == 0 {
		return nil, sim.Model{}, nil, fmt.Errorf("no catalog: pass --catalogs DIR (the traces name none and none is beside them)")
	}
	return sc, m, catalogs, nil
}
