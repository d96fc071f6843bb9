package runner

import (
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// Preflighted is a run prepared as far as it goes before its replay
// (Preflight).
type Preflighted struct {
	// Info is what the run records of its preparation: sim.RunInfo's
	// UnmatchedEntries (flagNames), EntryVersions (for UnreplayedEntries)
	// and CatalogNotes among them.
	Info sim.RunInfo
	cfg  Config
	p    *prepared
}

// Preflight does what a run of cfg does before it reads a session
// (prepare: load the catalogs, refuse the scenario's names that match
// nothing in its own catalogs, check its upgrades name versions the
// catalogs hold, build the engine). Its error is the one the run stops
// on. `trace validate --scenario` predicts run's findings with it.
func Preflight(cfg Config) (*Preflighted, error) {
	p, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	return &Preflighted{Info: p.file.Info, cfg: cfg, p: p}, nil
}

// Resolve reads the run's traces as the run reads them and counts how
// their sessions resolve, the scenario's upgrades applied, by the
// replay's own code (sim.Engine.ResolveNeeds): the run's run.resolution
// and run.upgrades_unreached, but for sessions whose replay fails, which
// a run leaves out. Its error is one the run stops on while reading (a
// bad line, an `at` upgrade over sessions without times).
func (pf *Preflighted) Resolve() (*sim.Resolved, error) {
	cfg, eng := pf.cfg, pf.p.eng
	ropts := traces.ReadOptions{SkipBad: cfg.SkipBad}
	if cfg.Transform != nil { // as Run: a transform changes whole sessions
		return eng.ResolveSessions(allSessions(cfg.Traces, nil, ropts, nil, nil, cfg.Transform))
	}
	return eng.ResolveNeeds(allNeeds(eng, cfg.Traces, nil, ropts, nil, nil))
}
