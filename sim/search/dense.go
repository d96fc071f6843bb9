package search

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/defersim/defersim/sim"
)

// Embedder turns texts into vectors (an embeddings endpoint).
type Embedder interface {
	Embed(texts []string) ([][]float32, error)
}

// DenseText is what a dense ranker embeds for a tool: its name as words
// (identifiers split), its description, and its parameter names.
func DenseText(doc sim.ToolDoc) string {
	var sb strings.Builder
	sb.WriteString(strings.Join(Analyzer{SplitIdentifiers: true}.Terms(doc.Name), " "))
	if doc.Description != "" {
		sb.WriteString(": " + doc.Description)
	}
	if ps := schemaParams(doc.Schema); len(ps.names) > 0 {
		sb.WriteString(" (parameters: " + strings.Join(ps.names, ", ") + ")")
	}
	return sb.String()
}

// Dense ranks tools by the cosine similarity of their embedding (of
// DenseText) with the query's. Its scores, for fusion, are (1 + cos)/2.
// It is safe for concurrent use; Rank cannot report errors, so a failed
// query embedding ranks nothing and Err returns the failure.
type Dense struct {
	emb  Embedder
	vecs [][]float32 // unit length

	mu  sync.Mutex
	err error
}

// NewDense embeds the corpus.
func NewDense(docs []sim.ToolDoc, emb Embedder) (*Dense, error) {
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = DenseText(d)
	}
	vecs, err := emb.Embed(texts)
	if err != nil {
		return nil, fmt.Errorf("dense: %w", err)
	}
	for i, v := range vecs {
		if len(v) != len(vecs[0]) {
			return nil, fmt.Errorf("dense: embeddings of %d and %d dimensions", len(vecs[0]), len(v))
		}
		vecs[i] = unit(v)
	}
	return &Dense{emb: emb, vecs: vecs}, nil
}

func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if s == 0 {
		return out
	}
	n := math.Sqrt(s)
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

// Err returns the first failure to embed a query.
func (d *Dense) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Search returns the k most similar tools with their scores.
func (d *Dense) Search(query string, k int) []Hit {
	if k <= 0 || len(d.vecs) == 0 {
		return nil
	}
	qs, err := d.emb.Embed([]string{query})
	if err == nil && len(qs) == 1 && len(qs[0]) != len(d.vecs[0]) {
		err = fmt.Errorf("dense: query embedding of %d dimensions, corpus %d", len(qs[0]), len(d.vecs[0]))
	}
	if err != nil {
		d.mu.Lock()
		if d.err == nil {
			d.err = err
		}
		d.mu.Unlock()
		return nil
	}
	q := unit(qs[0])
	hits := make([]Hit, len(d.vecs))
	for i, v := range d.vecs {
		var dot float64
		for j, x := range v {
			dot += float64(x) * float64(q[j])
		}
		hits[i] = Hit{Index: i, Score: (1 + dot) / 2}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[:min(k, len(hits))]
}

// Rank implements sim.Ranker.
func (d *Dense) Rank(query string, k int) []int {
	hits := d.Search(query, k)
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.Index
	}
	return out
}

// Nested implements sim.NestedRanker: a ranking is the first k of the
// documents stably sorted by similarity.
func (d *Dense) Nested() bool { return true }

// DenseFactory builds dense rankers over emb.
func DenseFactory(emb Embedder) sim.RankerFactory {
	return func(docs []sim.ToolDoc) (sim.Ranker, error) {
		d, err := NewDense(docs, emb)
		if err != nil {
			return nil, err
		}
		return d, nil
	}
}

// HybridFactory fuses a lexical ranker and a dense one by reciprocal rank
// (weight 1 each, constant c, each contributing its whole ranking).
func HybridFactory(lexical sim.RankerFactory, emb Embedder, c float64) sim.RankerFactory {
	return func(docs []sim.ToolDoc) (sim.Ranker, error) {
		lx, err := lexical(docs)
		if err != nil {
			return nil, err
		}
		dn, err := NewDense(docs, emb)
		if err != nil {
			return nil, err
		}
		return NewFused(len(docs), []sim.Ranker{lx, dn}, []float64{1, 1}, c, max(len(docs), 1))
	}
}
