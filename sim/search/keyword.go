package search

import (
	"slices"
	"strings"
	"sync"

	"github.com/defersim/defersim/sim"
)

// ModeKeyword is the keyword-terms search of the anchor runtime's E6 era and
// of Claude Code: a tool scores one point per distinct query term found in
// its document (name, description, parameter names and descriptions,
// server name); a term written "+term" is required. Tools with no point are
// not returned; ties keep corpus order.
const ModeKeyword = "keyword"

// Keyword ranks by matched query terms. It is immutable once built (its
// scratch pool aside) and safe for concurrent use.
type Keyword struct {
	n        int
	vocab    map[string]int32
	postings [][]int32 // by term id: the documents holding it, ascending
	scratch  sync.Pool // *keywordBuf
}

// keywordBuf is one Rank call's scratch space.
type keywordBuf struct {
	score, must []int32 // by document
	touched     []int32
}

// NewKeyword indexes docs: each distinct token of a document lists the
// document once.
func NewKeyword(docs []sim.ToolDoc) *Keyword {
	k := &Keyword{n: len(docs), vocab: map[string]int32{}}
	tc := newTermCounter(1)
	var buf [64]byte
	for d, doc := range docs {
		if doc.Memo != nil {
			// Terms shared with the run's other rankers (DocMemo).
			for _, term := range tc.terms(doc).terms {
				id := k.termID(term)
				k.postings[id] = append(k.postings[id], int32(d))
			}
			continue
		}
		EachDocToken(doc, 1, buf[:0], func(tok []byte) {
			id, ok := k.vocab[string(tok)] // no copy of tok unless new
			if !ok {
				id = k.termID(string(tok))
			}
			if p := k.postings[id]; len(p) == 0 || p[len(p)-1] != int32(d) {
				k.postings[id] = append(p, int32(d))
			}
		})
	}
	k.scratch.New = func() any { return &keywordBuf{score: make([]int32, k.n), must: make([]int32, k.n)} }
	return k
}

// termID returns term's id, adding it to the vocabulary when new.
func (k *Keyword) termID(term string) int32 {
	id, ok := k.vocab[term]
	if !ok {
		id = int32(len(k.postings))
		k.vocab[term] = id
		k.postings = append(k.postings, nil)
	}
	return id
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
	buf := k.scratch.Get().(*keywordBuf)
	defer k.scratch.Put(buf)
	buf.touched = buf.touched[:0]
	// A document qualifies when it holds every required term: count the
	// required terms each document holds.
	for _, t := range must {
		if _, ok := k.vocab[t]; !ok {
			return []int{} // no document holds it
		}
	}
	for _, t := range must {
		for _, d := range k.postings[k.vocab[t]] {
			buf.must[d]++
		}
	}
	for _, t := range want {
		id, ok := k.vocab[t]
		if !ok {
			continue
		}
		for _, d := range k.postings[id] {
			if buf.score[d] == 0 {
				buf.touched = append(buf.touched, d)
			}
			buf.score[d]++
		}
	}
	hits := buf.touched[:0:0]
	if len(must) > 0 {
		for _, d := range buf.touched {
			if int(buf.must[d]) == len(must) {
				hits = append(hits, d)
			}
		}
	} else {
		hits = append(hits, buf.touched...)
	}
	// Best score first; ties in corpus order.
	slices.SortFunc(hits, func(a, b int32) int {
		if buf.score[a] != buf.score[b] {
			return int(buf.score[b] - buf.score[a])
		}
		return int(a - b)
	})
	out := make([]int, min(n, len(hits)))
	for i := range out {
		out[i] = int(hits[i])
	}
	for _, d := range buf.touched {
		buf.score[d] = 0
	}
	for _, t := range must {
		for _, d := range k.postings[k.vocab[t]] {
			buf.must[d] = 0
		}
	}
	return out
}

// Nested implements sim.NestedRanker: a ranking is the first n of one
// order (points, then corpus index).
func (k *Keyword) Nested() bool { return true }
