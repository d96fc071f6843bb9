package runner

import "github.com/defersim/defersim/sim"

// Preflight does what a run of cfg does before it reads a session
// (prepare: load the catalogs, refuse the scenario's names that match
// nothing in its own catalogs, check its upgrades name versions the
// catalogs hold, build the engine) and returns what the run records of
// it: sim.RunInfo's UnmatchedEntries (flagNames), EntryVersions (for
// UnreplayedEntries) and CatalogNotes among them. Its error is the one the
// run stops on. `trace validate --scenario` predicts run's scenario
// findings with it.
func Preflight(cfg Config) (sim.RunInfo, error) {
	p, err := prepare(cfg)
	if err != nil {
		return sim.RunInfo{}, err
	}
	return p.file.Info, nil
}
