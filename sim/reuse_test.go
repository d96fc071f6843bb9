package sim_test

import (
	"context"
	"iter"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// TestReusedNeedMatchesFresh extracts generated sessions one after another
// into one reused Need, replaying each before the next (which fills its
// token counts and query memo), and checks that every extraction equals a
// fresh ExtractNeed: nothing of a session survives into the next.
func TestReusedNeedMatchesFresh(t *testing.T) {
	cat, sessions := genTrace(t, 60)
	// Long sessions before short ones, and the reverse.
	rev := slices.Clone(sessions)
	slices.Reverse(rev)
	sessions = append(sessions, rev...)
	eng := newReuseEngine(t, cat)
	opts := cmp.Options{cmp.AllowUnexported(sim.Need{}), cmpopts.EquateEmpty()}
	var x sim.NeedExtractor
	for _, s := range sessions {
		got := x.Extract(s)
		if d := cmp.Diff(sim.ExtractNeed(s), got, opts); d != "" {
			t.Fatalf("session %s: reused need differs (-fresh +reused):\n%s", s.ID, d)
		}
		eng.ReplayNeed(got)
	}
}

// TestRunMatchesReplayNeed runs generated sessions on more workers than
// the pool of result buffers has room for in one go, and checks every
// session's values and per-request tokens against a fresh replay of it:
// recycled result buffers never carry anything from one session into
// another.
func TestRunMatchesReplayNeed(t *testing.T) {
	cat, sessions := genTrace(t, 60)
	eng := newReuseEngine(t, cat)
	res, err := eng.Run(context.Background(), sessionSeq(sessions), sim.RunOptions{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	S := len(eng.Strategies())
	byIndex := make([][]sim.RequestIndexStat, S)
	for s := range S {
		byIndex[s] = make([]sim.RequestIndexStat, sim.MaxRequestIndex)
	}
	for i, s := range sessions {
		want := eng.ReplayNeed(sim.ExtractNeed(s))
		for si := range S {
			for m := range sim.NumMetrics {
				if got := res.Outcomes.Values[si][m][i]; got != want[si].Values[m] {
					t.Fatalf("session %s, strategy %d, metric %s: run %v, replay %v", s.ID, si, sim.Metrics[m].Name, got, want[si].Values[m])
				}
			}
			for k, rt := range want[si].PerRequest[:min(len(want[si].PerRequest), sim.MaxRequestIndex)] {
				is := &byIndex[si][k]
				is.Sessions++
				is.Input += rt.Input
				is.CacheRead += rt.CacheRead
				if rt.Extra {
					is.Extra++
				}
			}
			// Model steps: a request belongs to the step of the next
			// non-extra request.
			step, seen := 0, map[int]bool{}
			for _, rt := range want[si].PerRequest {
				if step >= sim.MaxRequestIndex {
					break
				}
				is := &byIndex[si][step]
				if !seen[step] {
					is.StepSessions++
					seen[step] = true
				}
				is.StepRequests++
				is.StepInput += rt.Input
				is.StepCacheRead += rt.CacheRead
				if !rt.Extra {
					step++
				}
			}
		}
	}
	if d := cmp.Diff(byIndex, res.Outcomes.ByRequestIndex); d != "" {
		t.Errorf("by request index (-replays +run):\n%s", d)
	}
}

// sessionSeq yields sessions as a trace reader does.
func sessionSeq(sessions []*traces.Session) iter.Seq2[*traces.Session, error] {
	return func(yield func(*traces.Session, error) bool) {
		for _, s := range sessions {
			if !yield(s, nil) {
				return
			}
		}
	}
}

func newReuseEngine(t *testing.T, cat *catalog.Catalog) *sim.Engine {
	t.Helper()
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	model, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	params := presets.DefaultParams()
	params.Tokenizer = "bytes/3.5"
	params.NudgeProb, params.ColdCallProb = 0.3, 0.3
	eng, err := sim.NewEngine(sim.Config{Strategies: checkStrategies(t), Model: model, Params: params,
		Catalog: cat, Seed: 1, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}
