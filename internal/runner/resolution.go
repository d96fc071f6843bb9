package runner

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// DefaultMaxUnresolved is sim.DefaultMaxUnresolved: the share of tool
// calls that may fail to resolve before a run stops.
const DefaultMaxUnresolved = sim.DefaultMaxUnresolved

// topResolutionTools is how many tools results.json names per list.
const topResolutionTools = 20

// HeldServers is what a run's catalogs hold: each server's versions, in
// release order (catalog.CompareVersions).
type HeldServers map[string][]string

// SummarizeResolution summarises a run's resolution under its policy:
// at most share maxShare of the calls unresolved, and of the sessions
// naming a server or version no catalog holds, unless allow. held is what
// the run's catalogs hold (nil: not known).
func SummarizeResolution(r *sim.Resolution, maxShare float64, allow bool, held HeldServers) *sim.ResolutionInfo {
	unresolved := []string{sim.ClassUnknownTool, sim.ClassUnknownServer, sim.ClassVersionMissing}
	notExact := []string{sim.ClassSchemaApproximate, sim.ClassSchemaMissing}
	info := &sim.ResolutionInfo{Resolution: *r, Unresolved: r.Unresolved(), UnresolvedShare: r.UnresolvedShare(),
		MaxUnresolvedShare: maxShare, AllowUnresolved: allow,
		TopUnresolved: r.Top(topResolutionTools, unresolved...), UnresolvedTools: r.Distinct(unresolved...),
		UnresolvedOtherCalls: r.ToolsBeyond.Of(unresolved...),
		NotExact:             r.Top(topResolutionTools, notExact...), NotExactTools: r.Distinct(notExact...),
		NotExactOtherCalls: r.ToolsBeyond.Of(notExact...)}
	info.TopAmbiguous, info.AmbiguousTools = r.TopAmbiguous(topResolutionTools), len(r.Ambiguities)
	info.AmbiguousOtherCalls = r.AmbiguousBeyond
	info.TopMissingVersions = r.TopMissingVersions(topResolutionTools)
	info.MissingVersionsCount, info.MissingVersionsOtherCalls = len(r.MissingVersions), r.MissingVersionsBeyond
	if held != nil {
		for i := range info.TopMissingVersions {
			info.TopMissingVersions[i].Held = held[info.TopMissingVersions[i].Server]
		}
	}
	info.SessionsMissingShare = r.SessionsMissingShare()
	info.TopMissingServers = r.TopMissingServers(topResolutionTools)
	info.MissingServersCount, info.MissingServersOtherSessions = len(r.MissingServers), r.MissingServersBeyond
	if held != nil {
		for i := range info.TopMissingServers {
			info.TopMissingServers[i].Held = held[info.TopMissingServers[i].Server]
		}
	}
	info.UnreplayedVersions = unreplayedVersions(r.ReplayedVersions(), held)
	info.Tools, info.Ambiguities, info.MissingVersions, info.MissingServers = nil, nil, nil, nil
	info.VersionsReplayed = nil
	return info
}

// unreplayedVersions lists, for each server of replayed (its versions some
// session replayed), the versions held (in release order) after the newest
// one replayed: the catalogs' upgrades of the server that no session
// replayed. A version between two replayed ones is not listed: sessions
// moved past it. Nil when held is not known or no server has one.
func unreplayedVersions(replayed map[string][]string, held HeldServers) []sim.UnreplayedVersions {
	var out []sim.UnreplayedVersions
	for _, server := range slices.Sorted(maps.Keys(replayed)) {
		vs := held[server]
		newest := -1
		var done []string
		for i, v := range vs {
			if slices.Contains(replayed[server], v) {
				newest = i
				done = append(done, v)
			}
		}
		if newest >= 0 && newest < len(vs)-1 {
			out = append(out, sim.UnreplayedVersions{Server: server, Versions: slices.Clone(vs[newest+1:]), Replayed: done})
		}
	}
	return out
}

// heldVersions returns what the catalog inputs hold, by series key (as
// CatalogVersions and the resolution's server names key them).
func heldVersions(inputs []sim.Input) HeldServers {
	out := HeldServers{}
	for _, in := range inputs {
		if key := inputSeries(in); in.Kind == "catalog" && !slices.Contains(out[key], in.Version) {
			out[key] = append(out[key], in.Version)
		}
	}
	for _, vs := range out {
		slices.SortFunc(vs, catalog.CompareVersions)
	}
	return out
}

// inputSeries returns the series key of a catalog input. An input records
// its server's name and version, not its launch variant (results.json's
// inputs keep their fields): the variant is read from the file name it was
// loaded from (catalog.ParseFileName) when that names the same server and
// version. A variant only a manifest gives, under a file name of another
// form, is not seen: the input is then filed under the bare name.
func inputSeries(in sim.Input) string {
	name, version, variant := catalog.ParseFileName(in.Path)
	if variant != "" && name == in.Server && version == in.Version {
		return in.Server + "+" + variant
	}
	return in.Server
}

// CatalogVersions returns what cat holds: SummarizeResolution's held for a
// caller that has the catalog rather than the run's inputs.
func CatalogVersions(cat *catalog.Catalog) HeldServers {
	out := HeldServers{}
	for server, srvs := range cat.Versions {
		for _, srv := range srvs {
			if !slices.Contains(out[server], srv.Version) {
				out[server] = append(out[server], srv.Version)
			}
		}
		slices.SortFunc(out[server], catalog.CompareVersions)
	}
	return out
}

// UnresolvedError stops a run whose share of unresolved calls is above its
// threshold: nothing is written. Output is the run's output (for the
// resolution table; nil where no run made it, as in recommend). FixedLimit
// says the command has no way to raise the threshold (recommend holds its
// sessions to DefaultMaxUnresolved), so the message does not suggest one.
//
// Held is what the catalogs hold (nil: not known): a server no catalog
// holds is offered the held name it most likely means (catalog.NearName:
// case, prefix or typo), else told how many servers they hold.
type UnresolvedError struct {
	Output     *Output
	Resolution *sim.ResolutionInfo
	FixedLimit bool
	Held       HeldServers
}

// near says, for a server no catalog holds, the held server name it most
// likely means (catalog.NearName), or how many they hold when none is close ("" when held
// is not known).
func (e *UnresolvedError) near(server string) string {
	if e.Held == nil {
		return ""
	}
	names := slices.Sorted(maps.Keys(e.Held))
	if near := catalog.NearName(server, names); near.Kind != catalog.NearNone {
		return near.Hint()
	}
	return fmt.Sprintf("they hold %s, none with a close name", nouns.Count(len(names), "server"))
}

func (e *UnresolvedError) Error() string {
	var b strings.Builder
	b.WriteString(e.Reason())
	b.WriteString(". Check the catalogs (--catalogs, or the catalog the traces name; add the catalog of each server version named), ")
	if !e.FixedLimit {
		b.WriteString("raise the limit (run's --max-unresolved, or the scenario's max_unresolved), ")
	}
	b.WriteString("or pass --allow-unresolved to replay anyway; nothing was written")
	if !e.FixedLimit {
		if u := e.upgradeRoute(); u != "" {
			b.WriteString(". " + u)
		}
	}
	return b.String()
}

// upgradeRoute says, for the servers the sessions name at a version no
// catalog holds while the catalogs hold others of them, how a run tests
// an upgrade to a held version: the scenario's servers.NAME.upgrades,
// with the catalog of the version the traces name kept beside it (the
// sessions resolve at that version first). "" when there is none.
func (e *UnresolvedError) upgradeRoute() string {
	r := e.Resolution
	held := map[string][]string{}
	var servers []string
	add := func(server string, h []string) {
		if _, ok := held[server]; !ok && len(h) > 0 {
			held[server] = h
			servers = append(servers, server)
		}
	}
	for _, v := range r.TopMissingVersions {
		add(v.Server, v.Held)
	}
	for _, v := range r.TopMissingServers {
		if v.Version != "" {
			add(v.Server, v.Held)
		}
	}
	if len(servers) == 0 {
		return ""
	}
	slices.Sort(servers)
	var parts []string
	for _, s := range servers {
		parts = append(parts, fmt.Sprintf("servers.%s.upgrades (to %s)", s, nouns.Or(held[s])))
	}
	return "To test an upgrade to a version the catalogs hold, keep the catalog of the version the traces name beside it and add " +
		nouns.And(parts) + " to the scenario (docs/scenarios.md#servers)"
}

// Reason says why the run stops, without what to do about it: the
// unresolved calls and the sessions naming a server or version no catalog
// holds that are past the limit. `trace validate` says it of the run it
// predicts.
func (e *UnresolvedError) Reason() string {
	r := e.Resolution
	var b strings.Builder
	if r.CallsPastLimit() || !r.SessionsPastLimit() {
		e.writeCalls(&b)
	}
	if r.SessionsPastLimit() {
		if b.Len() > 0 {
			b.WriteString("; and ")
		}
		fmt.Fprintf(&b, "%d of %s (%.1f%%) name, in session_start or a catalog_change, a server or version no catalog holds, more than the %s allowed: %s (the replay would leave such a server out of every request of the session, or offer another version of it)",
			r.SessionsMissingServers, nouns.Count(r.Sessions, "session"), 100*r.SessionsMissingShare, sim.SharePercent(r.MaxUnresolvedShare), report.MissingServersText(r, 5, e.near))
	}
	return b.String()
}

// writeCalls says how many calls did not resolve and the most frequent.
func (e *UnresolvedError) writeCalls(b *strings.Builder) {
	r := e.Resolution
	fmt.Fprintf(b, "%d of %s (%.1f%%) did not resolve against the catalogs, more than the %s allowed",
		r.Unresolved, nouns.Count(r.Calls, "tool call"), 100*r.UnresolvedShare, sim.SharePercent(r.MaxUnresolvedShare))
	if r.UpgradeRemoved > 0 {
		fmt.Fprintf(b, " (%d of them call a tool that the sessions' recorded server versions serve and the version a scenario upgrade moves the server to does not: "+
			"removed or renamed by the upgrade, servers.NAME.upgrades)", r.UpgradeRemoved)
	}
	if len(r.TopUnresolved) > 0 || r.UnresolvedOtherCalls > 0 {
		b.WriteString("; most frequent: ")
		for i, t := range r.TopUnresolved {
			if i == 5 {
				fmt.Fprintf(b, ", … (%d more)", max(r.UnresolvedTools, len(r.TopUnresolved))-5)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%s (%s, %d)", sim.ToolLabel(t.Server, t.Tool), sim.ClassLabel(t.Class), t.Calls)
		}
		if r.UnresolvedOtherCalls > 0 {
			if len(r.TopUnresolved) > 0 {
				b.WriteString(", and ")
			}
			fmt.Fprintf(b, "%s of %s", nouns.Count(r.UnresolvedOtherCalls, "call"), sim.BeyondToolsText)
		}
	}
	if slices.ContainsFunc(r.TopUnresolved, func(t sim.ToolCount) bool { return t.Class == sim.ClassUnknownTool }) {
		b.WriteString(validateHint(r))
	}
	if v := report.MissingVersionsText(r, 5); v != "" {
		b.WriteString("; versions the sessions asked for that the catalogs lack (the replay used another version of the server): " + v)
	}
}

// validateHint points a stop on unknown-tool calls at `trace validate`,
// saying what it lists: each line validate resolves as the trace records
// it, which is not where a call an upgrade left unserved fails
// (r.UpgradeRemoved: the version the trace records serves the tool), so
// those calls are only counted, by validate --scenario.
func validateHint(r *sim.ResolutionInfo) string {
	const names = "for a tool name the catalogs serve in another case, without a prefix such as mcp__<server>__, or spelled closely, that name"
	switch {
	case r.UpgradeRemoved == 0:
		return " (`defersim trace validate` with the same catalogs lists each call with its line and, " + names + ")"
	case r.UpgradeRemoved >= r.UnknownTool:
		return fmt.Sprintf(" (`defersim trace validate --scenario` with the run's scenario and catalogs counts %s in its run: line but lists no line for %s: "+
			"it checks each line at the server version the trace records, which serves the tool)",
			nouns.Form(r.UpgradeRemoved, "this call", fmt.Sprintf("these %d calls", r.UpgradeRemoved)), nouns.Form(r.UpgradeRemoved, "it", "them"))
	default:
		return fmt.Sprintf(" (`defersim trace validate` with the same catalogs lists each call with its line, except the %d an upgrade left unserved, "+
			"which `trace validate --scenario` with the run's scenario only counts in its run: line; and, %s)", r.UpgradeRemoved, names)
	}
}

// checkResolution returns an *UnresolvedError when out's resolution is
// above its threshold and the run does not allow it.
func checkResolution(out *Output) error {
	e := StopFor(out.Info.Resolution, heldVersions(out.Info.Inputs))
	if e == nil {
		return nil
	}
	e.Output = out
	return e
}

// StopFor returns the error a run stops with on resolution r (its
// SummarizeResolution), with held what its catalogs hold: nil when r is
// within its limit or allowed past it. `trace validate` asks it what the
// run over its traces would do.
func StopFor(r *sim.ResolutionInfo, held HeldServers) *UnresolvedError {
	if r == nil || r.AllowUnresolved || !r.PastLimit() {
		return nil
	}
	return &UnresolvedError{Resolution: r, Held: held}
}
