package report

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/sim"
)

// recordedModelFinding says, when replayed sessions record a model other
// than the run's, how many and which (up to five), and that they are
// priced and timed as the run's model. Sessions recording no model alone
// are not noted: the run's model is the only one they name.
func recordedModelFinding(run *sim.RunInfo) string {
	var total, other, none int64
	var names []string
	for _, m := range run.RecordedModels {
		total += m.Sessions
		switch {
		case m.Model == "":
			none += m.Sessions
		case !m.Scenario:
			other += m.Sessions
			names = append(names, fmt.Sprintf("%q in %s", m.Model, fmtInt(float64(m.Sessions))))
		}
	}
	var beyond int64
	if o := run.OtherModels; o != nil {
		total += o.Sessions
		beyond = o.Sessions - o.Scenario
		other += beyond
	}
	if other == 0 {
		return ""
	}
	var parts []string
	if len(names) > 0 {
		list := strings.Join(names[:min(len(names), 5)], ", ")
		if more := len(names) - 5; more > 0 {
			list += fmt.Sprintf(", … (%d more models)", more)
		}
		parts = append(parts, list)
	}
	if beyond > 0 {
		parts = append(parts, fmt.Sprintf("%s with models beyond the first %d names (bytewise), counted together: run.recorded_models_other",
			fmtInt(float64(beyond)), run.OtherModels.Names))
	}
	list := strings.Join(parts, "; ")
	if none > 0 {
		list += fmt.Sprintf("; %s record no model", fmtInt(float64(none)))
	}
	return fmt.Sprintf("%s of %s sessions were recorded with another model than the run's (%s); they are priced and timed as %s (the scenario's model: its prices, prompt cache and latency), not as recorded. To see a model's sessions as recorded, replay them apart under a scenario whose model: names it.",
		fmtInt(float64(other)), fmtInt(float64(total)), list, run.Model)
}
