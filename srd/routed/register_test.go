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
