package routed

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/srd"
)

func TestRegister(t *testing.T) {
	r := sim.NewRegistry()
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	if got := r.SearchModes(); !gocmp.Equal(got, []string{"select", "routed", "routed-hard"}) {
		t.Errorf("SearchModes = %v", got)
	}
	if err := Register(r); err == nil {
		t.Error("registering twice succeeded")
	}
	f, _ := r.Ranker(ModeRouted)
	rk, err := f(fourTools)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rk.(*Ranker); !ok {
		t.Errorf("routed factory built %T", rk)
	}
}

func TestFactoryRefusesBadSet(t *testing.T) {
	srds, probs := srd.Parse("t.yaml", []byte(twoDomains))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if _, err := Factory(srds, BM25())(fourTools); err != nil {
		t.Errorf("good set: %v", err)
	}
	twice := append(srds, srds[0])
	if _, err := Factory(twice, BM25())(fourTools); err == nil {
		t.Error("a set describing a server twice was accepted")
	}
	hr, err := HardFactory(srds, BM25())(fourTools)
	if err != nil {
		t.Fatal(err)
	}
	if !hr.(*Ranker).opt.Hard {
		t.Error("HardFactory built a weighted ranker")
	}
}

func TestRegisterFused(t *testing.T) {
	srds, probs := srd.Parse("t.yaml", []byte(twoDomains))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	r := sim.NewRegistry()
	if err := RegisterFused(r, srds); err != nil {
		t.Fatal(err)
	}
	if got := r.SearchModes(); !gocmp.Equal(got, []string{"select", "bm25f", "routed-fused"}) {
		t.Errorf("SearchModes = %v", got)
	}
	for _, m := range []string{ModeFielded, ModeFused} {
		f, _ := r.Ranker(m)
		rk, err := f(fourTools)
		if err != nil {
			t.Fatal(err)
		}
		// Exact names first; the trigger "y" of sb's SRD finds its tools.
		if got := rk.Rank("select:b2,a1", 5); !gocmp.Equal(got, []int{3, 0}) {
			t.Errorf("%s: select = %v", m, got)
		}
		if got := rk.Rank("y", 5); len(got) == 0 || got[0] != 2 && got[0] != 3 {
			t.Errorf("%s: trigger query = %v, want sb's tools first", m, got)
		}
	}
	if err := RegisterFused(r, append(srds, srds[0])); err == nil {
		t.Error("a set describing a server twice was accepted")
	}
}

// TestDraftSRDsRoute: SRDs in the published v0.1 shape route like v1 ones
// (the issue: read, lint, use): the draft example's trigger words bring
// its knowledge-base tools first, in flat fielded and fused search.
func TestDraftSRDsRoute(t *testing.T) {
	srds, probs, err := srd.LoadPaths([]string{"../testdata/draft/kb-internal.json", "../testdata/draft/web-search.yaml"})
	if err != nil || len(probs) > 0 {
		t.Fatal(err, probs)
	}
	set, err := srd.NewSet(srds)
	if err != nil {
		t.Fatal(err)
	}
	docs := []sim.ToolDoc{
		{Server: "web-search", Name: "web_search", Description: "Searches the web."},
		{Server: "web-search", Name: "web_fetch", Description: "Fetches a page."},
		{Server: "kb-internal", Name: "kb_search", Description: "Searches the knowledge base."},
		{Server: "kb-internal", Name: "kb_get_doc", Description: "Gets one document."},
	}
	for _, f := range []sim.RankerFactory{FieldedFactory(set), FusedFactory(set)} {
		rk, err := f(docs)
		if err != nil {
			t.Fatal(err)
		}
		if got := rk.Rank("search the company policies", 2); len(got) == 0 || got[0] != 2 {
			t.Errorf("Rank = %v, want kb_search first", got)
		}
	}
	r, err := New(set, docs, BM25(), FusedOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.RankDomains("cite archived internal material", 1); !gocmp.Equal(got, []string{"enterprise-knowledge"}) {
		t.Errorf("RankDomains = %v", got)
	}
}
