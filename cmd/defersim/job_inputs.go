package main

import (
	"fmt"
	"iter"

	"github.com/defersim/defersim/internal/calibrate"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	tracesPkg "github.com/defersim/defersim/traces"
)

// jobInputs resolves what recommend and calibrate start from: the scenario
// (default: the embedded one), the model (--model, else the traces'
// recorded model when it resolves to a preset and no scenario was given,
// else the scenario's) and the catalogs (--catalogs, else the traces' own:
// traces.CatalogsFor). useRecorded says the recorded model was eligible;
// preset names the preset the model was built from ("" for an inline
// model). A recorded model without a preset leaves the scenario's: the
// job notes the sessions of every other model (recommend:
// Proposal.ModelsNote).
// read, when given, reads a trace by path (a FIFO from its spooled copy:
// the traces are read more than once; runner.Rereadable).
func jobInputs(scenario, model string, catalogs, traces []string, read ...func(string) iter.Seq2[*tracesPkg.Session, error]) (sc *scenarios.Scenario, m sim.Model, cats []string, useRecorded bool, preset string, err error) {
	sc, err = loadScenario(scenario)
	if err != nil {
		return nil, sim.Model{}, nil, false, "", err
	}
	// A param the scenario writes that its other values leave unread stops
	// recommend and calibrate as it stops run.
	if err := sc.CheckParams(""); err != nil {
		return nil, sim.Model{}, nil, false, "", err
	}
	m = sc.Model
	useRecorded = model == "" && scenario == ""
	if useRecorded {
		rec, err := calibrate.RecordedModel(traces, read...)
		if err != nil {
			return nil, sim.Model{}, nil, false, "", err
		}
		if _, ok := presets.ResolveModel(rec); ok {
			model = rec
		}
	}
	preset = sc.ModelPreset
	if model != "" {
		if m, err = presets.Model(model); err != nil {
			return nil, sim.Model{}, nil, false, "", err
		}
		preset = model
	}
	if len(catalogs) == 0 {
		if catalogs, err = tracesPkg.CatalogsFor(traces); err != nil {
			return nil, sim.Model{}, nil, false, "", err
		}
	}
	if len(catalogs) == 0 {
		return nil, sim.Model{}, nil, false, "", fmt.Errorf("no catalog: pass --catalogs DIR (the traces name none and none is beside them)")
	}
	return sc, m, catalogs, useRecorded, preset, nil
}
