package check

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// FileInfo says what one compared results file is: its scenario, the
// sweep or growth point it is one of (sim.PointAt), and how many sessions
// it replayed. check's header prints it after each file's path, so that a
// CI log says what was compared, not only where it was read.
type FileInfo struct {
	Scenario    string           `json:"scenario"`
	SweepPoint  *sim.SweepPoint  `json:"sweep_point,omitempty"`
	GrowthPoint *sim.GrowthPoint `json:"growth_point,omitempty"`
	Sessions    int              `json:"sessions_replayed"`
}

// fileInfo is what res is.
func fileInfo(res *report.Results) FileInfo {
	return FileInfo{Scenario: res.Run.Scenario, SweepPoint: res.Run.SweepPoint, GrowthPoint: res.Run.GrowthPoint, Sessions: res.Sessions}
}

// String is `scenario "NAME"[ at … point …], N sessions replayed`.
func (f FileInfo) String() string {
	scenario := "no scenario name"
	if f.Scenario != "" {
		scenario = fmt.Sprintf("scenario %q", f.Scenario)
	}
	return fmt.Sprintf("%s%s, %s replayed", scenario, sim.PointAt(f.SweepPoint, f.GrowthPoint), nouns.Count(f.Sessions, "session"))
}
