package main

import (
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/defersim/defersim/internal/calibrate"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	tracesPkg "github.com/defersim/defersim/traces"
)

// jobInput is what recommend and calibrate start from (jobInputs).
type jobInput struct {
	// sc is the scenario with its model: --model's, else the traces'
	// recorded one (useRecorded), else its own. sc.Model is the model the
	// job prices with, sc.ModelPreset the preset it was built from ("" for
	// an inline model).
	sc *scenarios.Scenario
	// own is the scenario's own model, before the recorded one replaced
	// it: calibrate starts the sessions of a model no preset holds from it.
	own sim.Model
	// catalogs are --catalogs, else the traces' own.
	catalogs []string
	// useRecorded says the recorded model was eligible: no --scenario and
	// no --model.
	useRecorded bool
}

// jobInputs resolves what recommend and calibrate start from: the scenario
// (default: the embedded one), the model (--model, else the traces'
// recorded model when it resolves to a preset and no scenario was given,
// else the scenario's) and the catalogs (--catalogs, else the traces' own:
// traces.CatalogsFor; else, as run --traces, a --scenario's catalogs on
// disk, with a note). The model replaces the scenario's as run's --model
// does (useModelFlag: Scenario.UseModel checks the scenario's params
// against it, and the note on stderr names the model of the scenario file
// it replaced), and the params it leaves unread stop the job as they stop
// run (Scenario.CheckParams). A recorded model without a preset leaves the
// scenario's: the job notes the sessions of every other model (recommend:
// Proposal.ModelsNote).
// read, when given, reads a trace by path (a FIFO from its spooled copy:
// the traces are read more than once; runner.Rereadable).
func jobInputs(stderr io.Writer, scenario, model string, catalogs, traces []string, read ...func(string) iter.Seq2[*tracesPkg.Session, error]) (*jobInput, error) {
	sc, err := loadScenario(scenario)
	if err != nil {
		return nil, err
	}
	in := &jobInput{sc: sc, own: sc.Model, useRecorded: model == "" && scenario == ""}
	if err := useModelFlag(stderr, sc, scenario, model); err != nil {
		return nil, err
	}
	if in.useRecorded {
		rec, err := calibrate.RecordedModel(traces, read...)
		if err != nil {
			return nil, err
		}
		if _, ok := presets.ResolveModel(rec); ok {
			if _, err := sc.UseModel(rec); err != nil {
				return nil, fmt.Errorf("the sessions' recorded model, %s: %w", rec, err)
			}
		}
	}
	// A param the scenario writes that its other values leave unread stops
	// recommend and calibrate as it stops run: checked under the model the
	// job uses, not the one the file wrote.
	if err := sc.CheckParams(""); err != nil {
		return nil, err
	}
	if len(catalogs) == 0 {
		if catalogs, err = tracesPkg.CatalogsFor(traces); err != nil {
			return nil, err
		}
	}
	if len(catalogs) == 0 && scenario != "" && len(sc.Catalogs) > 0 && !runner.EmbeddedCatalogs(sc.Catalogs) {
		// As run --traces reads them under that scenario
		// (runner.RunCatalogs): a scenario naming catalogs on disk chose
		// them for traces without their own.
		catalogs = sc.Catalogs
		fmt.Fprintf(stderr, "defersim: note: the traces name no catalog of their own and none is beside them: reading scenario %s's catalogs (%s), as run --traces does\n",
			sc.Name, strings.Join(catalogs, ", "))
	}
	if len(catalogs) == 0 {
		// As run says it: the sample catalog on purpose, when the
		// scenario's catalogs are the embedded ones.
		var sample []string
		if runner.EmbeddedCatalogs(sc.Catalogs) {
			sample = sc.Catalogs
		}
		return nil, runner.NewNoCatalogError(sample, traces)
	}
	in.catalogs = catalogs
	return in, nil
}
