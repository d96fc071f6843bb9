package srd

import (
	"slices"
	"strings"
)

// ToolRef names one tool of one server.
type ToolRef struct {
	Server, Name string
}

// DomainSummary is the one-line summary of a domain: the summaries (or,
// without one, the display names) of its SRDs, joined with "; ".
func (s *Set) DomainSummary(domain string) string {
	var parts []string
	for _, d := range s.DomainSRDs(domain) {
		t := strings.TrimSpace(d.Summary)
		if t == "" {
			t = strings.TrimSpace(d.DisplayName)
		}
		if t != "" && !slices.Contains(parts, t) {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "; ")
}

// DirectoryText renders the directory of deferred tools grouped by domain:
// a heading line per domain with its summary, then one line per server with
// its tool names. Domains come in name order, servers in name order, tools
// in the order given. Tools whose server has no SRD are grouped under their
// server name as a domain of its own (see DomainOf), after the described
// domains. A nil or empty set groups every tool by server. The text ends
// with a newline; it is "" when tools is empty.
//
//	# code-hosting: Repositories, issues and reviews on GitHub
//	  modelcontextprotocol__server-github: create_issue, create_pull_request
func (s *Set) DirectoryText(tools []ToolRef) string {
	type server struct {
		name  string
		tools []string
	}
	type group struct {
		domain    string
		described bool
		servers   []*server
	}
	groups := map[string]*group{}
	var order []*group
	for _, t := range tools {
		d := s.DomainOf(t.Server, t.Name)
		g := groups[d]
		if g == nil {
			g = &group{domain: d, described: len(s.DomainSRDs(d)) > 0}
			groups[d] = g
			order = append(order, g)
		}
		i := slices.IndexFunc(g.servers, func(sv *server) bool { return sv.name == t.Server })
		if i < 0 {
			g.servers = append(g.servers, &server{name: t.Server})
			i = len(g.servers) - 1
		}
		g.servers[i].tools = append(g.servers[i].tools, t.Name)
	}
	slices.SortStableFunc(order, func(a, b *group) int {
		if a.described != b.described {
			if a.described {
				return -1
			}
			return 1
		}
		return strings.Compare(a.domain, b.domain)
	})
	var sb strings.Builder
	for _, g := range order {
		sb.WriteString("# " + g.domain)
		if sum := s.DomainSummary(g.domain); sum != "" {
			sb.WriteString(": " + sum)
		}
		sb.WriteByte('\n')
		slices.SortStableFunc(g.servers, func(a, b *server) int { return strings.Compare(a.name, b.name) })
		for _, sv := range g.servers {
			sb.WriteString("  ")
			if sv.name != "" {
				sb.WriteString(sv.name + ": ")
			}
			sb.WriteString(strings.Join(sv.tools, ", "))
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// ActivationNotice is the one line a runtime adds to the conversation when
// the first tool of a domain is loaded: the domain, its summary and how it
// differs from its neighbours (each distinct neighbouring domain once).
// It is "" for a domain no SRD claims.
func (s *Set) ActivationNotice(domain string) string {
	srds := s.DomainSRDs(domain)
	if len(srds) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("Domain " + domain + " is now active")
	if sum := s.DomainSummary(domain); sum != "" {
		sb.WriteString(": " + strings.TrimRight(sum, ". "))
	}
	sb.WriteString(".")
	seen := map[string]bool{}
	said := map[string]bool{}
	for _, d := range srds {
		for _, e := range s.Disambiguation(d) {
			if e.Domain == domain || e.Domain == "" || seen[e.Domain] {
				continue
			}
			seen[e.Domain] = true
			text := strings.TrimRight(strings.TrimSpace(e.Differs), ". ")
			if said[text] {
				continue // a draft's one sentence, resolved to several neighbours
			}
			said[text] = true
			sb.WriteString(" Not " + e.Domain + ": " + text + ".")
		}
	}
	return sb.String()
}
