package search

import (
	"strings"

	"github.com/defersim/defersim/sim"
)

// Substring ranks tools whose name or description contains the query,
// ignoring case: the anchor runtime's first search (era E0). Every match is
// returned in corpus order, up to k. It is immutable and safe for
// concurrent use.
type Substring struct {
	names, descs []string // lower-cased
}

// NewSubstring builds a substring ranker.
func NewSubstring(docs []sim.ToolDoc) *Substring {
	x := &Substring{names: make([]string, len(docs)), descs: make([]string, len(docs))}
	for i, d := range docs {
		x.names[i] = strings.ToLower(d.Name)
		x.descs[i] = strings.ToLower(d.Description)
	}
	return x
}

// Rank returns up to k tools whose lower-cased name or description contains
// the lower-cased query, trimmed of surrounding space; an empty query finds
// nothing.
func (x *Substring) Rank(query string, k int) []int {
	q := strings.ToLower(strings.TrimSpace(query))
	if k <= 0 || q == "" {
		return nil
	}
	var out []int
	for i := range x.names {
		if strings.Contains(x.names[i], q) || strings.Contains(x.descs[i], q) {
			out = append(out, i)
			if len(out) == k {
				break
			}
		}
	}
	return out
}
