package search

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/defersim/defersim/sim"
)

// Field is one part of a fielded document.
type Field int

// The fields of a tool's document. FieldTriggers holds routing text from
// outside the tool (its server's SRD intent triggers); the rest come from
// the tool.
const (
	FieldName Field = iota
	FieldDescription
	FieldParamNames
	FieldParamDescriptions
	FieldServer
	FieldTriggers
	NumFields
)

var fieldNames = [NumFields]string{"name", "description", "param_names", "param_descriptions", "server", "triggers"}

func (f Field) String() string {
	if f >= 0 && f < NumFields {
		return fieldNames[f]
	}
	return fmt.Sprintf("field(%d)", int(f))
}

// FieldParams weigh one field: W multiplies its term frequencies, B
// (0..1) normalises them by the field's length relative to its mean.
type FieldParams struct {
	W, B float64
}

// BM25FParams are the parameters of a fielded BM25 ranker (BM25F): a
// term's frequency in a document is the sum over fields of
// W·tf / (1 − B + B·len/avglen), saturated by K1 as in BM25. Fields
// weighs the documents' fields, in order (for tools: the Field constants).
type BM25FParams struct {
	K1       float64
	Fields   []FieldParams
	Analyzer Analyzer
	// MinPrefix is the shortest query term the prefix fallback expands
	// when no term matches (0: no fallback).
	MinPrefix int
}

// DefaultBM25F returns the fielded parameters chosen on the tuning split
// (docs/retrieval.md, "Tuning"): the default analyzer, k1 1.6, the name
// weighted 1 (b 1), the description 1 (b 0.5), parameter names 0.5 and
// descriptions 0.3 (b 0.75), the server 0.5 (b 0.5) and SRD triggers 0.5
// (b 0.75).
func DefaultBM25F() BM25FParams {
	return BM25FParams{
		K1: 1.6,
		Fields: []FieldParams{
			FieldName:              {W: 1, B: 1},
			FieldDescription:       {W: 1, B: 0.5},
			FieldParamNames:        {W: 0.5, B: 0.75},
			FieldParamDescriptions: {W: 0.3, B: 0.75},
			FieldServer:            {W: 0.5, B: 0.5},
			FieldTriggers:          {W: 0.5, B: 0.75},
		},
		Analyzer:  DefaultAnalyzer(),
		MinPrefix: 3,
	}
}

func (p BM25FParams) validate() error {
	if !(p.K1 > 0) || math.IsInf(p.K1, 0) {
		return fmt.Errorf("bm25f: k1 = %v, want a finite value > 0", p.K1)
	}
	for f, fp := range p.Fields {
		if !(fp.W >= 0) || math.IsInf(fp.W, 0) || !(fp.B >= 0 && fp.B <= 1) {
			return fmt.Errorf("bm25f: field %d: weight %v, b %v; want a finite weight >= 0 and b in [0,1]", f, fp.W, fp.B)
		}
	}
	if p.MinPrefix < 0 {
		return fmt.Errorf("bm25f: min prefix %d is negative", p.MinPrefix)
	}
	return nil
}

// FieldDoc is a document as fields, each a list of texts.
type FieldDoc [][]string

// ToolFields splits a tool into its NumFields fields: name, description,
// parameter names and descriptions (as DocTokens reads them), server. The
// triggers field is left empty.
func ToolFields(doc sim.ToolDoc) FieldDoc {
	fd := make(FieldDoc, NumFields)
	fd[FieldName] = []string{doc.Name}
	fd[FieldDescription] = []string{doc.Description}
	ps := schemaParams(doc.Schema)
	fd[FieldParamNames] = ps.names
	fd[FieldParamDescriptions] = ps.descs
	fd[FieldServer] = []string{doc.Server}
	return fd
}

// BM25F is a fielded BM25 ranker over a fixed corpus. It is immutable once
// built and safe for concurrent use.
type BM25F struct {
	p        BM25FParams
	an       *analyzer
	n        int
	vocab    map[string]int32
	terms    []string // sorted, for the prefix fallback
	termIDs  []int32
	postings [][]posting
	scratch  sync.Pool // *scoreBuf
}

// NewBM25F indexes docs.
func NewBM25F(docs []FieldDoc, p BM25FParams) (*BM25F, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if len(docs) > math.MaxInt32 {
		return nil, fmt.Errorf("bm25f: %d documents is too many", len(docs))
	}
	nf := len(p.Fields)
	x := &BM25F{p: p, an: p.Analyzer.build(), n: len(docs), vocab: map[string]int32{}}
	// Term frequencies per document and field, and field lengths.
	type tfs map[int32][]float64
	perDoc := make([]tfs, len(docs))
	lens := make([][]float64, len(docs))
	total := make([]float64, nf)
	for d, doc := range docs {
		if len(doc) > nf {
			return nil, fmt.Errorf("bm25f: document %d has %d fields, the parameters weigh %d", d, len(doc), nf)
		}
		m := tfs{}
		lens[d] = make([]float64, nf)
		for f := range doc {
			if p.Fields[f].W == 0 {
				continue
			}
			for _, text := range doc[f] {
				x.an.each(text, func(t string) {
					id, ok := x.vocab[t]
					if !ok {
						id = int32(len(x.postings))
						x.vocab[t] = id
						x.postings = append(x.postings, nil)
					}
					c := m[id]
					if c == nil {
						c = make([]float64, nf)
						m[id] = c
					}
					c[f]++
					lens[d][f]++
				})
			}
			total[f] += lens[d][f]
		}
		perDoc[d] = m
	}
	avg := make([]float64, nf)
	for f := range nf {
		if len(docs) > 0 {
			avg[f] = total[f] / float64(len(docs))
		}
	}
	for d, m := range perDoc {
		ids := make([]int32, 0, len(m))
		for id := range m {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			var tf float64
			for f, c := range m[id] {
				if c == 0 {
					continue
				}
				fp := p.Fields[f]
				norm := 1.0
				if avg[f] > 0 {
					norm = 1 - fp.B + fp.B*lens[d][f]/avg[f]
				}
				tf += fp.W * c / norm
			}
			x.postings[id] = append(x.postings[id], posting{doc: int32(d), tf: 1, w: tf})
		}
	}
	for _, ps := range x.postings {
		idf := IDF(len(docs), len(ps))
		for i := range ps {
			tf := ps[i].w
			ps[i].w = idf * tf * (p.K1 + 1) / (tf + p.K1)
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
	x.scratch.New = func() any { return &scoreBuf{scores: make([]float64, x.n)} }
	return x, nil
}

// Search returns the k best documents for query with their scores, best
// first, ties in corpus order. Each distinct query term counts once; when
// no document holds any, the prefix fallback runs as in BM25.
func (x *BM25F) Search(query string, k int) []Hit {
	if k <= 0 || x.n == 0 {
		return nil
	}
	buf := x.scratch.Get().(*scoreBuf)
	defer x.scratch.Put(buf)
	buf.terms = buf.terms[:0]
	var qterms []string
	x.an.each(query, func(t string) {
		qterms = append(qterms, t)
		if id, ok := x.vocab[t]; ok && !slices.Contains(buf.terms, id) {
			buf.terms = append(buf.terms, id)
		}
	})
	if len(buf.terms) == 0 && x.p.MinPrefix > 0 {
		for _, t := range qterms {
			if utf8.RuneCountInString(t) >= x.p.MinPrefix {
				buf.terms = appendPrefixedIn(x.terms, x.termIDs, buf.terms, t)
			}
		}
	}
	top := scorePostings(x.postings, buf, k)
	if len(top) == 0 {
		return nil
	}
	out := make([]Hit, len(top))
	for i, h := range top {
		out[i] = Hit{Index: int(h.doc), Score: h.score}
	}
	return out
}

// Rank implements sim.Ranker.
func (x *BM25F) Rank(query string, k int) []int {
	hits := x.Search(query, k)
	if len(hits) == 0 {
		return nil
	}
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.Index
	}
	return out
}

// Nested implements sim.NestedRanker: a ranking is the top k of one
// order (score, then corpus index).
func (x *BM25F) Nested() bool { return true }
