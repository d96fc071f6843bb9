package search

import (
	"sort"
	"strings"

	"github.com/defersim/defersim/sim"
)

// Substring ranks tools whose name or description contains the query,
// ignoring case: the anchor runtime's first search (era E0). Every match is
// returned in corpus order, up to k. It is immutable and safe for
// concurrent use.
type Substring struct {
	names, descs []string // lower-cased
	// text is every document's lower-cased name and description, each
	// followed by sep; ends[i] is where document i's part of text ends. A
	// query without sep can only match inside one name or description, so
	// one scan of text finds the matching documents in corpus order.
	text string
	ends []int
}

// sep separates the fields in Substring.text.
const sep = "\x00"

// NewSubstring builds a substring ranker.
func NewSubstring(docs []sim.ToolDoc) *Substring {
	x := &Substring{names: make([]string, len(docs)), descs: make([]string, len(docs)), ends: make([]int, len(docs))}
	var b strings.Builder
	for i, d := range docs {
		x.names[i] = strings.ToLower(d.Name)
		x.descs[i] = strings.ToLower(d.Description)
		b.WriteString(x.names[i])
		b.WriteString(sep)
		b.WriteString(x.descs[i])
		b.WriteString(sep)
		x.ends[i] = b.Len()
	}
	x.text = b.String()
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
	if strings.Contains(q, sep) {
		return x.rankEach(q, k)
	}
	var out []int
	for from := 0; len(out) < k; {
		at := strings.Index(x.text[from:], q)
		if at < 0 {
			break
		}
		at += from
		doc := sort.SearchInts(x.ends, at+1) // the document whose part holds at
		out = append(out, doc)
		from = x.ends[doc]
	}
	return out
}

// Nested implements sim.NestedRanker: a ranking is the first k matches
// in corpus order.
func (x *Substring) Nested() bool { return true }

// rankEach is Rank tested document by document (for queries holding sep).
func (x *Substring) rankEach(q string, k int) []int {
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
