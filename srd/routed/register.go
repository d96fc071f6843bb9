package routed

import (
	"fmt"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
)

// Mode names registered by Register and RegisterFused.
const (
	ModeRouted     = "routed"
	ModeRoutedHard = "routed-hard"
	// ModeFielded is flat fielded BM25 (search.DefaultBM25F) with the
	// SRDs' intent triggers as a field.
	ModeFielded = "bm25f"
	// ModeFused is the fused router (FusedOptions) over ModeFielded.
	ModeFused = "routed-fused"
)

// Factory returns a factory of weighted routed rankers (DefaultOptions)
// over srds, with base building the underlying rankers. The SRDs are
// indexed once; a set that cannot be indexed (a server described twice)
// makes every call fail.
func Factory(srds []*srd.SRD, base sim.RankerFactory) sim.RankerFactory {
	return factory(srds, base, DefaultOptions())
}

// HardFactory is Factory with the hard domain filter (HardOptions).
func HardFactory(srds []*srd.SRD, base sim.RankerFactory) sim.RankerFactory {
	return factory(srds, base, HardOptions())
}

// FactoryWith returns a factory of routed rankers over set with opt.
func FactoryWith(set *srd.Set, base sim.RankerFactory, opt Options) sim.RankerFactory {
	return func(docs []sim.ToolDoc) (sim.Ranker, error) {
		r, err := New(set, docs, base, opt)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

func factory(srds []*srd.SRD, base sim.RankerFactory, opt Options) sim.RankerFactory {
	set, err := srd.NewSet(srds)
	if err != nil {
		return func([]sim.ToolDoc) (sim.Ranker, error) { return nil, fmt.Errorf("routed: %w", err) }
	}
	return FactoryWith(set, base, opt)
}

// BM25 is the baseline base ranker: the anchor runtime's BM25.
func BM25() sim.RankerFactory {
	return search.Factories()[search.ModeBM25]
}

// Register adds "routed" and "routed-hard" over the anchor BM25 with no
// SRDs: every server is a domain of its own, scored by its tools' text.
// RegisterWith adds them with SRDs.
func Register(r *sim.Registry) error {
	return RegisterWith(r, nil, BM25())
}

// RegisterWith adds "routed" and "routed-hard" over srds and base.
func RegisterWith(r *sim.Registry, srds []*srd.SRD, base sim.RankerFactory) error {
	for _, m := range []struct {
		name, desc string
		f          sim.RankerFactory
	}{
		{ModeRouted, "routed search: domains scored by their routing descriptions, then tools within the best domains, scores combined (docs/srd.md)", Factory(srds, base)},
		{ModeRoutedHard, "routed search with a hard filter: only tools of the best domains are ranked (docs/srd.md)", HardFactory(srds, base)},
	} {
		info := sim.Info{Name: m.name, Description: m.desc, QueryModel: sim.DefaultQueryModel,
			Params: []sim.Param{{Name: "search.k", Type: "int", Default: "5", Meaning: "results a search returns (and loads)"}}}
		if err := r.RegisterSearch(info, m.f); err != nil {
			return fmt.Errorf("register routed search: %w", err)
		}
	}
	return nil
}

// FieldedFactory is the ModeFielded ranker over set: fielded BM25 with
// the SRD triggers, exact names (select:, a bare name) answered first.
func FieldedFactory(set *srd.Set) sim.RankerFactory {
	return search.WithExact(Fielded(set, search.DefaultBM25F()))
}

// FusedFactory is the ModeFused ranker over set: the fused router over
// fielded BM25, exact names answered first.
func FusedFactory(set *srd.Set) sim.RankerFactory {
	return search.WithExact(FactoryWith(set, Fielded(set, search.DefaultBM25F()), FusedOptions()))
}

// RegisterFused adds "bm25f" and "routed-fused" over srds (nil: no SRDs,
// every server its own domain). The replay's query model gives both the
// user's text, as for bm25 (docs/search.md).
func RegisterFused(r *sim.Registry, srds []*srd.SRD) error {
	set, err := srd.NewSet(srds)
	if err != nil {
		return fmt.Errorf("register routed search: %w", err)
	}
	k := []sim.Param{{Name: "search.k", Type: "int", Default: "5", Meaning: "results a search returns (and loads)"}}
	if err := r.RegisterSearch(sim.Info{Name: ModeFielded, QueryModel: sim.DefaultQueryModel, Params: k,
		Description: "flat fielded BM25 (search.DefaultBM25F) with the routing descriptions' intent triggers as a field; exact names answered first (docs/search.md)"},
		FieldedFactory(set)); err != nil {
		return fmt.Errorf("register routed search: %w", err)
	}
	if err := r.RegisterSearch(sim.Info{Name: ModeFused, QueryModel: sim.DefaultQueryModel, Params: k,
		Description: "the fused router over fielded BM25: domain and tool scores fused, exact names first (docs/srd.md)"},
		FusedFactory(set)); err != nil {
		return fmt.Errorf("register routed search: %w", err)
	}
	return nil
}
