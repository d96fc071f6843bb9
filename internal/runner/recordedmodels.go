package runner

import (
	"cmp"
	"slices"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// RecordedModels lists the replayed sessions by recorded model, the most
// sessions first (then by name), the sessions with no session_start
// counted with those recording no model; each says whether it is the
// run's model (named model, built from preset). Sessions of names beyond
// sim.MaxRecordedModels are counted in OtherModels. recommend lists the
// sessions it learns from so too.
func RecordedModels(r *sim.Resolution, model, preset string) []sim.RecordedModel {
	var out []sim.RecordedModel
	none := r.Sessions - r.Models.Total()
	for _, c := range r.Models.Names {
		if c.Model == "" {
			none += c.Sessions
			continue
		}
		out = append(out, sim.RecordedModel{Model: c.Model, Sessions: c.Sessions, Scenario: sameModel(c.Model, model, preset)})
	}
	if none > 0 {
		out = append(out, sim.RecordedModel{Sessions: none})
	}
	slices.SortStableFunc(out, func(a, b sim.RecordedModel) int {
		return cmp.Or(cmp.Compare(b.Sessions, a.Sessions), cmp.Compare(a.Model, b.Model))
	})
	return out
}

// sameModel says whether a recorded model name is the run's model
// (presets.SameModel).
func sameModel(recorded, model, preset string) bool {
	return presets.SameModel(recorded, model, preset)
}

// OtherModels counts the replayed sessions of names beyond the ones
// RecordedModels lists (nil when there are none).
func OtherModels(r *sim.Resolution) *sim.OtherModels {
	if r.Models.Other == 0 {
		return nil
	}
	return &sim.OtherModels{Sessions: r.Models.Other, Scenario: r.Models.OtherScenario, Names: sim.MaxRecordedModels}
}

// RunModel says whether a recorded model name is the run's (sameModel):
// sim.Config.RunModel, so that the sessions of names beyond the ones kept
// are split by it (recommend's learning engine uses it too).
func RunModel(model, preset string) func(string) bool {
	return func(recorded string) bool { return sameModel(recorded, model, preset) }
}
