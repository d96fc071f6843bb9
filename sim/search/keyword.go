package search

import (
	"sort"
	"strings"

	"github.com/defersim/defersim/sim"
)

// ModeKeyword is the keyword-terms search of the anchor runtime's E6 era and
// of Claude Code: a tool scores one point per distinct query term found in
// its document (name, description, parameter names and descriptions,
// server name); a term written "+term" is required. Tools with no point are
// not returned; ties keep corpus order.
const ModeKeyword = "keyword"

// Keyword ranks by matched query terms.
type Keyword struct {
	terms []map[string]bool // per document, its distinct tokens
}

// NewKeyword indexes docs.
func NewKeyword(docs []sim.ToolDoc) *Keyword {
	k := &Keyword{terms: make([]map[string]bool, len(docs))}
	for i, d := range docs {
		set := map[string]bool{}
		for _, t := range DocTokens(nil, d, 1) {
			set[t] = true
		}
		k.terms[i] = set
	}
	return k
}

// Rank returns at most n documents, best first.
func (k *Keyword) Rank(query string, n int) []int {
	if n <= 0 {
		return nil
	}
	var want, must []string
	seen := map[string]bool{}
	for _, f := range strings.Fields(query) {
		required := strings.HasPrefix(f, "+")
		for _, t := range Tokenize(strings.TrimPrefix(f, "+")) {
			if seen[t] {
				continue
			}
			seen[t] = true
			want = append(want, t)
			if required {
				must = append(must, t)
			}
		}
	}
	type hit struct{ doc, score int }
	var hits []hit
	for i, set := range k.terms {
		ok := true
		for _, t := range must {
			if !set[t] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		s := 0
		for _, t := range want {
			if set[t] {
				s++
			}
		}
		if s > 0 {
			hits = append(hits, hit{i, s})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].score > hits[b].score })
	if len(hits) > n {
		hits = hits[:n]
	}
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.doc
	}
	return out
}
