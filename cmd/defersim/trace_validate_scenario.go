package main

import (
	"fmt"
	"io"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/runsummary"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// scenarioPrediction is what `trace validate --scenario` says `run
// SCENARIO --traces FILE...` would say of the scenario itself, found by the
// code the run finds it with (runner.Preflight, runner.UnreplayedEntries):
// entries naming nothing in the catalogs, entries no replayed version
// serves, and the stop on a name or upgrade the catalogs do not have.
type scenarioPrediction struct {
	// File is the scenario given; "" when none was.
	File string `json:"file,omitempty"`
	// Checked says the scenario was checked against the catalogs run would
	// load; NotChecked says what was not, and why, when it was not.
	Checked    bool   `json:"checked"`
	NotChecked string `json:"not_checked,omitempty"`
	// Unmatched is run's run.scenario_entries_unmatched: entries matching
	// nothing in catalogs that are not the scenario's own (a warning).
	Unmatched []string `json:"scenario_entries_unmatched,omitempty"`
	// Unreplayed is run's run.scenario_entries_unreplayed: never_defer and
	// always_defer entries no server version the sessions replay serves.
	Unreplayed []sim.UnreplayedEntry `json:"scenario_entries_unreplayed,omitempty"`
	// UpgradesUnreached is run's run.upgrades_unreached: the scenario's
	// upgrades no session reaches, found by replaying the upgrades as run
	// does (runner.Preflighted.Resolve).
	UpgradesUnreached []sim.UnreachedUpgrade `json:"upgrades_unreached,omitempty"`
	// AloneCatalogs are the catalogs `run SCENARIO` alone would load,
	// replaying the same traces, when they are not those checked (the
	// traces' own, which `run SCENARIO --traces FILE...` loads):
	// aloneCatalogs. Absent otherwise.
	AloneCatalogs []string `json:"run_alone_catalogs,omitempty"`

	// stop is the error run stops on before reading a session ("" none);
	// entries are the list entries the catalogs serve (for Unreplayed);
	// limit is the run's max_unresolved, nil for the default.
	// sessions counts the traces' sessions (for UpgradesUnreached's
	// words).
	stop     string
	entries  []sim.EntryVersions
	limit    *float64
	sessions int64
}

// notCheckedWithout says what validate leaves unchecked without
// --scenario.
const notCheckedWithout = "no --scenario given: the list entries, permissions, local servers, upgrades and max_unresolved of the scenario run would use were not checked"

// checkScenario checks sc (read from path; nil: none given) as `run path
// --traces PATHS [--catalogs given] [--strategies strategies]` checks it
// before replaying (runner.Preflight), when the traces' catalogs were
// checked (rep): a run whose catalogs cannot be loaded stops on them
// first. It then resolves the traces as that run does, the scenario's
// upgrades applied (runner.Preflighted.Resolve), into rep.resolved, or
// rep.resolveErr when the run would stop while reading. flagLimit is
// --max-unresolved (nil: not given), which replaces the scenario's.
func (rep *validateReport) checkScenario(sc *scenarios.Scenario, path string, paths, given, strategies []string, flagLimit *float64, noCatalogs bool) *scenarioPrediction {
	if sc == nil {
		return &scenarioPrediction{NotChecked: notCheckedWithout}
	}
	p := &scenarioPrediction{File: cliout.Name(path)}
	var onDisk []string
	for _, f := range paths {
		if f != cliout.Stdio {
			onDisk = append(onDisk, f)
		}
	}
	switch {
	case noCatalogs:
		p.NotChecked = "--no-catalogs: the scenario's names are checked against catalogs"
		return p
	case len(onDisk) == 0:
		p.NotChecked = "the traces are on stdin, which run does not read"
		return p
	}
	if len(given) == 0 {
		p.AloneCatalogs = aloneCatalogs(sc, onDisk)
	}
	for _, f := range rep.Files {
		if f.Error != "" || f.stop != "" {
			p.NotChecked = "run would stop on the traces or their catalogs first (said below)"
			return p
		}
	}
	if err := sc.CheckParams(""); err != nil {
		p.Checked, p.stop = true, err.Error()
		return p
	}
	cfg, err := runner.FromScenario(sc, runner.Overrides{Traces: onDisk, Catalogs: given, Strategies: strategies, MaxUnresolved: flagLimit}, embeddedData())
	if err != nil {
		p.Checked, p.stop = true, err.Error()
		return p
	}
	p.limit = cfg.MaxUnresolved
	pf, err := runner.Preflight(cfg)
	if err != nil {
		p.Checked, p.stop = true, err.Error()
		return p
	}
	p.Checked, p.Unmatched, p.entries = true, pf.Info.UnmatchedEntries, pf.Info.EntryVersions
	rep.resolved, rep.resolveErr = pf.Resolve()
	return p
}

// predictScenario sets rep.Scenario from p, with the entries no version
// the sessions replay serve and the upgrades that reach no session, as
// the run's end finds them (from rep.resolved, the run's resolution); a
// stop on the scenario is what run stops on, before any replay.
func (rep *validateReport) predictScenario(p *scenarioPrediction) {
	rep.Scenario = p
	if p.stop != "" {
		if rep.Run == nil || !rep.Run.Stops || rep.Run.Resolution != nil {
			rep.Run = &runPrediction{Checked: rep.Run != nil && rep.Run.Checked, Stops: true, Reason: p.stop, onScenario: true}
		}
		return
	}
	if !p.Checked || rep.resolved == nil || rep.Run == nil || rep.Run.Resolution == nil {
		return
	}
	p.Unreplayed = runner.UnreplayedEntries(p.entries, rep.resolved.Resolution.ReplayedVersions())
	p.UpgradesUnreached, p.sessions = rep.resolved.UnreachedUpgrades, rep.resolved.Resolution.Sessions
}

// writeText says what was checked of the scenario and run's warnings of
// it; a stop is said with run's (runPrediction.writeText).
func (p *scenarioPrediction) writeText(w io.Writer) error {
	if p == nil {
		return nil
	}
	if err := p.writeAloneText(w); err != nil {
		return err
	}
	if !p.Checked {
		name := ""
		if p.File != "" {
			name = " " + p.File
		}
		_, err := fmt.Fprintf(w, "scenario%s: NOT checked: %s\n", name, p.NotChecked)
		return err
	}
	if p.stop != "" {
		return nil
	}
	if _, err := fmt.Fprintf(w, "scenario %s: names and upgrades checked against the catalogs run would load; the traces resolved as run resolves them, its upgrades replayed\n", p.File); err != nil {
		return err
	}
	if len(p.Unmatched) > 0 {
		if _, err := fmt.Fprintf(w, "run would warn: %s (results.json run.scenario_entries_unmatched):\n", runsummary.UnmatchedWarning); err != nil {
			return err
		}
		for _, n := range p.Unmatched {
			if _, err := fmt.Fprintf(w, "  %s\n", n); err != nil {
				return err
			}
		}
	}
	if err := report.WriteUnreplayedEntries(w, "run would warn: ", "results.json run.scenario_entries_unreplayed", p.Unreplayed); err != nil {
		return err
	}
	for _, u := range p.UpgradesUnreached {
		if _, err := fmt.Fprintf(w, "run would warn: %s (results.json run.upgrades_unreached)\n", report.UnreachedUpgradeText(u, p.sessions)); err != nil {
			return err
		}
	}
	return nil
}
