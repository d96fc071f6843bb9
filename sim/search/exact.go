package search

import (
	"slices"
	"strings"

	"github.com/defersim/defersim/sim"
)

// SelectPrefix starts a query that names tools exactly: "select:a,b".
const SelectPrefix = "select:"

// Exact answers exact-name queries the way the anchor runtime's tool_search
// does (REFERENCE §1) and hands every other query to a ranker:
//
//   - "select:a,b" returns the tools named a and b (names trimmed of
//     spaces, in the order named, repeats ignored), and nothing else;
//   - a query that is exactly one tool's name (after trimming spaces)
//     returns that tool;
//
// Names compare case-sensitively; when several servers serve the same name
// every such tool is returned, in corpus order. It is immutable and safe for
// concurrent use when next is.
type Exact struct {
	next   sim.Ranker
	byName map[string][]int
}

// NewExact wraps next with exact-name handling over docs.
func NewExact(docs []sim.ToolDoc, next sim.Ranker) *Exact {
	x := &Exact{next: next, byName: make(map[string][]int, len(docs))}
	for i, d := range docs {
		x.byName[d.Name] = append(x.byName[d.Name], i)
	}
	return x
}

// Rank implements sim.Ranker.
func (x *Exact) Rank(query string, k int) []int {
	if k <= 0 {
		return nil
	}
	q := strings.TrimSpace(query)
	if list, ok := strings.CutPrefix(q, SelectPrefix); ok {
		var out []int
		for _, name := range strings.Split(list, ",") {
			for _, i := range x.byName[strings.TrimSpace(name)] {
				if !slices.Contains(out, i) {
					out = append(out, i)
				}
			}
		}
		return out[:min(k, len(out))]
	}
	if idx := x.byName[q]; len(idx) > 0 {
		return slices.Clone(idx[:min(k, len(idx))])
	}
	return x.next.Rank(query, k)
}

// Nested implements sim.NestedRanker: exact names are answered by lists
// cut to k, so the rankings nest when the wrapped ranker's do.
func (x *Exact) Nested() bool {
	n, ok := x.next.(sim.NestedRanker)
	return ok && n.Nested()
}
