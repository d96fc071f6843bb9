package srd

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// draftDomainRE is a draft domain: lower-case words joined by single "_"
// (the draft's form) or "-" (v1's).
var draftDomainRE = regexp.MustCompile(`^[a-z0-9]+([_-][a-z0-9]+)*$`)

// Names are the domains and servers a draft disambiguation may name.
type Names struct {
	// Domains are v1 slugs.
	Domains []string
	// Servers maps a server id to its domain's v1 slug ("" when unknown).
	Servers map[string]string
}

// NamesOf collects the domains and servers of srds, plus extra domains and
// servers (of a larger set) whose domain is not known.
func NamesOf(srds []*SRD, domains, servers []string) Names {
	n := Names{Servers: map[string]string{}}
	for _, d := range domains {
		if !slices.Contains(n.Domains, d) {
			n.Domains = append(n.Domains, d)
		}
	}
	for _, s := range servers {
		n.Servers[s] = ""
	}
	for _, s := range srds {
		if s.Domain != "" && !slices.Contains(n.Domains, s.Domain) {
			n.Domains = append(n.Domains, s.Domain)
		}
		if s.ServerID != "" {
			n.Servers[s.ServerID] = s.Domain
		}
	}
	slices.Sort(n.Domains)
	return n
}

// mentionForm is how names and text are compared: lower case, every run
// of characters other than letters and digits one space, padded with a
// space at both ends ("Unlike web-search:" → " unlike web search ").
func mentionForm(s string) string {
	var sb strings.Builder
	sb.WriteByte(' ')
	space := true
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			sb.WriteRune(r)
			space = false
		} else if !space {
			sb.WriteByte(' ')
			space = true
		}
	}
	if !space {
		sb.WriteByte(' ')
	}
	return sb.String()
}

// ResolveDraft returns the v1 disambiguation entries of a draft SRD: one
// per domain or server of names that its disambiguation text mentions
// (compared case-insensitively, with "_", "-" and spaces alike), other
// than its own domain and server, in the order they are first mentioned.
// A named server stands for its domain: {domain, server}; a domain
// mentioned beside one of its servers is not listed again. Every entry
// says the whole text as how this server differs. Nil for a v1 SRD.
func ResolveDraft(s *SRD, names Names) []Disambiguation {
	if s.Draft == nil {
		return nil
	}
	text := mentionForm(s.Draft.Disambiguation)
	type hit struct {
		pos int
		e   Disambiguation
	}
	var hits []hit
	for srv, dom := range names.Servers {
		if srv == s.ServerID {
			continue
		}
		if p := strings.Index(text, mentionForm(srv)); p >= 0 && dom != "" {
			hits = append(hits, hit{p, Disambiguation{Domain: dom, Server: srv}})
		}
	}
	for _, dom := range names.Domains {
		if dom == s.Domain || slices.ContainsFunc(hits, func(h hit) bool { return h.e.Domain == dom }) {
			continue
		}
		if p := strings.Index(text, mentionForm(dom)); p >= 0 {
			hits = append(hits, hit{p, Disambiguation{Domain: dom}})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.pos != b.pos {
			return a.pos - b.pos
		}
		return strings.Compare(a.e.Domain+"/"+a.e.Server, b.e.Domain+"/"+b.e.Server)
	})
	differs := strings.TrimSpace(s.Draft.Disambiguation)
	out := make([]Disambiguation, 0, len(hits))
	for _, h := range hits {
		h.e.Differs = differs
		out = append(out, h.e)
	}
	return out
}

// lintDraftOne checks one draft SRD on its own (lintOne's rules in the
// draft's shapes).
func lintDraftOne(s *SRD) Problems {
	var probs Problems
	if strings.TrimSpace(s.ServerID) == "" {
		probs = append(probs, missing(s, "server_id", "the catalog server name this SRD describes"))
	} else if strings.ContainsAny(s.ServerID, " \t\n@") {
		probs = append(probs, problemAt(s, "server_id", "%q is not a server name (no spaces or \"@\"; the version is not part of it)", s.ServerID))
	}
	switch d := s.Draft.Domain; {
	case strings.TrimSpace(d) == "":
		probs = append(probs, missing(s, "domain", "the capability domain, such as \"enterprise_knowledge\""))
	case !draftDomainRE.MatchString(d):
		probs = append(probs, problemAt(s, "domain", "%q is not a domain name (lower-case letters and digits joined by single \"_\" or \"-\")", d))
	}
	if strings.TrimSpace(s.DisplayName) == "" {
		probs = append(probs, missing(s, "display_name", "a short human name"))
	}
	probs = append(probs, lintTriggers(s)...)
	if p := s.Draft.Priority; p < DraftMinPriority || p > DraftMaxPriority {
		probs = append(probs, problemAt(s, "priority", "%d is out of bounds (%d..%d)", p, DraftMinPriority, DraftMaxPriority))
	}
	if s.CostHint != nil {
		if c := s.Draft.LatencyClass; !slices.Contains(DraftClasses(), c) {
			probs = append(probs, draftClassProblem(s, "cost_hint.latency_class", c))
		}
		if c := s.Draft.TokenClass; !slices.Contains(DraftClasses(), c) {
			probs = append(probs, draftClassProblem(s, "cost_hint.token_class", c))
		}
	}
	seen := map[string]int{}
	for i, g := range s.ToolGroups {
		f := fmt.Sprintf("tool_groups[%d]", i)
		switch {
		case strings.TrimSpace(g.Name) == "":
			probs = append(probs, problemAt(s, f, "group without a name"))
		case seen[g.Name] > 0:
			probs = append(probs, problemAt(s, f+".group", "group %q listed twice (first at tool_groups[%d])", g.Name, seen[g.Name]-1))
		default:
			seen[g.Name] = i + 1
		}
		if len(g.Tools) == 0 {
			probs = append(probs, problemAt(s, f, "group %q lists no tools", g.Name))
		}
		names := map[string]int{}
		for j, t := range g.Tools {
			ff := fmt.Sprintf("%s.tools[%d]", f, j)
			if strings.TrimSpace(t) == "" {
				probs = append(probs, problemAt(s, ff, "empty tool name"))
				continue
			}
			if k, dup := names[t]; dup {
				probs = append(probs, problemAt(s, ff, "tool %q listed twice in group %q (first at [%d])", t, g.Name, k))
				continue
			}
			names[t] = j
		}
	}
	return probs
}

func draftClassProblem(s *SRD, field, got string) Problem {
	if got == "" {
		p := missing(s, field, "one of "+strings.Join(DraftClasses(), ", "))
		if p.Line == s.Line("") {
			p.Line = s.Line("cost_hint")
		}
		return p
	}
	return problemAt(s, field, "%q is not one of %s", got, strings.Join(DraftClasses(), ", "))
}

// lintDraftDisambiguation applies the draft's rule: the disambiguation is
// present and contrasts the domain with at least one neighbouring domain
// of the set, named directly or through one of its servers.
func lintDraftDisambiguation(s *SRD, entries []Disambiguation, names Names) Problems {
	if strings.TrimSpace(s.Draft.Disambiguation) == "" {
		return Problems{missing(s, "disambiguation", "a sentence contrasting this domain with a neighbouring one, naming it")}
	}
	if slices.ContainsFunc(entries, func(e Disambiguation) bool { return e.Domain != s.Domain }) {
		return nil
	}
	var known []string
	for _, d := range names.Domains {
		if d != s.Domain {
			known = append(known, d)
		}
	}
	for srv, d := range names.Servers {
		if d != "" && d != s.Domain {
			known = append(known, srv)
		}
	}
	slices.Sort(known)
	return Problems{problemAt(s, "disambiguation", "names no other domain: mention a neighbouring domain or a server of one (known: %s)", strings.Join(known, ", "))}
}

// lintDraftSpellings refuses one domain written two ways by draft SRDs
// ("web_search" and "web-search" are the same v1 domain).
func lintDraftSpellings(srds []*SRD) Problems {
	first := map[string]*SRD{}
	var probs Problems
	for _, s := range srds {
		if s.Draft == nil || s.Domain == "" {
			continue
		}
		f, ok := first[s.Domain]
		if !ok {
			first[s.Domain] = s
			continue
		}
		if f.Draft.Domain != s.Draft.Domain {
			probs = append(probs, problemAt(s, "domain", "domain conflict: %q is written %q by server %q (%s:%d); one domain, two spellings",
				s.Draft.Domain, f.Draft.Domain, f.ServerID, f.File, f.Line("domain")))
		}
	}
	return probs
}
