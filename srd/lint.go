package srd

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
)

// LintOptions configures Lint.
type LintOptions struct {
	// Catalog, when set, is checked against: every server_id must have a
	// catalog and every tool in tool_groups must be served by some version
	// (or launch variant) of that server; one that no latest version
	// serves is a warning (Problem.Warning).
	Catalog *catalog.Catalog
	// KnownDomains are domains a disambiguation may name besides those
	// claimed by the SRDs being linted.
	KnownDomains []string
	// KnownServers are servers a disambiguation may name besides those
	// the SRDs being linted describe (their domain is not checked).
	KnownServers []string
}

var domainRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Lint checks a set of SRDs, each on its own and against each other:
//
//   - srd_version is present and supported; server_id, domain (a lower-case
//     slug) and display_name are present; server_id is unique in the set;
//   - intent_triggers has at least one trigger, none empty and none
//     repeated within the SRD; a trigger is not shared with a server of
//     another domain (it would route one phrase two ways);
//   - disambiguation is present and not empty; every entry names a domain
//     and says how this server differs; every named domain is known (claimed
//     by an SRD of the set or listed in KnownDomains); at least one entry
//     names a domain other than the SRD's own; a named server exists and
//     belongs to the named domain;
//   - two servers claiming the same domain each have an entry naming the
//     other server (they must be told apart);
//   - priority is within MinPriority..MaxPriority;
//   - cost_hint, when present, has a known latency and token class;
//   - tool_groups have no empty group, no empty or repeated tool names and,
//     with a catalog, name only tools some version of the server serves;
//     a tool the latest version (of the server and of each launch variant
//     of it) does not serve is a warning naming the versions that do;
//   - display_name, summary and each differs hold no line break (the
//     directory and the activation notice print them on one line).
//
// Problems come back sorted by file and line.
func Lint(srds []*SRD, opt LintOptions) Problems {
	var probs Problems
	byServer := map[string]*SRD{}
	byDomain := map[string][]*SRD{}
	known := map[string]bool{}
	for _, d := range opt.KnownDomains {
		known[d] = true
	}
	for _, s := range srds {
		if s.Domain != "" {
			known[s.Domain] = true
			byDomain[s.Domain] = append(byDomain[s.Domain], s)
		}
		if s.ServerID == "" {
			continue
		}
		if first, dup := byServer[s.ServerID]; dup {
			probs = append(probs, problemAt(s, "server_id", "server %q is also described at %s:%d", s.ServerID, first.File, first.Line("server_id")))
			continue
		}
		byServer[s.ServerID] = s
	}
	names := NamesOf(srds, opt.KnownDomains, opt.KnownServers)
	entries := map[*SRD][]Disambiguation{}
	for _, s := range srds {
		if s.Draft != nil {
			entries[s] = ResolveDraft(s, names)
			probs = append(probs, s.undecoded(lintDraftOne(s))...)
			probs = append(probs, s.undecoded(lintDraftDisambiguation(s, entries[s], names))...)
		} else {
			entries[s] = s.Disambiguation
			probs = append(probs, s.undecoded(lintOne(s))...)
			probs = append(probs, s.undecoded(lintDisambiguation(s, known, byServer, opt.KnownServers))...)
		}
		probs = append(probs, s.undecoded(lintOneLine(s))...)
		if opt.Catalog != nil {
			probs = append(probs, s.undecoded(lintTools(s, opt.Catalog))...)
		}
	}
	probs = append(probs, lintSharedDomains(byDomain, entries)...)
	probs = append(probs, lintSharedTriggers(srds)...)
	probs = append(probs, lintDraftSpellings(srds)...)
	return probs.Sort()
}

// undecoded drops the problems of fields that already failed to decode
// (their decoding problem says what is wrong).
func (s *SRD) undecoded(ps Problems) Problems {
	if len(s.bad) == 0 {
		return ps
	}
	out := ps[:0]
	for _, p := range ps {
		if !s.bad[p.Field] {
			out = append(out, p)
		}
	}
	return out
}

// missing reports a required field that is absent, at the document's line.
func missing(s *SRD, field, what string) Problem {
	line := s.Line(field)
	if line == 0 {
		line = s.Line("")
	}
	return Problem{File: s.File, Line: line, Field: field, Msg: "missing or empty: " + what}
}

func lintOne(s *SRD) Problems {
	var probs Problems
	switch {
	case s.Line("srd_version") == 0:
		probs = append(probs, missing(s, "srd_version", fmt.Sprintf("set srd_version: %d", Version)))
	case s.Version != Version:
		probs = append(probs, problemAt(s, "srd_version", "unsupported version %d (this build reads %d)", s.Version, Version))
	}
	if strings.TrimSpace(s.ServerID) == "" {
		probs = append(probs, missing(s, "server_id", "the catalog server name this SRD describes"))
	} else if strings.ContainsAny(s.ServerID, " \t\n@") {
		probs = append(probs, problemAt(s, "server_id", "%q is not a server name (no spaces or \"@\"; the version is not part of it)", s.ServerID))
	}
	switch {
	case strings.TrimSpace(s.Domain) == "":
		probs = append(probs, missing(s, "domain", "the capability domain, a lower-case slug such as \"code-hosting\""))
	case !domainRE.MatchString(s.Domain):
		probs = append(probs, problemAt(s, "domain", "%q is not a lower-case slug (letters, digits, single hyphens)", s.Domain))
	}
	if strings.TrimSpace(s.DisplayName) == "" {
		probs = append(probs, missing(s, "display_name", "a short human name"))
	}
	probs = append(probs, lintTriggers(s)...)
	if s.Priority < MinPriority || s.Priority > MaxPriority {
		probs = append(probs, problemAt(s, "priority", "%d is out of bounds (%d..%d)", s.Priority, MinPriority, MaxPriority))
	}
	if c := s.CostHint; c != nil {
		if !slices.Contains(LatencyClasses(), c.Latency) {
			probs = append(probs, classProblem(s, "cost_hint.latency", c.Latency, LatencyClasses()))
		}
		if !slices.Contains(TokenClasses(), c.Tokens) {
			probs = append(probs, classProblem(s, "cost_hint.tokens", c.Tokens, TokenClasses()))
		}
	}
	probs = append(probs, lintGroups(s)...)
	return probs
}

func classProblem(s *SRD, field, got string, want []string) Problem {
	if got == "" {
		p := missing(s, field, "one of "+strings.Join(want, ", "))
		if p.Line == s.Line("") {
			p.Line = s.Line("cost_hint")
		}
		return p
	}
	return problemAt(s, field, "%q is not one of %s", got, strings.Join(want, ", "))
}

// NormalizeTrigger is the form triggers are compared in: lower case,
// single spaces, no surrounding punctuation.
func NormalizeTrigger(t string) string {
	t = strings.Join(strings.Fields(strings.ToLower(t)), " ")
	return strings.Trim(t, " .,;:!?\"'")
}

func lintTriggers(s *SRD) Problems {
	if len(s.IntentTriggers) == 0 {
		return Problems{missing(s, "intent_triggers", "list the phrases a user might say when this server is the right one")}
	}
	var probs Problems
	first := map[string]int{}
	for i, t := range s.IntentTriggers {
		f := fmt.Sprintf("intent_triggers[%d]", i)
		n := NormalizeTrigger(t)
		if n == "" {
			probs = append(probs, problemAt(s, f, "empty trigger"))
			continue
		}
		if j, dup := first[n]; dup {
			probs = append(probs, problemAt(s, f, "duplicate trigger %q (same as intent_triggers[%d] at line %d)", t, j, s.Line(fmt.Sprintf("intent_triggers[%d]", j))))
			continue
		}
		first[n] = i
	}
	return probs
}

func lintGroups(s *SRD) Problems {
	var probs Problems
	for _, g := range s.ToolGroups {
		f := "tool_groups." + g.Name
		if strings.TrimSpace(g.Name) == "" {
			probs = append(probs, problemAt(s, f, "group without a name"))
		}
		if len(g.Tools) == 0 {
			probs = append(probs, problemAt(s, f, "group %q lists no tools", g.Name))
		}
		seen := map[string]int{}
		for i, t := range g.Tools {
			ff := fmt.Sprintf("%s[%d]", f, i)
			if strings.TrimSpace(t) == "" {
				probs = append(probs, problemAt(s, ff, "empty tool name"))
				continue
			}
			if j, dup := seen[t]; dup {
				probs = append(probs, problemAt(s, ff, "tool %q listed twice in group %q (first at [%d])", t, g.Name, j))
				continue
			}
			seen[t] = i
		}
	}
	return probs
}

func lintDisambiguation(s *SRD, known map[string]bool, byServer map[string]*SRD, otherServers []string) Problems {
	if len(s.Disambiguation) == 0 {
		return Problems{missing(s, "disambiguation", "name at least one neighbouring domain and say how this server differs from it")}
	}
	var probs Problems
	neighbour := false
	for i, e := range s.Disambiguation {
		f := fmt.Sprintf("disambiguation[%d]", i)
		if strings.TrimSpace(e.Domain) == "" {
			p := missing(s, f+".domain", "the neighbouring domain")
			if s.Line(f+".domain") == 0 {
				p.Line = s.Line(f)
			}
			probs = append(probs, p)
		} else {
			if !known[e.Domain] {
				msg := fmt.Sprintf("names no known domain: %q is claimed by no SRD (known: %s)", e.Domain, strings.Join(sortedKeys(known), ", "))
				probs = append(probs, problemAt(s, f+".domain", "%s", catalog.NearName(e.Domain, sortedKeys(known)).WithHint(msg)))
			}
			// An unknown domain is still a neighbour: the problem above says
			// what is wrong with it, "names no neighbouring domain" would not.
			neighbour = neighbour || e.Domain != s.Domain
		}
		if strings.TrimSpace(e.Differs) == "" {
			p := missing(s, f+".differs", "say how this server differs from the neighbour")
			if s.Line(f+".differs") == 0 {
				p.Line = s.Line(f)
			}
			probs = append(probs, p)
		}
		if e.Server != "" {
			other, ok := byServer[e.Server]
			switch {
			case !ok && slices.Contains(otherServers, e.Server):
			case !ok:
				servers := append(sortedKeys(byServer), otherServers...)
				msg := fmt.Sprintf("names server %q, which no SRD describes", e.Server)
				probs = append(probs, problemAt(s, f+".server", "%s", catalog.NearName(e.Server, servers).WithHint(msg)))
			case e.Server == s.ServerID:
				probs = append(probs, problemAt(s, f+".server", "names the SRD's own server"))
			case e.Domain != "" && other.Domain != e.Domain:
				probs = append(probs, problemAt(s, f+".server", "server %q is in domain %q, not %q", e.Server, other.Domain, e.Domain))
			}
		} else if e.Domain != "" && e.Domain == s.Domain {
			p := problemAt(s, f+".server", "names the SRD's own domain %q: name the neighbouring server too", s.Domain)
			p.Line = s.Line(f) // server is the missing key: point at the entry
			probs = append(probs, p)
		}
	}
	if !neighbour {
		probs = append(probs, problemAt(s, "disambiguation", "names no neighbouring domain: at least one entry must name a domain other than %q", s.Domain))
	}
	return probs
}

// lintOneLine refuses a line break inside the texts a prompt prints on
// one line: display_name and summary head the by-domain directory's domain
// line and the activation notice, each differs is a sentence of the notice.
// Outer space (a YAML block scalar's last newline) is trimmed there, so
// only an inner break counts.
func lintOneLine(s *SRD) Problems {
	texts := map[string]string{"display_name": s.DisplayName, "summary": s.Summary}
	if s.Draft != nil {
		texts["disambiguation"] = s.Draft.Disambiguation // each entry's differs
	} else {
		for i, e := range s.Disambiguation {
			texts[fmt.Sprintf("disambiguation[%d].differs", i)] = e.Differs
		}
	}
	var probs Problems
	for _, f := range sortedKeys(texts) {
		if strings.ContainsAny(strings.TrimSpace(texts[f]), "\r\n") {
			probs = append(probs, problemAt(s, f, "holds a line break: the directory and activation notice print it on one line (write it as one line, or fold it with >)"))
		}
	}
	return probs
}

// lintSharedDomains requires servers of one domain to tell each other
// apart (entries are each SRD's disambiguation entries, resolved for
// drafts).
func lintSharedDomains(byDomain map[string][]*SRD, entries map[*SRD][]Disambiguation) Problems {
	var probs Problems
	for _, d := range sortedKeys(byDomain) {
		group := byDomain[d]
		for _, s := range group {
			for _, o := range group {
				if o == s || o.ServerID == "" || o.ServerID == s.ServerID {
					continue
				}
				names := slices.ContainsFunc(entries[s], func(e Disambiguation) bool { return e.Server == o.ServerID })
				switch {
				case names:
				case s.Draft != nil:
					probs = append(probs, problemAt(s, "domain", "domain conflict: shares domain %q with server %q (%s) without distinguishing it: name %s in the disambiguation", s.Draft.Domain, o.ServerID, o.File, o.ServerID))
				default:
					probs = append(probs, problemAt(s, "domain", "shares domain %q with server %q (%s) without distinguishing it: add a disambiguation entry with server: %s", d, o.ServerID, o.File, o.ServerID))
				}
			}
		}
	}
	return probs
}

// lintSharedTriggers refuses a trigger claimed by servers of two domains.
func lintSharedTriggers(srds []*SRD) Problems {
	type claim struct {
		s *SRD
		i int
	}
	first := map[string]claim{}
	var probs Problems
	for _, s := range srds {
		for i, t := range s.IntentTriggers {
			n := NormalizeTrigger(t)
			if n == "" {
				continue
			}
			c, ok := first[n]
			if !ok {
				first[n] = claim{s, i}
				continue
			}
			if c.s != s && c.s.Domain != s.Domain {
				probs = append(probs, problemAt(s, fmt.Sprintf("intent_triggers[%d]", i), "duplicate trigger %q: also claimed by server %q of domain %q (%s:%d)",
					t, c.s.ServerID, c.s.Domain, c.s.File, c.s.Line(fmt.Sprintf("intent_triggers[%d]", c.i))))
			}
		}
	}
	return probs
}

func lintTools(s *SRD, cat *catalog.Catalog) Problems {
	if s.ServerID == "" {
		return nil
	}
	if !hasServer(cat, s.ServerID) {
		return Problems{problemAt(s, "server_id", "%s", cat.NearServer(s.ServerID).WithHint(fmt.Sprintf("no catalog of server %q in the catalogs", s.ServerID)))}
	}
	var probs Problems
	for gi, g := range s.ToolGroups {
		for i, t := range g.Tools {
			if t == "" {
				continue
			}
			f := fmt.Sprintf("tool_groups.%s[%d]", g.Name, i)
			if s.Draft != nil {
				f = fmt.Sprintf("tool_groups[%d].tools[%d]", gi, i)
			}
			switch {
			case !cat.HasTool(s.ServerID, t):
				probs = append(probs, problemAt(s, f, "%s", cat.NearTool(s.ServerID, t).WithHint(fmt.Sprintf("unknown tool %q: no version of %s serves it", t, s.ServerID))))
			case !latestServes(cat, s.ServerID, t) && unorderedSeries(cat, s.ServerID) != "":
				// Versions named by content hash have no release order: the
				// last by spelling is no newer than the others.
				has := versionsServing(cat, s.ServerID, t)
				p := problemAt(s, f, "tool %q is not in %s, the last version of %s by spelling: %s's versions are named by content hash, so which is the latest is unknown; only %s %s it",
					t, strings.Join(latestOf(cat, s.ServerID), ", "), s.ServerID, unorderedSeries(cat, s.ServerID), strings.Join(has, ", "), nouns.Form(len(has), "serves", "serve"))
				p.Warning = true
				probs = append(probs, p)
			case !latestServes(cat, s.ServerID, t):
				has := versionsServing(cat, s.ServerID, t)
				p := problemAt(s, f, "tool %q is not in the latest version of %s (%s): only %s %s it; a session on the latest version cannot call it",
					t, s.ServerID, strings.Join(latestOf(cat, s.ServerID), ", "), strings.Join(has, ", "), nouns.Form(len(has), "serves", "serve"))
				p.Warning = true
				probs = append(probs, p)
			}
		}
	}
	return probs
}

// seriesOf are the series keys of server id in cat: its own and those of
// its launch variants, sorted.
func seriesOf(cat *catalog.Catalog, id string) []string {
	var out []string
	for _, k := range cat.ServerNames() {
		if k == id || strings.HasPrefix(k, id+"+") {
			out = append(out, k)
		}
	}
	return out
}

// latestServes reports whether the latest version of server id, or of a
// launch variant of it, serves tool.
func latestServes(cat *catalog.Catalog, id, tool string) bool {
	for _, k := range seriesOf(cat, id) {
		if cat.Latest(k).Tool(tool) != nil {
			return true
		}
	}
	return false
}

// unorderedSeries is the first series of server id whose versions have
// no release order (catalog.Catalog.Unordered), "" when there is none.
func unorderedSeries(cat *catalog.Catalog, id string) string {
	for _, k := range seriesOf(cat, id) {
		if cat.Unordered(k) {
			return k
		}
	}
	return ""
}

// latestOf names the latest version of each series of server id
// ("fs@2.0"), the file-name form.
func latestOf(cat *catalog.Catalog, id string) []string {
	var out []string
	for _, k := range seriesOf(cat, id) {
		out = append(out, cat.Latest(k).Label())
	}
	return out
}

// versionsServing names every version of server id (and of its launch
// variants) that serves tool, in version order.
func versionsServing(cat *catalog.Catalog, id, tool string) []string {
	var out []string
	for _, k := range seriesOf(cat, id) {
		for _, v := range cat.Versions[k] {
			if v.Tool(tool) != nil {
				out = append(out, v.Label())
			}
		}
	}
	return out
}

// hasServer reports a server in the catalog under its name or a launch
// variant of it.
func hasServer(cat *catalog.Catalog, id string) bool {
	for k := range cat.Versions {
		if k == id || strings.HasPrefix(k, id+"+") {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
