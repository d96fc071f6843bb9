package retrieval

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
	"github.com/defersim/defersim/srd/routed"
)

// Search arm modes: the base ranker alone, or wrapped by the router.
const (
	ModeFlat       = "flat"
	ModeRouted     = "routed"
	ModeRoutedHard = "routed-hard"
	// ModeFused is the fused router (routed.FusedOptions): fielded,
	// length-normalised domain documents and reciprocal-rank fusion with
	// the flat ranking.
	ModeFused = "fused"
)

// Modes lists every arm mode, in report order.
func Modes() []string { return []string{ModeFlat, ModeRouted, ModeRoutedHard, ModeFused} }

// RankerBM25F is the fielded BM25 base ranker (routed.Fielded over the
// set's SRDs with search.DefaultBM25F).
const RankerBM25F = "bm25f"

// Embedding base rankers (they need an embeddings endpoint).
const (
	RankerDense  = "dense"
	RankerHybrid = "hybrid"
	// HybridC is the reciprocal-rank constant of the hybrid ranker.
	HybridC = 60
)

// EmbeddingRankers lists the base rankers that need an embeddings
// endpoint.
func EmbeddingRankers() []string { return []string{RankerDense, RankerHybrid} }

// EmbeddingBases returns the dense ranker over emb and the hybrid one
// (bm25f with the set's triggers and dense, fused by reciprocal rank).
func EmbeddingBases(emb search.Embedder, set *srd.Set) map[string]sim.RankerFactory {
	return map[string]sim.RankerFactory{
		RankerDense:  search.DenseFactory(emb),
		RankerHybrid: search.HybridFactory(routed.Fielded(set, search.DefaultBM25F()), emb, HybridC),
	}
}

// Arm is one search configuration evaluated on a set.
type Arm struct {
	// Name is "ranker/mode", e.g. "bm25/routed".
	Name    string
	Ranker  string
	Mode    string
	Factory sim.RankerFactory
}

// BaseRankers returns the base rankers srd eval knows: every mode of
// sim/search, and "bm25f" with the triggers of set; extra adds more (the
// embedding rankers).
func BaseRankers(set *srd.Set, extra map[string]sim.RankerFactory) map[string]sim.RankerFactory {
	out := search.Factories()
	out[RankerBM25F] = routed.Fielded(set, search.DefaultBM25F())
	maps.Copy(out, extra)
	return out
}

// ArmConfig says which arms to build.
type ArmConfig struct {
	// Rankers are base ranker names, looked up in Bases.
	Rankers []string
	// Modes are the arm modes of each ranker (nil: flat, routed,
	// routed-hard).
	Modes []string
	Bases map[string]sim.RankerFactory
	// Set routes (nil: every server its own domain).
	Set *srd.Set
	// Routed configures the routed arm and, with Hard set, the hard one.
	Routed routed.Options
	// Fused configures the fused arm.
	Fused routed.Options
}

// Arms builds the flat, routed and routed-hard arms of each named base
// ranker, in the order given. bases maps ranker names to factories;
// routing uses set (nil: every server its own domain) with opt, the hard
// arm with opt.Hard set.
func Arms(rankers []string, bases map[string]sim.RankerFactory, set *srd.Set, opt routed.Options) ([]Arm, error) {
	return BuildArms(ArmConfig{Rankers: rankers, Bases: bases, Set: set, Routed: opt})
}

// BuildArms builds the arms of cfg: for each ranker, each mode.
func BuildArms(cfg ArmConfig) ([]Arm, error) {
	modes := cfg.Modes
	if modes == nil {
		modes = []string{ModeFlat, ModeRouted, ModeRoutedHard}
	}
	hard := cfg.Routed
	hard.Hard = true
	opt := cfg.Routed
	opt.Hard = false
	var out []Arm
	for _, name := range cfg.Rankers {
		f, ok := cfg.Bases[name]
		if !ok {
			known := slices.Sorted(maps.Keys(cfg.Bases))
			return nil, errors.New(catalog.NearName(name, known).WithHint(fmt.Sprintf("unknown ranker %q (known: %v)", name, known)))
		}
		for _, m := range modes {
			a := Arm{Name: name + "/" + m, Ranker: name, Mode: m}
			switch m {
			case ModeFlat:
				a.Factory = f
			case ModeRouted:
				a.Factory = routed.FactoryWith(cfg.Set, f, opt)
			case ModeRoutedHard:
				a.Factory = routed.FactoryWith(cfg.Set, f, hard)
			case ModeFused:
				a.Factory = routed.FactoryWith(cfg.Set, f, cfg.Fused)
			default:
				return nil, errors.New(catalog.NearName(m, Modes()).WithHint(fmt.Sprintf("unknown arm mode %q (known: %v)", m, Modes())))
			}
			out = append(out, a)
		}
	}
	return out, nil
}
