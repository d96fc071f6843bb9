package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// NewServer builds a server from tools (for example from NewTool), checks
// that tool names are unique, sets each tool's Server field and computes the
// server fingerprint.
func NewServer(name, version, variant string, tools []*Tool) (*Server, error) {
	s := &Server{Name: name, Version: version, Variant: variant, Tools: tools}
	if err := s.finish(); err != nil {
		return nil, err
	}
	return s, nil
}

// finish validates names, indexes tools and computes the fingerprint.
func (s *Server) finish() error {
	s.byName = make(map[string]*Tool, len(s.Tools))
	for i, t := range s.Tools {
		if t == nil || t.Name == "" {
			return fmt.Errorf("tools[%d]: tool without a name", i)
		}
		if _, dup := s.byName[t.Name]; dup {
			first := slices.IndexFunc(s.Tools, func(o *Tool) bool { return o.Name == t.Name })
			return fmt.Errorf("tools[%d]: duplicate tool name %q (first at tools[%d])", i, t.Name, first)
		}
		s.byName[t.Name] = t
		t.Server = s.Name
	}
	s.Fingerprint = serverFingerprint(s.Tools)
	return nil
}

// serverFingerprint hashes the tools' fingerprints in order of tool name,
// one per line ("<hex>\n").
func serverFingerprint(tools []*Tool) string {
	sorted := slices.Clone(tools)
	slices.SortFunc(sorted, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) })
	h := sha256.New()
	for _, t := range sorted {
		h.Write([]byte(t.Fingerprint))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Key identifies the server's drift series: Name, or Name+"+"+Variant when
// the capture used a launch variant (a variant serves a different tool set,
// so it is a series of its own).
func (s *Server) Key() string {
	if s.Variant == "" {
		return s.Name
	}
	return s.Name + "+" + s.Variant
}

// Label is "name@version[+variant]", the file-name form.
func (s *Server) Label() string {
	l := s.Name
	if s.Version != "" {
		l += "@" + s.Version
	}
	if s.Variant != "" {
		l += "+" + s.Variant
	}
	return l
}

// Tool returns the tool called name, or nil.
func (s *Server) Tool(name string) *Tool {
	if s == nil {
		return nil
	}
	if s.byName != nil {
		return s.byName[name]
	}
	for _, t := range s.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// ToolNames returns the tool names in served order.
func (s *Server) ToolNames() []string {
	out := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = t.Name
	}
	return out
}

// Warnings returns one line per tool with a Warning, in served order:
// `tools[3] "name": inputSchema is null; read as {"type":"object"}`.
func (s *Server) Warnings() []string {
	var out []string
	for i, t := range s.Tools {
		if t.Warning != "" {
			out = append(out, fmt.Sprintf("tools[%d] %q: %s", i, t.Name, t.Warning))
		}
	}
	return out
}

// Warnings returns the warnings of servers, each line prefixed with its
// server's source file (or label when built in memory).
func Warnings(servers []*Server) []string {
	var out []string
	for _, s := range servers {
		where := s.Source
		if where == "" {
			where = s.Label()
		}
		for _, w := range s.Warnings() {
			out = append(out, where+": "+w)
		}
	}
	return out
}
