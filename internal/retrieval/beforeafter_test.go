package retrieval

import (
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/retrieval/hardsets"
	"github.com/defersim/defersim/srd/routed"
	"github.com/defersim/defersim/tokens"
)

// Arms of the before/after comparison (docs/retrieval.md): today's flat
// and routed BM25, and the fused router over fielded BM25, named before
// the held-out sets were measured.
const (
	armFlat     = "bm25/flat"
	armRouted   = "bm25/routed"
	armFusedNew = "bm25f/fused"
)

// beforeAfter evaluates the three arms on a held-out set: MetaTool's
// report part (its tuning part was tuned on), the other sets whole (none
// of their queries was).
func beforeAfter(t *testing.T, name string, src Sources, cat *catalog.Catalog, limit int) *Result {
	t.Helper()
	s, err := LoadNamed(name, src, cat)
	if err != nil {
		t.Fatal(err)
	}
	srds, err := LoadSRDs("", s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if name == SetMetaTool {
		if s, err = s.Split(SplitReport); err != nil {
			t.Fatal(err)
		}
	}
	s = s.Head(limit)
	bases := BaseRankers(srds, nil)
	var arms []Arm
	for _, spec := range []struct{ ranker, mode string }{{"bm25", ModeFlat}, {"bm25", ModeRouted}, {RankerBM25F, ModeFused}} {
		a, err := BuildArms(ArmConfig{Rankers: []string{spec.ranker}, Modes: []string{spec.mode}, Bases: bases, Set: srds,
			Routed: routed.DefaultOptions(), Fused: routed.FusedOptions()})
		if err != nil {
			t.Fatal(err)
		}
		arms = append(arms, a...)
	}
	opt := DefaultEvalOptions()
	opt.Resamples, opt.Counter, opt.Domains, opt.Baselines = 200, tokens.NewEstimator(3.5), srds, []string{armFlat, armRouted}
	res, err := Evaluate(s, arms, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBeforeAfterHeldOut pins the claim on the held-out sets (a
// smaller run of the documented measurement: MetaTool's report part cut
// to 3,000 queries, the other sets whole): the fused router over fielded
// BM25 beats today's routed BM25 on tool recall@5 on every set, and on
// MetaTool beats today's flat BM25 by at least 15 points with the paired
// interval above 0.
func TestBeforeAfterHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("real-data measurement")
	}
	src := realSources(t)
	cat, err := src.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	sets := append([]string{SetMetaTool, SetMetaToolMulti, SetMCPBench}, hardsets.Names()...)
	for _, name := range sets {
		t.Run(name, func(t *testing.T) {
			limit := 0
			if name == SetMetaTool {
				limit = 3000
			}
			res := beforeAfter(t, name, src, cat, limit)
			vsRouted, _ := res.diff(armFusedNew, armRouted, MRecall)
			if vsRouted.Mean <= 0 {
				t.Errorf("%s: fused recall@5 − today's routed = %+.1f pp, want > 0", name, 100*vsRouted.Mean)
			}
			if name == SetMetaTool {
				vsFlat, _ := res.diff(armFusedNew, armFlat, MRecall)
				if vsFlat.Mean < 0.15 || vsFlat.Lo <= 0 {
					t.Errorf("metatool: fused − flat = %+.1f pp [%+.1f, %+.1f], want ≥ 15 pp with the interval above 0",
						100*vsFlat.Mean, 100*vsFlat.Lo, 100*vsFlat.Hi)
				}
			}
			t.Logf("%s: flat %.1f%%, routed %.1f%%, fused %.1f%% (Δ routed %+.1f pp [%+.1f, %+.1f])", name,
				100*res.Arms[0].Metric(MRecall).Mean, 100*res.Arms[1].Metric(MRecall).Mean, 100*res.Arms[2].Metric(MRecall).Mean,
				100*vsRouted.Mean, 100*vsRouted.Lo, 100*vsRouted.Hi)
		})
	}
}
