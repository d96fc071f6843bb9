package search

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/defersim/defersim/sim"
)

// BM25Params are the parameters of a BM25 ranker.
type BM25Params struct {
	// K1 saturates term frequency; B scales length normalisation.
	K1, B float64
	// NameWeight is how many times a tool's name is counted in its
	// document.
	NameWeight int
	// MinPrefix is the shortest query token (in characters) the prefix
	// fallback expands; 0 disables the fallback.
	MinPrefix int
	// MaxQueryChars truncates the query to this many characters before
	// tokenising (0: no limit).
	MaxQueryChars int
	// OmitServer leaves the server name out of the documents.
	OmitServer bool
}

// AnchorBM25 returns the anchor runtime's parameters (REFERENCE §1):
// k1 = 1.2, b = 0.75, the name counted twice, prefix fallback for tokens of
// at least 3 characters, no query limit.
func AnchorBM25() BM25Params {
	return BM25Params{K1: 1.2, B: 0.75, NameWeight: 2, MinPrefix: 3}
}

// AnthropicBM25 returns the Anthropic API variant (REFERENCE §2): queries
// cut to 500 characters, documents of the names, descriptions and argument
// names and descriptions (no server name: the API sees tools, not
// servers). The scoring parameters are not documented; the anchor's are
// used.
func AnthropicBM25() BM25Params {
	p := AnchorBM25()
	p.MaxQueryChars = 500
	p.OmitServer = true
	return p
}

func (p BM25Params) validate() error {
	switch {
	case !(p.K1 >= 0) || math.IsInf(p.K1, 0):
		return fmt.Errorf("bm25: k1 = %v, want a finite value >= 0", p.K1)
	case !(p.B >= 0 && p.B <= 1):
		return fmt.Errorf("bm25: b = %v, want a value in [0,1]", p.B)
	case p.NameWeight < 0:
		return fmt.Errorf("bm25: name weight %d is negative", p.NameWeight)
	case p.MinPrefix < 0:
		return fmt.Errorf("bm25: min prefix %d is negative", p.MinPrefix)
	case p.MaxQueryChars < 0:
		return fmt.Errorf("bm25: max query chars %d is negative", p.MaxQueryChars)
	}
	return nil
}

// Hit is one scored document.
type Hit struct {
	Index int     // corpus index
	Score float64 // BM25 score, > 0
}

type posting struct {
	doc int32
	tf  int32
	// w is the term's score in doc, idf·tf·(k1+1)/(tf + norm), computed
	// at build time by the same expression, in the same order, that each
	// query used to evaluate: the sums (and rankings) are bit-identical
	// and a query costs one addition per posting instead of a division.
	w float64
}

// BM25 is an Okapi BM25 ranker over a fixed corpus of tools. It is
// immutable once built and safe for concurrent use.
type BM25 struct {
	p        BM25Params
	n        int
	vocab    map[string]int32 // term → id
	terms    []string         // sorted vocabulary, for prefix look-ups
	termIDs  []int32          // termIDs[i] is the id of terms[i]
	postings [][]posting      // by term id, in corpus order
	norm     []float64        // by doc: k1·(1 − b + b·|D|/avgdl)
	avgdl    float64
	scratch  sync.Pool // *scoreBuf
}

type scoreBuf struct {
	scores  []float64
	touched []int32
	hits    []scored // the touched documents with their scores, for topK
	terms   []int32
	tok     []byte // eachToken's scratch for query tokens
}

// NewBM25 indexes docs. A tool's document is the tokens of its name
// (NameWeight times), its description, the names and descriptions of its
// parameters (depth ≤ MaxParamDepth) and its server name.
func NewBM25(docs []sim.ToolDoc, p BM25Params) (*BM25, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if len(docs) > math.MaxInt32 {
		return nil, fmt.Errorf("bm25: %d documents is too many", len(docs))
	}
	x := &BM25{p: p, n: len(docs), vocab: map[string]int32{}, norm: make([]float64, len(docs))}
	dl := make([]int, len(docs))
	var total int
	// First each document's distinct terms (vocabulary ids, in order of
	// first appearance) and their counts, laid end to end; then the
	// postings, in one array.
	var ids, tfs []int32
	ends := make([]int, len(docs))
	tc := newTermCounter(p.NameWeight)
	var tf []int32 // by term id: frequency in the current document
	var buf [64]byte
	for d, doc := range docs {
		if p.OmitServer {
			doc.Server = ""
		}
		if doc.Memo != nil {
			// Terms shared with the run's other rankers (DocMemo).
			t := tc.terms(doc)
			for j, term := range t.terms {
				ids = append(ids, x.termID(term))
				tfs = append(tfs, t.tf[j])
			}
			dl[d] = t.n
		} else {
			// Nothing shared: count straight into the vocabulary, in
			// the same order.
			start := len(ids)
			EachDocToken(doc, p.NameWeight, buf[:0], func(tok []byte) {
				id, ok := x.vocab[string(tok)] // no copy of tok unless new
				if !ok {
					id = x.termID(string(tok))
					tf = append(tf, 0)
				}
				if tf[id] == 0 {
					ids = append(ids, id)
				}
				tf[id]++
				dl[d]++
			})
			for _, id := range ids[start:] {
				tfs = append(tfs, tf[id])
				tf[id] = 0
			}
		}
		ends[d] = len(ids)
		total += dl[d]
	}
	x.postings = postingLists(len(x.vocab), ids, tfs, ends)
	if len(docs) > 0 {
		x.avgdl = float64(total) / float64(len(docs))
	}
	for d := range docs {
		rel := 1.0
		if x.avgdl > 0 {
			rel = float64(dl[d]) / x.avgdl
		}
		x.norm[d] = p.K1 * (1 - p.B + p.B*rel)
	}
	k1 := p.K1
	for _, ps := range x.postings {
		idf := IDF(len(docs), len(ps))
		for i := range ps {
			tf := float64(ps[i].tf)
			ps[i].w = float64(idf * tf * (k1 + 1) / (tf + x.norm[ps[i].doc]))
		}
	}
	x.terms = make([]string, 0, len(x.vocab))
	for t := range x.vocab {
		x.terms = append(x.terms, t)
	}
	slices.Sort(x.terms)
	x.termIDs = make([]int32, len(x.terms))
	for i, t := range x.terms {
		x.termIDs[i] = x.vocab[t]
	}
	x.scratch.New = func() any { return &scoreBuf{scores: make([]float64, x.n), tok: make([]byte, 0, 64)} }
	return x, nil
}

// termID returns term's id, adding it to the vocabulary when new.
func (x *BM25) termID(term string) int32 {
	id, ok := x.vocab[term]
	if !ok {
		id = int32(len(x.vocab))
		x.vocab[term] = id
	}
	return id
}

// postingLists lays out the postings of n terms in one array: document
// d's distinct terms are ids[ends[d−1]:ends[d]] with counts tfs, and each
// term's list is in corpus order, exactly as long as its document
// frequency.
func postingLists(n int, ids, tfs []int32, ends []int) [][]posting {
	off := make([]int, n+1)
	for _, id := range ids {
		off[id+1]++
	}
	for i := range n {
		off[i+1] += off[i]
	}
	all := make([]posting, len(ids))
	lists := make([][]posting, n)
	for id := range lists {
		lists[id] = all[off[id]:off[id]:off[id+1]]
	}
	start := 0
	for d, end := range ends {
		for i := start; i < end; i++ {
			lists[ids[i]] = append(lists[ids[i]], posting{doc: int32(d), tf: tfs[i]})
		}
		start = end
	}
	return lists
}

// IDF is the BM25 inverse document frequency of a term found in df of n
// documents: ln(1 + (n − df + 0.5)/(df + 0.5)). It is always positive.
func IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// DocTokens appends the tokens of a tool's search document to dst: the
// name nameWeight times, then the description, the parameter names and
// descriptions, and the server name.
func DocTokens(dst []string, doc sim.ToolDoc, nameWeight int) []string {
	var buf [64]byte
	EachDocToken(doc, nameWeight, buf[:0], func(tok []byte) { dst = append(dst, string(tok)) })
	return dst
}

// EachDocToken calls emit with each token of a tool's search document, in
// DocTokens order. The slice passed to emit is only valid during the call;
// buf is scratch space.
func EachDocToken(doc sim.ToolDoc, nameWeight int, buf []byte, emit func(tok []byte)) {
	for range nameWeight {
		eachToken(doc.Name, buf, emit)
	}
	eachToken(doc.Description, buf, emit)
	ps := schemaParams(doc.Schema)
	for _, n := range ps.names {
		eachToken(n, buf, emit)
	}
	for _, d := range ps.descs {
		eachToken(d, buf, emit)
	}
	eachToken(doc.Server, buf, emit)
}

// AvgDocLen is the mean document length in tokens.
func (x *BM25) AvgDocLen() float64 { return x.avgdl }

// Rank returns the indices of the k best documents for query, best first;
// see Search.
func (x *BM25) Rank(query string, k int) []int {
	buf, top := x.top(query, k)
	if buf == nil {
		return nil
	}
	defer x.scratch.Put(buf)
	if len(top) == 0 {
		return nil
	}
	out := make([]int, len(top))
	for i, h := range top {
		out[i] = int(h.doc)
	}
	return out
}

// Nested implements sim.NestedRanker: a ranking is the top k of one
// order (score, then corpus index).
func (x *BM25) Nested() bool { return true }

// Search scores every document containing a query term and returns the k
// best, by score then corpus order. Each distinct query token counts once.
// When no document contains any query token, each query token of at least
// MinPrefix characters is expanded to the indexed terms it prefixes and the
// documents are scored on those terms instead.
func (x *BM25) Search(query string, k int) []Hit {
	buf, top := x.top(query, k)
	if buf == nil {
		return nil
	}
	defer x.scratch.Put(buf)
	if len(top) == 0 {
		return nil
	}
	out := make([]Hit, len(top))
	for i, h := range top {
		out[i] = Hit{Index: int(h.doc), Score: h.score}
	}
	return out
}

// top scores query and returns the k best documents, best first, in a
// slice of the scratch buffer it also returns; the caller copies them out
// and puts the buffer back. Rank and Search share it so that Rank builds
// its indices directly, without a []Hit in between. buf is nil when there
// is nothing to rank.
func (x *BM25) top(query string, k int) (buf *scoreBuf, top []scored) {
	if k <= 0 || x.n == 0 {
		return nil, nil
	}
	query = truncateRunes(query, x.p.MaxQueryChars)
	buf = x.scratch.Get().(*scoreBuf)
	buf.terms = buf.terms[:0]
	// The query's tokens are looked up as they come (a map index by
	// string(tok) does not copy tok); only the rare prefix fallback makes
	// strings of them.
	eachToken(query, buf.tok[:0], func(tok []byte) {
		if id, ok := x.vocab[string(tok)]; ok && !slices.Contains(buf.terms, id) {
			buf.terms = append(buf.terms, id)
		}
	})
	if len(buf.terms) == 0 && x.p.MinPrefix > 0 {
		eachToken(query, buf.tok[:0], func(tok []byte) {
			if utf8.RuneCount(tok) >= x.p.MinPrefix {
				buf.terms = x.appendPrefixed(buf.terms, string(tok))
			}
		})
	}
	return buf, x.score(buf, k)
}

// appendPrefixed appends the ids of indexed terms that start with prefix.
func (x *BM25) appendPrefixed(ids []int32, prefix string) []int32 {
	return appendPrefixedIn(x.terms, x.termIDs, ids, prefix)
}

// appendPrefixedIn appends to ids the ids of the sorted terms that start
// with prefix (termIDs[i] is the id of terms[i]), each once.
func appendPrefixedIn(terms []string, termIDs, ids []int32, prefix string) []int32 {
	i := sort.SearchStrings(terms, prefix)
	for ; i < len(terms) && strings.HasPrefix(terms[i], prefix); i++ {
		if id := termIDs[i]; !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// score accumulates the scores of buf.terms and returns the top k, best
// first, in buf.hits. buf.scores is all zero again on return.
func (x *BM25) score(buf *scoreBuf, k int) []scored {
	return scorePostings(x.postings, buf, k)
}

// scorePostings sums the precomputed posting weights of buf.terms per
// document and returns the top k, best first, in buf.hits. buf.scores is
// all zero again on return.
func scorePostings(postings [][]posting, buf *scoreBuf, k int) []scored {
	buf.touched = buf.touched[:0]
	for _, id := range buf.terms {
		for _, ps := range postings[id] {
			if buf.scores[ps.doc] == 0 {
				buf.touched = append(buf.touched, ps.doc)
			}
			buf.scores[ps.doc] += ps.w
		}
	}
	// Ranking orders (score, doc) pairs by value: sorting document ids by
	// their scores through buf.scores cost most of a query's time.
	buf.hits = buf.hits[:0]
	for _, d := range buf.touched {
		buf.hits = append(buf.hits, scored{score: buf.scores[d], doc: d})
		buf.scores[d] = 0
	}
	return topK(buf.hits, k)
}

// truncateRunes cuts s to at most n characters (n = 0: no limit).
func truncateRunes(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
