package search

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

// TestBM25FHandComputed: two fields, the first weighted 2 without length
// normalisation, the second weighted 1 fully normalised.
//
//	d0: f0 "alpha", f1 "beta beta gamma"   (f1 length 3; mean f1 length 2)
//	d1: f0 "beta",  f1 "gamma"             (f1 length 1)
//
// beta: d0 tf' = 1·2/(1 − 1 + 3/2) = 4/3; d1 tf' = 2·1/1 = 2; idf = ln(1 + 0.5/2.5).
// gamma: d0 tf' = 1/(3/2) = 2/3; d1 tf' = 1/(1/2) = 2; same idf.
func TestBM25FHandComputed(t *testing.T) {
	docs := []FieldDoc{{{"alpha"}, {"beta beta gamma"}}, {{"beta"}, {"gamma"}}}
	p := BM25FParams{K1: 1.2, Fields: []FieldParams{{W: 2, B: 0}, {W: 1, B: 1}}, MinPrefix: 3}
	x, err := NewBM25F(docs, p)
	if err != nil {
		t.Fatal(err)
	}
	idf := math.Log(1 + 0.5/2.5)
	sat := func(tf float64) float64 { return idf * tf * 2.2 / (tf + 1.2) }
	tests := []struct {
		q    string
		want []Hit
	}{
		{"beta", []Hit{{1, sat(2)}, {0, sat(4.0 / 3)}}},
		{"gamma beta", []Hit{{1, sat(2) + sat(2)}, {0, sat(4.0/3) + sat(2.0/3)}}},
		// alpha: df 1, idf ln(1 + 1.5/1.5) = ln 2; d0 tf' = 2·1/1.
		{"alpha alpha", []Hit{{0, math.Ln2 * 2 * 2.2 / (2 + 1.2)}}},
		{"nothing", nil},
		// Prefix fallback: no term matches "gam"; it expands to gamma.
		{"gam", []Hit{{1, sat(2)}, {0, sat(2.0 / 3)}}},
	}
	for _, tc := range tests {
		got := x.Search(tc.q, 5)
		if !cmp.Equal(got, tc.want, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-12 })) {
			t.Errorf("Search(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if got := x.Rank("beta", 1); !cmp.Equal(got, []int{1}) {
		t.Errorf("Rank k 1 = %v", got)
	}
	bad := []BM25FParams{{K1: 0, Fields: p.Fields}, {K1: 1, Fields: []FieldParams{{W: -1}}}, {K1: 1, Fields: []FieldParams{{W: 1, B: 2}}}, {K1: 1, MinPrefix: -1}}
	for i, b := range bad {
		if _, err := NewBM25F(docs[:0], b); err == nil {
			t.Errorf("bad params %d accepted", i)
		}
	}
	if _, err := NewBM25F(docs, BM25FParams{K1: 1, Fields: p.Fields[:1]}); err == nil {
		t.Error("documents with more fields than weights accepted")
	}
}

// TestToolFieldsDefault: the default fielded ranker finds a tool through
// a stem and a split identifier that plain BM25 misses.
func TestToolFieldsDefault(t *testing.T) {
	docs := []sim.ToolDoc{
		{Name: "getAdultContent", Description: "Returns the rating."},
		{Name: "list_rooms", Description: "Lists chat rooms."},
	}
	fd := make([]FieldDoc, len(docs))
	for i, d := range docs {
		fd[i] = ToolFields(d)
	}
	x, err := NewBM25F(fd, DefaultBM25F())
	if err != nil {
		t.Fatal(err)
	}
	if got := x.Rank("content for adults", 2); !cmp.Equal(got, []int{0}) {
		t.Errorf("bm25f = %v, want [0]", got)
	}
	b, _ := NewBM25(docs, AnchorBM25())
	if got := b.Rank("content for adults", 2); len(got) != 0 {
		t.Errorf("anchor bm25 found %v (the test's premise changed)", got)
	}
}

func TestFuseRRF(t *testing.T) {
	// c 1: doc 2: 1/2 + 2/2 = 1.5; doc 0: 1/3 = 0.333; doc 1: 1/4 + 2/3 = 0.917; doc 3: 2/4 = 0.5.
	lists := []RRFList{{Ranked: []int{2, 0, 1}, Weight: 1}, {Ranked: []int{2, 1, 3, 9}, Weight: 2}}
	if got := FuseRRF(lists, 1, 4, 10); !cmp.Equal(got, []int{2, 1, 3, 0}) {
		t.Errorf("FuseRRF = %v", got)
	}
	if got := FuseRRF(lists, 1, 4, 2); !cmp.Equal(got, []int{2, 1}) {
		t.Errorf("FuseRRF k 2 = %v", got)
	}
	// Ties keep first appearance: 5 and 4 both 1/(0+1).
	if got := FuseRRF([]RRFList{{Ranked: []int{5}, Weight: 1}, {Ranked: []int{4}, Weight: 1}}, 0, 6, 2); !cmp.Equal(got, []int{5, 4}) {
		t.Errorf("tie = %v", got)
	}
	if FuseRRF(lists, 1, 4, 0) != nil {
		t.Error("k 0 ranked something")
	}
	for _, bad := range []func() error{
		func() error { _, err := NewFused(2, nil, nil, 1, 1); return err },
		func() error { _, err := NewFused(2, []sim.Ranker{nil}, []float64{-1}, 1, 1); return err },
		func() error { _, err := NewFused(2, []sim.Ranker{nil}, []float64{1}, math.Inf(1), 1); return err },
		func() error { _, err := NewFused(2, []sim.Ranker{nil}, []float64{1}, 1, 0); return err },
	} {
		if bad() == nil {
			t.Error("bad fusion accepted")
		}
	}
}

// fixedEmbedder embeds by table; "fail" fails.
type fixedEmbedder map[string][]float32

func (f fixedEmbedder) Embed(texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := f[t]
		if !ok {
			return nil, errFixed(t)
		}
		out[i] = v
	}
	return out, nil
}

type errFixed string

func (e errFixed) Error() string { return "no vector for " + string(e) }

func TestDenseAndHybrid(t *testing.T) {
	docs := []sim.ToolDoc{{Name: "send_mail", Description: "Sends mail."}, {Name: "read_file"}, {Name: "post"}}
	emb := fixedEmbedder{
		DenseText(docs[0]): {1, 0}, DenseText(docs[1]): {0, 1}, DenseText(docs[2]): {1, 1},
		"write to bob": {1, 0.1},
	}
	if DenseText(docs[0]) != "send mail: Sends mail." {
		t.Errorf("DenseText = %q", DenseText(docs[0]))
	}
	rk, err := DenseFactory(emb)(docs)
	if err != nil {
		t.Fatal(err)
	}
	d := rk.(*Dense)
	hits := d.Search("write to bob", 3)
	if got := []int{hits[0].Index, hits[1].Index, hits[2].Index}; !cmp.Equal(got, []int{0, 2, 1}) {
		t.Errorf("dense order = %v", got)
	}
	if s := hits[0].Score; s <= 0.5 || s > 1 {
		t.Errorf("score %v, want (1 + cos)/2 in (0.5, 1]", s)
	}
	if got := d.Rank("unknown text", 3); len(got) != 0 || d.Err() == nil {
		t.Errorf("failed embedding: %v, err %v", got, d.Err())
	}
	// Hybrid: bm25f finds "read" in read_file only; dense puts send_mail
	// first: fused, both lead their list and tie; bm25f's list comes first.
	emb["read mail"] = []float32{1, 0}
	h, err := HybridFactory(func(docs []sim.ToolDoc) (sim.Ranker, error) {
		fd := make([]FieldDoc, len(docs))
		for i, doc := range docs {
			fd[i] = ToolFields(doc)
		}
		return NewBM25F(fd, DefaultBM25F())
	}, emb, 60)(docs)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Rank("read mail", 3); len(got) != 3 || got[0] != 0 && got[0] != 1 {
		t.Errorf("hybrid = %v", got)
	}
	if _, err := DenseFactory(fixedEmbedder{})(docs); err == nil {
		t.Error("a corpus that cannot be embedded was accepted")
	}
}
