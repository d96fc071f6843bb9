package srd

import (
	"fmt"
	"slices"
	"strings"
)

// Set is a collection of SRDs indexed for routing: by server, by tool name
// and by domain. It is read-only once built and safe for concurrent use.
type Set struct {
	srds     []*SRD
	byServer map[string]*SRD
	byTool   map[string]*SRD // tool name → first SRD (by server id) listing it
	byDomain map[string][]*SRD
	domains  []string
	// drafts holds the resolved disambiguation entries of draft SRDs.
	drafts map[*SRD][]Disambiguation
}

// NewSet indexes srds. Two SRDs for one server are an error; lint the set
// first for everything else.
func NewSet(srds []*SRD) (*Set, error) {
	s := &Set{byServer: map[string]*SRD{}, byTool: map[string]*SRD{}, byDomain: map[string][]*SRD{}}
	sorted := slices.Clone(srds)
	slices.SortStableFunc(sorted, func(a, b *SRD) int { return strings.Compare(a.ServerID, b.ServerID) })
	for _, d := range sorted {
		if d == nil {
			continue
		}
		if d.ServerID == "" || d.Domain == "" {
			return nil, fmt.Errorf("srd set: %s: an SRD needs a server_id and a domain", d.File)
		}
		if _, dup := s.byServer[d.ServerID]; dup {
			return nil, fmt.Errorf("srd set: server %q described twice", d.ServerID)
		}
		s.byServer[d.ServerID] = d
		s.srds = append(s.srds, d)
		if len(s.byDomain[d.Domain]) == 0 {
			s.domains = append(s.domains, d.Domain)
		}
		s.byDomain[d.Domain] = append(s.byDomain[d.Domain], d)
		for _, t := range d.Tools() {
			if _, ok := s.byTool[t]; !ok {
				s.byTool[t] = d
			}
		}
	}
	slices.Sort(s.domains)
	names := NamesOf(s.srds, nil, nil)
	for _, d := range s.srds {
		if d.Draft != nil {
			if s.drafts == nil {
				s.drafts = map[*SRD][]Disambiguation{}
			}
			s.drafts[d] = ResolveDraft(d, names)
		}
	}
	return s, nil
}

// Disambiguation returns an SRD's disambiguation entries: its own (v1) or
// those resolved from a draft's sentence over the set.
func (s *Set) Disambiguation(d *SRD) []Disambiguation {
	if d.Draft != nil && s != nil {
		return s.drafts[d]
	}
	return d.Disambiguation
}

// SRDs returns the SRDs in server id order.
func (s *Set) SRDs() []*SRD {
	if s == nil {
		return nil
	}
	return s.srds
}

// Domains returns the domains claimed, sorted.
func (s *Set) Domains() []string {
	if s == nil {
		return nil
	}
	return s.domains
}

// DomainSRDs returns the SRDs of a domain, in server id order.
func (s *Set) DomainSRDs(domain string) []*SRD {
	if s == nil {
		return nil
	}
	return s.byDomain[domain]
}

// ForServer returns the SRD of a catalog server; a launch-variant key
// ("playwright__mcp+caps-vision-pdf") finds its server's SRD.
func (s *Set) ForServer(server string) *SRD {
	if s == nil || server == "" {
		return nil
	}
	if d := s.byServer[server]; d != nil {
		return d
	}
	if base, _, ok := strings.Cut(server, "+"); ok {
		return s.byServer[base]
	}
	return nil
}

// ForTool returns the SRD describing a tool: its server's SRD; for a tool
// without a server (labelled sets of bare tools, as MetaTool), the first
// SRD whose tool_groups list the tool's name. A tool of a server no SRD
// describes has none, whatever its name: another server's tool_groups
// listing the same name (GitLab's create_branch) say nothing of it
// (Supabase's create_branch makes a database branch).
func (s *Set) ForTool(server, tool string) *SRD {
	if s == nil {
		return nil
	}
	if server != "" {
		return s.ForServer(server)
	}
	return s.byTool[tool]
}

// DomainOf returns the routing domain of a tool: its SRD's domain; without
// an SRD, the server name stands in for a domain of its own, and without a
// server, the tool name.
func (s *Set) DomainOf(server, tool string) string {
	if d := s.ForTool(server, tool); d != nil {
		return d.Domain
	}
	if server != "" {
		return server
	}
	return tool
}
