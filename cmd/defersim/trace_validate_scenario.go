package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

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
	// UpgradesTakenAsReached are the scenario's upgrades ("server@to") of
	// servers some session replays, whose versions are counted as
	// replayed, for Unreplayed and run.resolution.unreplayed_versions:
	// validate does not replay the upgrades, so it cannot tell whether one
	// reaches a session (run's run.upgrades_unreached says so after the
	// replay).
	UpgradesTakenAsReached []string `json:"upgrades_taken_as_reached,omitempty"`

	// stop is the error run stops on before reading a session ("" none);
	// entries are the list entries the catalogs serve (for Unreplayed);
	// limit is the run's max_unresolved, nil for the default.
	stop    string
	entries []sim.EntryVersions
	limit   *float64
}

// notCheckedWithout says what validate leaves unchecked without
// --scenario.
const notCheckedWithout = "no --scenario given: the list entries, permissions, local servers, upgrades and max_unresolved of the scenario run would use were not checked"

// checkScenario checks sc (read from path; nil: none given) as `run path
// --traces PATHS [--catalogs given]` checks it before replaying
// (runner.Preflight), when the traces' catalogs were checked (rep): a run
// whose catalogs cannot be loaded stops on them first. flagLimit is
// --max-unresolved (nil: not given), which replaces the scenario's.
func (rep *validateReport) checkScenario(sc *scenarios.Scenario, path string, paths, given []string, flagLimit *float64, noCatalogs bool) *scenarioPrediction {
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
	cfg, err := runner.FromScenario(sc, runner.Overrides{Traces: onDisk, Catalogs: given, MaxUnresolved: flagLimit}, embeddedData())
	if err != nil {
		p.Checked, p.stop = true, err.Error()
		return p
	}
	p.limit = cfg.MaxUnresolved
	info, err := runner.Preflight(cfg)
	if err != nil {
		p.Checked, p.stop = true, err.Error()
		return p
	}
	p.Checked, p.Unmatched, p.entries = true, info.UnmatchedEntries, info.EntryVersions
	rep.upgrades = cfg.Upgrades
	return p
}

// predictScenario sets rep.Scenario from p, with the entries no version
// the sessions replay serves (as the run's end finds them: the versions
// validate's resolvers counted, and those of the scenario's upgrades);
// a stop on the scenario is what run stops on, before any replay.
func (rep *validateReport) predictScenario(p *scenarioPrediction) {
	rep.Scenario = p
	if p.stop != "" {
		if rep.Run == nil || !rep.Run.Stops || rep.Run.Resolution != nil {
			rep.Run = &runPrediction{Checked: rep.Run != nil && rep.Run.Checked, Stops: true, Reason: p.stop, onScenario: true}
		}
		return
	}
	if !p.Checked || rep.Run == nil || rep.Run.Resolution == nil {
		return
	}
	res, _ := rep.resolution()
	p.UpgradesTakenAsReached = takeUpgradesAsReached(&res, rep.upgrades)
	p.Unreplayed = runner.UnreplayedEntries(p.entries, res.ReplayedVersions())
}

// takeUpgradesAsReached counts the version each upgrade moves a server to
// as replayed in res, when some session replays the server (an upgrade
// moves a server of a session, it adds none: sim.Engine.applyUpgrades),
// and returns them ("server@version"). validate does not replay upgrades,
// so it cannot tell whether one reaches a session; without this, it
// would say run warns of the version an upgrade replays.
func takeUpgradesAsReached(res *sim.Resolution, ups []sim.Upgrade) []string {
	replayed := res.ReplayedVersions()
	var out []string
	for _, u := range ups {
		if len(replayed[u.Server]) == 0 {
			continue
		}
		k := sim.ServerVersion{Server: u.Server, Version: u.To}
		if _, ok := res.VersionsReplayed[k]; !ok {
			res.VersionsReplayed[k] = 0
		}
		if s := u.Server + "@" + u.To; !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// writeText says what was checked of the scenario and run's warnings of
// it; a stop is said with run's (runPrediction.writeText).
func (p *scenarioPrediction) writeText(w io.Writer) error {
	if p == nil {
		return nil
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
	if _, err := fmt.Fprintf(w, "scenario %s: names and upgrades checked against the catalogs run would load\n", p.File); err != nil {
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
	if len(p.UpgradesTakenAsReached) > 0 {
		_, err := fmt.Fprintf(w, "scenario %s: its upgrades (%s) are taken to reach the sessions: validate does not replay them, so an entry only an upgrade's version serves is not warned of, and whether each reaches a session is said by run (run.upgrades_unreached)\n",
			p.File, strings.Join(p.UpgradesTakenAsReached, ", "))
		return err
	}
	return nil
}
