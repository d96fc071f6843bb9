package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// runPrediction is what `trace validate` says run would do with its
// traces: the resolution a run over them and the same catalogs computes
// (sim.CallResolver counts it, runner.SummarizeResolution summarises it),
// and whether the run would stop on it (runner.StopFor).
type runPrediction struct {
	// Checked says the tool names of every file were resolved against
	// catalogs (validateResult.ToolNamesChecked). It is false under
	// --no-catalogs, where nothing else is said, and when a file cannot be
	// read or has no catalog, where Stops and Reason say run would stop.
	Checked bool `json:"checked"`
	// Resolution is run's run.resolution over the same traces and
	// catalogs (results-format.md); nil when a file or its catalog cannot
	// be read, on which run stops before resolving anything.
	Resolution *sim.ResolutionInfo `json:"resolution,omitempty"`
	// Stops says run would stop (exit status 2, nothing written); Reason
	// says why, as run would.
	Stops  bool   `json:"stops"`
	Reason string `json:"reason,omitempty"`
	// onScenario says run stops on the scenario (--scenario: a name or
	// upgrade its catalogs do not have), before replaying a session.
	onScenario bool
}

// predict fills rep.Run from the resolvers the files were checked with,
// under the limit maxShare (run's --max-unresolved); noCatalogs says tool
// names were not checked. Several files are checked against the catalogs
// run loads for them together (validateFiles), so there is one resolver;
// only when those cannot be loaded is each file checked alone, and then
// the input error is what run stops on.
func (rep *validateReport) predict(maxShare float64, noCatalogs bool) {
	if noCatalogs {
		rep.Run = &runPrediction{}
		return
	}
	unreadable := 0
	for _, f := range rep.Files {
		if f.Error != "" {
			unreadable++
		}
	}
	if unreadable > 0 {
		// run stops on the first input it cannot read, before resolving
		// anything.
		rep.Run = &runPrediction{Stops: true,
			Reason: fmt.Sprintf("%d of %s, or its catalog, cannot be read (said above)", unreadable, nouns.Count(len(rep.Files), "trace file"))}
		return
	}
	for _, f := range rep.Files {
		if f.stop != "" {
			// run stops on its catalogs, before reading a session.
			rep.Run = &runPrediction{Stops: true, Reason: f.stop}
			return
		}
	}
	if rep.resolveErr != nil {
		// run stops on it while reading the traces (--scenario).
		rep.Run = &runPrediction{Checked: rep.toolNamesChecked(), Stops: true, Reason: rep.resolveErr.Error()}
		return
	}
	res, held := rep.resolution()
	info := runner.SummarizeResolution(&res, maxShare, false, held)
	p := &runPrediction{Checked: rep.toolNamesChecked(), Resolution: info}
	if e := runner.StopFor(info, held); e != nil {
		p.Stops, p.Reason = true, e.Reason()
	}
	rep.Run = p
}

// resolution merges what the resolvers the files were checked with
// counted, and the server versions their catalogs hold; with --scenario,
// the resolution is the run's instead (rep.resolved: the scenario's
// upgrades replayed, so that a call an upgrade leaves unserved is
// unresolved, as run counts it).
func (rep *validateReport) resolution() (sim.Resolution, runner.HeldServers) {
	var res sim.Resolution
	held := runner.HeldServers{}
	for _, r := range rep.resolvers {
		one := r.r.Resolution()
		res.Merge(&one)
		for server, versions := range r.held {
			for _, v := range versions {
				if !slices.Contains(held[server], v) {
					held[server] = append(held[server], v)
				}
			}
			slices.SortFunc(held[server], catalog.CompareVersions)
		}
	}
	if rep.resolved != nil {
		res = sim.Resolution{}
		res.Merge(&rep.resolved.Resolution) // a copy: the summary sorts its lists
	}
	return res, held
}

// toolNamesChecked says every file's tool names were resolved against
// catalogs.
func (rep *validateReport) toolNamesChecked() bool {
	for _, f := range rep.Files {
		if !f.ToolNamesChecked {
			return false
		}
	}
	return true
}

// writeText says what run would do: the shares its stop rule reads, and
// "run would stop: …" past the limit.
func (p *runPrediction) writeText(w io.Writer) error {
	if p == nil {
		return nil
	}
	if !p.Checked && !p.Stops {
		_, err := fmt.Fprintln(w, "run: tool names NOT checked (--no-catalogs): validate cannot say whether run would resolve the calls")
		return err
	}
	r := p.Resolution
	if p.onScenario {
		_, err := fmt.Fprintf(w, "run would stop on the scenario, before replaying a session: %s\n", p.Reason)
		return err
	}
	if r == nil {
		_, err := fmt.Fprintf(w, "run would stop: %s\n", p.Reason)
		return err
	}
	if _, err := fmt.Fprintf(w, "run: %d of %s (%.1f%%) would not resolve, %d of %s (%.1f%%) name a server or version missing from the catalogs; run stops above %s of either\n",
		r.Unresolved, nouns.Count(r.Calls, "tool call"), 100*r.UnresolvedShare,
		r.SessionsMissingServers, nouns.Count(r.Sessions, "session"), 100*r.SessionsMissingShare, sim.SharePercent(r.MaxUnresolvedShare)); err != nil {
		return err
	}
	if r.UpgradeRemoved > 0 {
		if _, err := fmt.Fprintf(w, "run: %d of the calls that would not resolve call a tool the sessions' recorded server versions serve and the version a scenario upgrade moves the server to does not (removed or renamed by the upgrade; results.json run.resolution.unknown_tool_after_upgrade)\n",
			r.UpgradeRemoved); err != nil {
			return err
		}
	}
	// run's warning (runsummary.WarnUnreplayed), said before the run.
	if err := report.WriteUnreplayed(w, "run would warn: ", r.UnreplayedVersions); err != nil {
		return err
	}
	if !p.Stops {
		return nil
	}
	_, err := fmt.Fprintf(w, "run would stop: %s (--max-unresolved / --allow-unresolved)\n", p.Reason)
	return err
}

// writeCheckedAgainst says which catalogs the file's tools were checked
// against, when they are the ones run would load for it.
func writeCheckedAgainst(w io.Writer, f validateResult) error {
	var err error
	switch {
	case f.joint && f.CatalogsFrom == runner.CatalogsFromTraces:
		_, err = fmt.Fprintf(w, "%s: tools checked against the traces' catalogs %s, which `run --traces` loads together for all the files given\n", f.File, f.Catalog)
	case f.CatalogsFrom == runner.CatalogsFromTraces:
		_, err = fmt.Fprintf(w, "%s: tools checked against its catalog %s\n", f.File, f.Catalog)
	case f.stop != "":
		_, err = fmt.Fprintf(w, "%s: tool names NOT checked: the trace names no catalog of its own and none is beside it, so `run --traces FILE` would stop (below)\n", f.File)
	default:
		_, err = fmt.Fprintf(w, "%s: tools checked against %s: %s\n", f.File, f.CatalogsFrom, f.Catalog)
	}
	return err
}
