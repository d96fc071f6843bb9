package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// resolutionRow is one row of the input resolution table.
type resolutionRow struct {
	Label string
	Calls int64
	Share string // of all calls
}

// resolutionRows are the rows of the input resolution table: every class
// of call, then the unresolved total.
func resolutionRows(r *sim.ResolutionInfo) []resolutionRow {
	share := func(n int64) string {
		if r.Calls == 0 {
			return ""
		}
		return fmtShare(float64(n) / float64(r.Calls))
	}
	rows := []resolutionRow{
		{"resolved", r.Resolved, ""},
		{"resolved, schema approximate", r.SchemaApproximate, ""},
		{"resolved, schema missing (stand-in)", r.SchemaMissing, ""},
		{"unknown tool", r.UnknownTool, ""},
		{"unknown server", r.UnknownServer, ""},
		{"version missing", r.VersionMissing, ""},
		{"unresolved (unknown tool, server or version)", r.Unresolved, ""},
	}
	if r.UpgradeRemoved > 0 {
		rows = slices.Insert(rows, 4, resolutionRow{Label: UpgradeRemovedLabel, Calls: r.UpgradeRemoved})
	}
	for i := range rows {
		rows[i].Share = share(rows[i].Calls)
	}
	return rows
}

// UpgradeRemovedLabel is the resolution table's row of the unknown-tool
// calls a scenario upgrade made unknown (sim.Resolution.UpgradeRemoved).
const UpgradeRemovedLabel = "unknown tool, of which served as recorded but not after a scenario upgrade"

// fmtShare formats a share as a percentage with one decimal (two below
// 1%, where the stop threshold usually is).
func fmtShare(v float64) string {
	if v > 0 && v < 0.01 {
		return fmt.Sprintf("%.2f%%", 100*v)
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

// thresholdText says what happens above the threshold. A run with
// sessions naming a server or version no catalog holds says that the
// threshold holds their share too (a run without any reads as before).
func thresholdText(r *sim.ResolutionInfo) string {
	limit := fmtShare(r.MaxUnresolvedShare) + " unresolved"
	if r.SessionsMissingServers > 0 {
		limit = fmt.Sprintf("%s of calls unresolved or of sessions naming a server or version no catalog holds", fmtShare(r.MaxUnresolvedShare))
	}
	if r.AllowUnresolved {
		return fmt.Sprintf("a run stops above %s; this one was allowed to go on (--allow-unresolved)", limit)
	}
	return fmt.Sprintf("a run stops above %s (--max-unresolved, scenario max_unresolved; --allow-unresolved replays anyway)", limit)
}

// otherInputsText counts what is resolved besides calls.
func otherInputsText(r *sim.ResolutionInfo) string {
	return fmt.Sprintf("search results: %s tool names returned by recorded searches, %s unknown; catalog changes: %s, %s to a version no catalog holds; sessions naming no server: %s of %s",
		fmtInt(float64(r.SearchResults)), fmtInt(float64(r.SearchResultsUnknown)), fmtInt(float64(r.CatalogChanges)),
		fmtInt(float64(r.CatalogChangesMissing)), fmtInt(float64(r.SessionsWithoutServers)), fmtInt(float64(r.Sessions)))
}

// toolList names up to n tools with their class and calls; total is how
// many distinct tools there are (results of earlier builds: 0, the list's
// length is used), other the calls of tools beyond those the run tells
// apart (sim.MaxResolutionTools).
func toolList(ts []sim.ToolCount, total, n int, other int64) string {
	var parts []string
	for i, t := range ts {
		if i == n {
			parts = append(parts, fmt.Sprintf("… (%d more)", max(total, len(ts))-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s, %s)", sim.ToolLabel(t.Server, t.Tool), sim.ClassLabel(t.Class), callsText(t.Calls)))
	}
	return withBeyond(parts, other)
}

// callsText is a count of calls in words: "1 call", "1,234 calls".
func callsText(n int64) string { return fmtNoun(n, "call") }

// withBeyond joins parts, then counts the calls of tools beyond those a
// run tells apart.
func withBeyond(parts []string, calls int64) string {
	if calls > 0 {
		and := "and "
		if len(parts) == 0 {
			and = ""
		}
		parts = append(parts, fmt.Sprintf("%s%s of %s", and, callsText(calls), sim.BeyondToolsText))
	}
	return strings.Join(parts, ", ")
}

// ambiguousText says how many calls named no server for a tool name that
// several servers of the session serve, which server they resolved to and
// by what rule ("" when none).
func ambiguousText(r *sim.ResolutionInfo, n int) string {
	if r.Ambiguous == 0 {
		return ""
	}
	var parts []string
	for i, a := range r.TopAmbiguous {
		if i == n {
			parts = append(parts, fmt.Sprintf("… (%d more)", max(r.AmbiguousTools, len(r.TopAmbiguous))-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s → %s (also served by %s; %s)", a.Tool, a.Chosen,
			strings.Join(a.Servers[1:], ", "), callsText(a.Calls)))
	}
	return fmt.Sprintf("%s of %s (%s) %s no server, and several servers of their session serve the tool: each resolved to %s: %s",
		fmtInt(float64(r.Ambiguous)), fmtNoun(r.Calls, "tool call"), fmtShare(float64(r.Ambiguous)/float64(max(r.Calls, 1))), nouns.Form(r.Ambiguous, "names", "name"),
		sim.AmbiguousRule, withBeyond(parts, r.AmbiguousOtherCalls))
}

// WriteResolution prints the input resolution table of a run for a
// terminal.
func WriteResolution(w io.Writer, r *sim.ResolutionInfo) error {
	if r == nil {
		return nil
	}
	fmt.Fprintf(w, "input resolution: %s against the catalogs\n", fmtNoun(r.Calls, "tool call"))
	rows := resolutionRows(r)
	wl, wn := 0, 0
	for _, row := range rows {
		wl, wn = max(wl, len(row.Label)), max(wn, len(fmtInt(float64(row.Calls))))
	}
	for _, row := range rows {
		if _, err := fmt.Fprintf(w, "  %-*s  %*s  %7s\n", wl, row.Label, wn, fmtInt(float64(row.Calls)), row.Share); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "  %s\n", thresholdText(r))
	fmt.Fprintf(w, "  %s\n", otherInputsText(r))
	if len(r.TopUnresolved) > 0 || r.UnresolvedOtherCalls > 0 {
		fmt.Fprintf(w, "  most called unresolved: %s\n", toolList(r.TopUnresolved, r.UnresolvedTools, 10, r.UnresolvedOtherCalls))
	}
	if v := MissingVersionsText(r, 10); v != "" {
		fmt.Fprintf(w, "  versions asked for that the catalogs lack: %s\n", v)
	}
	if v := missingServersSentence(r, 10); v != "" {
		fmt.Fprintf(w, "  %s\n", v)
	}
	if len(r.NotExact) > 0 || r.NotExactOtherCalls > 0 {
		fmt.Fprintf(w, "  schema not exact: %s\n", toolList(r.NotExact, r.NotExactTools, 10, r.NotExactOtherCalls))
	}
	if a := ambiguousText(r, 10); a != "" {
		fmt.Fprintf(w, "  ambiguous: %s\n", a)
	}
	if r.UnorderedLatest > 0 {
		fmt.Fprintf(w, "  %s of %s sessions replayed a server whose versions are content hashes at its last version by spelling (no version named)\n",
			fmtInt(float64(r.UnorderedLatest)), fmtInt(float64(r.Sessions)))
	}
	return nil
}

// resolutionIntro says what the input resolution table counts: every
// replayed tool call, resolved or not (report.html's caption once said
// every call resolved, above a table that could count unresolved ones).
func resolutionIntro(r *sim.ResolutionInfo) string {
	return fmtNoun(r.Calls, "tool call") + " checked against the catalogs, as the replay resolves them"
}

// resolutionMarkdown is the input resolution section of report.md.
func resolutionMarkdown(b *strings.Builder, r *sim.ResolutionInfo) {
	fmt.Fprintf(b, "\n## Input resolution\n\n%s; %s.\n\n| calls | count | share |\n| --- | ---: | ---: |\n",
		mdEscape(resolutionIntro(r)), mdEscape(thresholdText(r)))
	for _, row := range resolutionRows(r) {
		fmt.Fprintf(b, "| %s | %s | %s |\n", mdEscape(row.Label), fmtInt(float64(row.Calls)), row.Share)
	}
	fmt.Fprintf(b, "\n%s.\n", mdEscape(otherInputsText(r)))
	if u := UnreplayedText(r); u != "" {
		fmt.Fprintf(b, "\n**Warning:** %s\n", mdEscape(u))
	}
	if len(r.TopUnresolved) > 0 || r.UnresolvedOtherCalls > 0 {
		fmt.Fprintf(b, "\nMost called unresolved: %s.\n", mdEscape(toolList(r.TopUnresolved, r.UnresolvedTools, 10, r.UnresolvedOtherCalls)))
	}
	if v := MissingVersionsText(r, 10); v != "" {
		fmt.Fprintf(b, "\nVersions asked for that the catalogs lack: %s.\n", mdEscape(v))
	}
	if v := missingServersSentence(r, 10); v != "" {
		fmt.Fprintf(b, "\n%s.\n", mdEscape(v))
	}
	if len(r.NotExact) > 0 || r.NotExactOtherCalls > 0 {
		fmt.Fprintf(b, "\nSchema not exact: %s.\n", mdEscape(toolList(r.NotExact, r.NotExactTools, 10, r.NotExactOtherCalls)))
	}
	if a := ambiguousText(r, 10); a != "" {
		fmt.Fprintf(b, "\nAmbiguous: %s.\n", mdEscape(a))
	}
}

// MissingVersionsText names the versions the sessions asked for that the
// catalogs lack (up to n, most calls first, with their calls, then how
// many more), then the versions the catalogs hold of those servers; ""
// when there are none.
func MissingVersionsText(r *sim.ResolutionInfo, n int) string {
	if len(r.TopMissingVersions) == 0 && r.MissingVersionsOtherCalls == 0 {
		return ""
	}
	var parts, servers []string
	held := map[string][]string{}
	for i, v := range r.TopMissingVersions {
		if i == n {
			parts = append(parts, fmt.Sprintf("… (%d more)", max(r.MissingVersionsCount, len(r.TopMissingVersions))-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %q (%s)", v.Server, v.Requested, callsText(v.Calls)))
		if _, seen := held[v.Server]; !seen && len(v.Held) > 0 {
			servers = append(servers, v.Server)
			held[v.Server] = v.Held
		}
	}
	if r.MissingVersionsOtherCalls > 0 {
		parts = append(parts, fmt.Sprintf("%s of further versions, beyond the first %d (bytewise) a run tells apart",
			callsText(r.MissingVersionsOtherCalls), sim.MaxResolutionTools))
	}
	text := strings.Join(parts, ", ")
	if len(servers) > 0 {
		var hold []string
		for _, srv := range servers {
			hold = append(hold, srv+" "+strings.Join(held[srv], ", "))
		}
		text += "; the catalogs hold " + strings.Join(hold, "; ")
	}
	return text
}

// MissingServersText names the server versions sessions named that no
// catalog holds (up to n, most sessions first, then how many more), each
// with its sessions and the versions the catalogs hold of the server;
// "" when there are none. near, when not nil, says more of a server no
// catalog holds ("" for nothing more).
func MissingServersText(r *sim.ResolutionInfo, n int, near func(server string) string) string {
	if len(r.TopMissingServers) == 0 && r.MissingServersOtherSessions == 0 {
		return ""
	}
	var parts []string
	for i, v := range r.TopMissingServers {
		if i == n {
			parts = append(parts, fmt.Sprintf("… (%d more)", max(r.MissingServersCount, len(r.TopMissingServers))-n))
			break
		}
		label := v.Server
		if v.Version != "" {
			label += "@" + v.Version
		}
		held := "no catalog holds the server"
		if len(v.Held) > 0 {
			held = "the catalogs hold " + v.Server + " " + strings.Join(v.Held, ", ")
		} else if near != nil {
			if s := near(v.Server); s != "" {
				held += "; " + s
			}
		}
		parts = append(parts, fmt.Sprintf("%s (%s; %s)", label, nouns.Count(v.Sessions, "session"), held))
	}
	if r.MissingServersOtherSessions > 0 {
		parts = append(parts, fmt.Sprintf("%s of further server versions, beyond the first %d (bytewise) a run tells apart",
			nouns.Count(r.MissingServersOtherSessions, "session"), sim.MaxResolutionTools))
	}
	return strings.Join(parts, ", ")
}

// missingServersSentence says how many sessions name a server or version
// no catalog holds, which, and what the replay did with them; "" when none
// does.
func missingServersSentence(r *sim.ResolutionInfo, n int) string {
	if r.SessionsMissingServers == 0 {
		return ""
	}
	return fmt.Sprintf("%s of %s sessions (%s) name, in session_start or a catalog_change, a server or version no catalog holds: %s. %s",
		fmtInt(float64(r.SessionsMissingServers)), fmtInt(float64(r.Sessions)), fmtShare(r.SessionsMissingShare),
		MissingServersText(r, n, nil), MissingServersEffect)
}

// MissingServersEffect says what the replay does with a session naming a
// server or version no catalog holds.
const MissingServersEffect = "The replay leaves a server no catalog holds out of every request of the session (its tools are in no prompt, directory, search or count), " +
	"and offers a server at a version no catalog holds at its latest version instead, so every figure of those sessions is off"
