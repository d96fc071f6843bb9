package search

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim"
)

// TestSharedDocMemosRankAsFresh pins that rankers built over documents
// whose DocMemos other rankers filled first (as the engine shares them
// between the rankers of a run) rank exactly as rankers built from the
// documents alone: over every tool of every captured catalog version,
// overlapping corpora in shuffled orders, the anchor's BM25 and the
// Anthropic one (which leaves the server name out) and Keyword (name read
// once) filling one set of memos, built concurrently.
func TestSharedDocMemosRankAsFresh(t *testing.T) {
	cat, err := catalog.LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	var all []sim.ToolDoc
	for _, s := range cat.All() {
		for _, tool := range s.Tools {
			all = append(all, sim.ToolDoc{Name: tool.Name, Server: s.Name, Description: tool.Description, Schema: tool.InputSchema, Memo: &sim.DocMemo{}})
		}
	}
	type build func([]sim.ToolDoc) (sim.Ranker, error)
	builds := map[string]build{
		"bm25": func(d []sim.ToolDoc) (sim.Ranker, error) { return NewBM25(d, AnchorBM25()) },
		"bm25-anthropic": func(d []sim.ToolDoc) (sim.Ranker, error) {
			return NewBM25(d, AnthropicBM25())
		},
		"keyword": func(d []sim.ToolDoc) (sim.Ranker, error) { return NewKeyword(d), nil },
	}
	r := rand.New(rand.NewPCG(4, 2))
	var corpora [][]sim.ToolDoc
	for range 6 {
		var c []sim.ToolDoc
		for _, d := range all {
			if r.IntN(3) > 0 {
				c = append(c, d)
			}
		}
		r.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		corpora = append(corpora, c)
	}
	type job struct {
		mode string
		c    int
	}
	var jobs []job
	for c := range corpora {
		for mode := range builds {
			jobs = append(jobs, job{mode, c})
		}
	}
	r.Shuffle(len(jobs), func(i, j int) { jobs[i], jobs[j] = jobs[j], jobs[i] })
	shared := make([]sim.Ranker, len(jobs))
	var wg sync.WaitGroup
	errs := make([]error, len(jobs))
	for i, j := range jobs {
		wg.Go(func() { shared[i], errs[i] = builds[j.mode](corpora[j.c]) })
	}
	wg.Wait()
	for i, j := range jobs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		alone := make([]sim.ToolDoc, len(corpora[j.c]))
		for k, d := range corpora[j.c] {
			d.Memo = nil
			alone[k] = d
		}
		fresh, err := builds[j.mode](alone)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range indexQueries(alone, 60) {
			for _, k := range []int{1, 5, len(alone)} {
				if d := cmp.Diff(fresh.Rank(q, k), shared[i].Rank(q, k)); d != "" {
					t.Fatalf("%s over corpus %d, Rank(%q, %d) (-alone +shared memos):\n%s", j.mode, j.c, q, k, d)
				}
			}
		}
	}
	// The memos were shared: every document holds one entry per way of
	// reading it (name weight, server read or not), whichever ranker
	// stored it.
	var loads int
	for _, d := range corpora[0][:50] {
		d.Memo.Load(termsKey{AnchorBM25().NameWeight, true}, func() any { loads++; return nil })
	}
	if loads != 0 {
		t.Errorf("%d of 50 documents had no memoised terms after %d rankers", loads, len(jobs))
	}
}
