package srd

// Version is the only srd_version this package reads.
const Version = 1

// Priority bounds and the value used when a file sets none.
const (
	MinPriority     = 0
	MaxPriority     = 10
	DefaultPriority = 5
)

// LatencyClasses are the latency classes of a cost hint.
func LatencyClasses() []string { return []string{"fast", "medium", "slow"} }

// TokenClasses are the token classes of a cost hint: how large the
// server's results usually are.
func TokenClasses() []string { return []string{"small", "medium", "large"} }

// SRD is one server's routing description.
type SRD struct {
	// Version is srd_version (0 for a v0.1 draft SRD; see Draft).
	Version int
	// ServerID is the catalog server name it describes (the part of a
	// catalog file name before "@"; it covers every version and variant).
	ServerID string
	// Domain is the capability domain, a lower-case slug ("code-hosting").
	// Several servers may share one.
	Domain string
	// DisplayName is a short human name ("GitHub").
	DisplayName string
	// Summary is one line on what the server is for (optional; the
	// directory falls back to DisplayName).
	Summary string
	// IntentTriggers are phrases a user might say when this server is the
	// right place to look.
	IntentTriggers []string
	// Disambiguation says how this server differs from its neighbours.
	Disambiguation []Disambiguation
	// Priority breaks near-ties between domains, MinPriority..MaxPriority.
	Priority int
	// CostHint is how slow and how verbose the server's tools are (nil
	// when the file gives none).
	CostHint *CostHint
	// ToolGroups group the server's tools, in file order.
	ToolGroups []ToolGroup
	// Draft is set for an SRD read in the published draft's v0.1 shape
	// (srd_version "0.1"); the fields above then hold its content in v1
	// terms (see Draft).
	Draft *Draft

	// File is where the SRD was read from ("" when built in memory).
	File string
	// lines maps a field path ("intent_triggers[2]") to its line.
	lines map[string]int
	// bad holds the field paths that failed to decode; Lint does not
	// report them again.
	bad map[string]bool
}

// Disambiguation is one neighbour and how this server differs from it.
type Disambiguation struct {
	// Domain is the neighbouring domain.
	Domain string
	// Server optionally names one server of that domain; it is required
	// when the neighbour shares this SRD's own domain.
	Server string
	// Differs says, in a sentence, when to pick this server over the
	// neighbour.
	Differs string
}

// CostHint classifies a server's cost.
type CostHint struct {
	Latency string // one of LatencyClasses()
	Tokens  string // one of TokenClasses()
}

// ToolGroup is a named group of tool names.
type ToolGroup struct {
	Name  string
	Tools []string
}

// Line returns the line a field path was read from, or 0. The paths are
// the YAML keys joined with "." and list indices in brackets:
// "disambiguation[1].domain", "tool_groups.navigation[0]".
func (s *SRD) Line(field string) int {
	if s == nil {
		return 0
	}
	return s.lines[field]
}

// Tools returns every tool named in the SRD's groups, in file order, once.
func (s *SRD) Tools() []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range s.ToolGroups {
		for _, t := range g.Tools {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}
