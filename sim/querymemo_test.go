package sim_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// probeQuery is a query model whose query carries every input it reads
// (so a query from another user step, tool, directory kind or session has
// another length and another search call), counting its calls.
type probeQuery struct{ calls *atomic.Int64 }

func (q probeQuery) Query(in sim.QueryInput) string {
	q.calls.Add(1)
	return fmt.Sprintf("%s | %s | %t", in.User, in.ToolQuery, in.DirectoryShowsNames)
}

// TestQueryMemoMatchesModelAndStaysInItsSession pins the session's memo of
// model-written queries (sim/querymemo.go): the replay with it gives the
// values of the reference replayer, which asks the query model on every
// search; it asks the model less often; and a session's queries do not
// leak into the next session of the same replayer, nor into a second run
// of the same engine (each session's values in a one-worker run equal
// those of the session replayed alone by a new replayer).
func TestQueryMemoMatchesModelAndStaysInItsSession(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and replays a trace")
	}
	cat, sessions := genTrace(t, 40)
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	if err := reg.RegisterQueryModel(sim.Info{Name: "probe", Description: "the user text, the tool's name words and the directory kind"},
		probeQuery{&calls}); err != nil {
		t.Fatal(err)
	}
	model, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	params := presets.DefaultParams()
	params.Tokenizer, params.QueryModel = "bytes/3.5", "probe"
	eng, err := sim.NewEngine(sim.Config{Strategies: checkStrategies(t), Model: model, Params: params,
		Catalog: cat, Seed: 1, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}

	// The reference replayer asks the model on every search; Session
	// replays each session with both and compares every prompt and value.
	check := eng.NewReferenceCheck()
	var fast, ref int64
	for i, s := range sessions {
		c0 := calls.Load()
		eng.ReplayNeed(sim.ExtractNeed(s))
		c1 := calls.Load()
		if err := check.Session(s, int64(i)); err != nil {
			t.Fatal(err)
		}
		fast += c1 - c0
		ref += calls.Load() - c1 - (c1 - c0) // Session replays with both
	}
	if fast == 0 || fast >= ref {
		t.Fatalf("the fast replay asked the query model %d times, the reference %d: the memo is not used", fast, ref)
	}
	t.Logf("query model calls: %d with the memo, %d without", fast, ref)

	all := func(yield func(*traces.Session, error) bool) {
		for _, s := range sessions {
			if !yield(s, nil) {
				return
			}
		}
	}
	for run := range 2 {
		res, err := eng.Run(context.Background(), all, sim.RunOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range sessions {
			alone := eng.ReplayNeed(sim.ExtractNeed(s))
			for si := range alone {
				for m, want := range alone[si].Values {
					if got := res.Outcomes.Values[si][m][i]; got != want {
						t.Fatalf("run %d, session %s, strategy %d, metric %d: %v in the run, %v alone", run, s.ID, si, m, got, want)
					}
				}
			}
		}
	}
}
