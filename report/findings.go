package report

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// Findings are the sentences a reader must see before trusting the
// numbers, generated from the results (never hand-written): strategies
// whose requests exceed the model's context window, inputs that
// did not resolve or resolved to approximate schemas, catalog tools read
// with a stand-in schema and servers serving no tools, sessions without an
// end, times going backwards, implausible counts and sessions a dated
// upgrade placed by 1970 times in the traces, sessions recorded with
// another model than the run's, strategies recommended for another
// model or tokenizer than the run's, sessions given the whole
// catalog, the routing descriptions routed search used, how many
// searches replayed a recorded query, and strategies whose outcomes
// coincide on this data.
func Findings(res *Results) []string {
	var out []string
	if f := ContextOverflowText(res); f != "" {
		out = append(out, f)
	}
	if r := res.Run.Resolution; r != nil {
		out = append(out, resolutionFindings(r)...)
	}
	for _, n := range res.Run.CatalogNotes {
		out = append(out, catalogNoteFinding(n))
	}
	for _, u := range res.Run.UnchangedUpgrades {
		out = append(out, UnchangedUpgradeText(u))
	}
	if u := res.Run.UnmatchedEntries; len(u) > 0 {
		out = append(out, UnmatchedEntriesText(u))
	}
	if u := UnreplayedEntriesText(res.Run.UnreplayedEntries); u != "" {
		out = append(out, u)
	}
	for _, u := range res.Run.UnreachedUpgrades {
		out = append(out, UnreachedUpgradeText(u, res.Run.Counts.SessionsRead))
	}
	out = append(out, traceFindings(res.Run.Counts)...)
	for _, f := range []string{UnrecordedArgsText(res), UnrecordedResultsText(res)} {
		if f != "" {
			out = append(out, capitalize(f)+".")
		}
	}
	out = append(out, timingFindings(res)...)
	if f := recordedModelFinding(&res.Run); f != "" {
		out = append(out, f)
	}
	if f := tokenizerFinding(&res.Run); f != "" {
		out = append(out, f)
	}
	out = append(out, RecommendedForFindings(res)...)
	if f := srdFinding(res.Run.SRD); f != "" {
		out = append(out, f)
	}
	if f := recordedQueryFinding(res); f != "" {
		out = append(out, f)
	}
	for _, c := range res.Coincident {
		out = append(out, coincidenceFinding(c))
	}
	return out
}

// traceFindings flags what the traces held that the replay took as it was
// recorded: sessions without a session_end or a user message, times going backwards,
// implausible counts, sessions a dated upgrade placed by 1970 times.
func traceFindings(c sim.Counts) []string {
	var out []string
	out = nOf(out, c.SessionsIncomplete, c.SessionsRead, "session", agree("has", "have"), "%s of %s read %s no session_end (a file cut short, a session split across files?): they were replayed as far as they were recorded.")
	if c.SessionsWithoutUser > 0 {
		out = append(out, inputnotes.NoUserText(c.SessionsWithoutUser, c.SessionsRead)+" (`defersim trace validate` lists them).")
	}
	if c.EventsNotReplayed > 0 {
		out = append(out, inputnotes.NotReplayedText(c.EventsNotReplayed, c.SessionsWithEventsNotReplayed, c.SessionsRead)+".")
	}
	out = nOf(out, c.EventsTimeBackwards, c.EventsRead, "trace event", agree("is", "are"), "%s of %s %s earlier than the event before them in their session: the replay takes a user pause that would be negative as 0, so the prompt cache sees no gap there (`defersim trace validate` lists them).")
	out = nOf(out, c.LinesImplausible, c.LinesRead, "trace line", agree("holds", "hold"), "%s of %s %s an implausible count or duration (beyond any real session's), kept as recorded: the figures that use them are dominated by them (`run` names the first five on stderr).")
	out = nOf(out, c.SessionsEpochDated, c.SessionsReplayed, "session", agree("starts", "start"), "%s of %s replayed %s in 1970 or earlier, before the scenario's dated upgrades (servers.NAME.upgrades[].at), and ran on the versions before them: times at the Unix epoch look like placeholders, not recorded times; if they are, upgrade by after_session instead.")
	return out
}

// nOf appends to out, when n > 0, the sentence format says of n of total
// things named noun: format's verbs are n, total with its noun ("1 of 3
// sessions", "1 of 1 session") and verb agreeing with n (verb[0] for 1).
func nOf(out []string, n, total int64, noun string, verb [2]string, format string) []string {
	if n <= 0 {
		return out
	}
	return append(out, fmt.Sprintf(format, fmtInt(float64(n)), fmtNoun(total, noun), nouns.Form(n, verb[0], verb[1])))
}

// agree is the verb of nOf's sentence: one for a count of 1, many otherwise.
func agree(one, many string) [2]string { return [2]string{one, many} }

func resolutionFindings(r *sim.ResolutionInfo) []string {
	var out []string
	pct := func(n int64) string { return fmtShare(float64(n) / float64(max(r.Calls, 1))) }
	if r.Unresolved > 0 {
		out = append(out, fmt.Sprintf("%s of %s (%s) did not resolve against the catalogs: %s. %s, so what deferring them would cost is not in these numbers.",
			fmtInt(float64(r.Unresolved)), fmtNoun(r.Calls, "tool call"), pct(r.Unresolved), toolList(r.TopUnresolved, r.UnresolvedTools, 5, r.UnresolvedOtherCalls),
			capitalize(unresolvedEffect(r))))
	}
	if v := missingServersSentence(r, 5); v != "" {
		out = append(out, v+".")
	}
	if n := r.SchemaApproximate + r.SchemaMissing; n > 0 {
		out = append(out, fmt.Sprintf("%s of %s (%s) %s tools whose schema the import marked approximate (%s) or missing (%s): %s. Their definitions' token counts and the validation of their calls are approximate.",
			fmtInt(float64(n)), fmtNoun(r.Calls, "tool call"), pct(n), nouns.Form(n, "uses", "use"), fmtInt(float64(r.SchemaApproximate)), fmtInt(float64(r.SchemaMissing)),
			toolList(r.NotExact, r.NotExactTools, 5, r.NotExactOtherCalls)))
	}
	if a := ambiguousText(r, 5); a != "" {
		out = append(out, a+". A call that names its server resolves on that server alone.")
	}
	out = nOf(out, r.SessionsWithoutServers, r.Sessions, "session", agree("names", "name"), "%s of %s %s no server in session_start: the replay offered each every catalog server at its latest version, so their prompts carry the whole catalog.")
	out = nOf(out, r.UnorderedLatest, r.Sessions, "session", agree("names", "name"), "%s of %s %s a server whose catalog versions are content hashes (no release order) without saying which version, or name no server: the replay gave them its last version by spelling, which is not its newest.")
	out = nOf(out, r.CatalogChangesMissing, r.CatalogChanges, "catalog change", agree("names", "name"), "%s of %s %s a version no catalog holds: the replay moved the server to its latest version instead.")
	out = nOf(out, r.SearchResultsUnknown, r.SearchResults, "tool name", agree("is", "are"), "%s of %s returned by recorded searches %s served by no server of their session.")
	return out
}

// catalogNoteFinding states one kind of catalog note: how many tools (or
// server versions), which (up to five), and what the replay did with them.
func catalogNoteFinding(n catalog.Note) string {
	var what string
	switch n.Kind {
	case catalog.NoteSchemaMissing, catalog.NoteSchemaNull:
		what = "The replay shows, counts and validates their calls against that stand-in; the servers' real argument schemas are not in these numbers."
	case catalog.NoteNoTools:
		what = "A session naming one is offered none of its tools, and a call to one does not resolve."
	case catalog.NoteSchemaInvalid:
		what = "Their tokens are counted as served, but a stale-warm call checked against one is neither valid nor malformed (the schema cannot check it): it counts in stale_warm_calls only, so malformed_calls may miss calls the real server would reject."
	case catalog.NoteBuildVariant:
		what = "Each is a server of its own in these numbers, beside the server it was captured from; a session naming the server at that version gets the file without the variant."
	case catalog.NoteMetaContradicts:
		what = "Each catalog is replayed as its file lists it; the capture its metadata describes may have served other tools."
	case catalog.NoteVersionsMixed:
		what = "A session that names no version of one replays the last in that order, and its upgrades' drift steps follow it; name each server's versions in one scheme."
	case catalog.NoteToolNameUnusual:
		what = "Their names' tokens are counted as written; a runtime or provider that refuses or renames them would send other requests."
	}
	return fmt.Sprintf("Catalogs: %s: %s. %s", n.Text(), noteItems(n, 5), what)
}

// noteItems names up to k items of a note, and how many more there are.
func noteItems(n catalog.Note, k int) string {
	items := n.Items[:min(k, len(n.Items))]
	s := strings.Join(items, ", ")
	if more := max(n.Count, len(n.Items)) - len(items); more > 0 {
		s += fmt.Sprintf(", … (%d more)", more)
	}
	return s
}

func srdFinding(s *sim.SRDInfo) string {
	if s != nil && !s.Embedded && len(s.UsedBy) == 0 {
		return fmt.Sprintf("The routing descriptions given (%s: %s, sha256 %.12s) were read by no strategy: none searches with routed, routed-hard, bm25f or routed-fused or shows a by-domain directory or notices, so they change no number of this run.",
			s.Source, nouns.Count(s.Count, "SRD"), s.SHA256)
	}
	if s == nil || len(s.UsedBy) == 0 {
		return ""
	}
	which := fmt.Sprintf("the routing descriptions of %s", s.Source)
	if s.Embedded {
		which = "the embedded routing descriptions (the project's, for the servers of the real catalogs; give your own with --srd DIR)"
	}
	return fmt.Sprintf("Routed search and by-domain directories (%s) used %s: %s, sha256 %.12s, describing %d of the run's %s "+
		"(a launch variant is a series of its own, described by its server's SRD unless an SRD names it); a server without one is a domain of its own.",
		strings.Join(s.UsedBy, ", "), which, nouns.Count(s.Count, "SRD"), s.SHA256, s.ServersDescribed, nouns.CountAs(s.Servers, "catalog series", "catalog series"))
}

// recordedQueryFinding states, for the strategies that searched with a
// ranker, the share of their searches that replayed a recorded query.
func recordedQueryFinding(res *Results) string {
	var parts []string
	any := false
	for i := range res.Strategies {
		s := &res.Strategies[i]
		if s.Parameters.Search.Mode == "" || s.Parameters.Search.Mode == "select" {
			continue
		}
		n := s.Metrics[sim.Metrics[sim.MSearches].Name].Sum
		rec := s.Metrics[sim.Metrics[sim.MRecordedQuerySearches].Name].Sum
		if n == 0 {
			continue
		}
		any = any || rec > 0
		parts = append(parts, fmt.Sprintf("%s %s of %s", s.Name, fmtShare(rec/n), fmtInt(n)))
	}
	switch {
	case len(parts) == 0:
		return ""
	case !any:
		return "No search replayed a recorded query (the traces record none for the tools they call): every ranked search's query came from its query model (assumptions query_model.*)."
	}
	return "Searches that replayed a recorded query (the rest came from the query model): " + strings.Join(parts, "; ") + "."
}

func coincidenceFinding(c Coincidence) string {
	s := fmt.Sprintf("%s had identical outcomes on every session", nouns.And(c.Strategies))
	if len(c.Differ) > 0 {
		s += fmt.Sprintf(", though they differ in %s", strings.Join(c.Differ, ", "))
	} else {
		s += " (their parameters are the same)"
	}
	if c.Reason != "" {
		s += ": " + c.Reason
	}
	if len(c.Unexplained) > 0 {
		s += fmt.Sprintf(" (no reason derived for %s)", strings.Join(c.Unexplained, ", "))
	}
	return s + ". On this data they are one strategy."
}

// UnchangedUpgradeText says that a scenario upgrade changes nothing in the
// replay (sim.UnchangedUpgrade).
func UnchangedUpgradeText(u sim.UnchangedUpgrade) string {
	return fmt.Sprintf("The upgrade of %s to %s (servers.%s.upgrades) changes nothing in the replay: %s serves the same tools as %s, the catalog version before it "+
		"(the same names, and the same fingerprints of what the model sees, or of the whole tool under catalog_fingerprint: served); "+
		"sessions moved from %s replay as without it.", u.Server, u.To, u.Server, u.To, u.From, u.From)
}

// UnmatchedEntriesText says that entries of the scenario's lists match
// nothing in the run's catalogs (sim.RunInfo.UnmatchedEntries), so they
// change nothing in the replay.
func UnmatchedEntriesText(entries []string) string {
	list := strings.Join(entries, "; ")
	if !strings.HasSuffix(list, "?") { // an entry ends with its "did you mean …?"
		list += "."
	}
	return fmt.Sprintf("%s of the scenario's lists %s nothing in the run's catalogs, so %s nothing in the replay (a typo, or written for other catalogs?): %s",
		nouns.Count(len(entries), "entry"), nouns.Form(len(entries), "matches", "match"), nouns.Form(len(entries), "it changes", "they change"), list)
}

// UnreachedUpgradeText says that a scenario upgrade applied to no replayed
// session (sim.UnreachedUpgrade), with the likely reason; read is the
// number of sessions the traces hold.
func UnreachedUpgradeText(u sim.UnreachedUpgrade, read int64) string {
	when, why := "", "no replayed session connects "+u.Server+" when it applies"
	switch {
	case u.AfterSession != nil:
		when = fmt.Sprintf(", after_session: %d", *u.AfterSession)
		if *u.AfterSession >= read {
			why = fmt.Sprintf("after_session counts sessions from 0 in trace order, and the traces hold %s", nouns.Count(read, "session"))
		} else {
			why = fmt.Sprintf("no replayed session from the %d-th on (counting from 0) connects %s", *u.AfterSession, u.Server)
		}
	case u.At != "":
		when = ", at: " + u.At
		why = fmt.Sprintf("no replayed session that connects %s starts at or runs past %s", u.Server, u.At)
	}
	return fmt.Sprintf("The upgrade of %s to %s (servers.%s.upgrades%s) applied to no replayed session, so it changes nothing in the replay: %s.",
		u.Server, u.To, u.Server, when, why)
}
