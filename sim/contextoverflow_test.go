package sim_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestRunCountsRequestsOverTheContextWindow pins that a run counts, per
// strategy, the model requests whose input exceeds the model's context
// window — every request of a session, also those past MaxRequestIndex
// that the per-request tables do not carry — with the largest and its
// session, and that two shards merged count exactly what one run does.
// Before, the window was read by percent triggers only, and a request
// over it was priced and timed as if the provider had taken it.
func TestRunCountsRequestsOverTheContextWindow(t *testing.T) {
	cat, sessions := genTrace(t, 30)
	long := repeatSession(sessions[0], 3000)
	long.ID = "long"
	for i := range long.Events {
		long.Events[i].Session = long.ID
	}
	sessions = append(sessions, long)
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var strategies []sim.Strategy
	for _, name := range []string{"eager", "claude-code-default"} {
		s, err := presets.Strategy(name)
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	model, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	params := presets.DefaultParams()
	params.Tokenizer = "bytes/3.5"
	engine := func(window int64) *sim.Engine {
		m := model
		m.ContextWindow = window
		eng, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: m, Params: params, Catalog: cat, Seed: 1, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		return eng
	}
	// The window: the largest input of any request the per-request tables
	// keep (index below MaxRequestIndex), so that only the long session's
	// later requests exceed it.
	probe := engine(model.ContextWindow)
	replays := make([][]sim.Outcome, len(sessions))
	var window int64
	for i, s := range sessions {
		replays[i] = probe.ReplayNeed(sim.ExtractNeed(s))
		for _, o := range replays[i] {
			for _, rt := range o.PerRequest[:min(len(o.PerRequest), sim.MaxRequestIndex)] {
				window = max(window, rt.Input)
			}
		}
	}
	want := make([]sim.ContextOverflow, len(strategies))
	for i, s := range sessions {
		for si, o := range replays[i] {
			var n, top int64
			for _, rt := range o.PerRequest {
				if rt.Input > window {
					n, top = n+1, max(top, rt.Input)
				}
			}
			if n == 0 {
				continue
			}
			w := &want[si]
			if w.Sessions == 0 || top > w.MaxInput {
				w.MaxInput, w.MaxSession, w.MaxIndex = top, s.ID, int64(i)
			}
			w.Window, w.Requests, w.Sessions = window, w.Requests+n, w.Sessions+1
		}
	}
	if want[0].Requests == 0 {
		t.Fatalf("no request of the long session exceeds %d tokens: the test checks nothing", window)
	}
	eng := engine(window)
	whole, err := eng.Run(context.Background(), sessionSeq(sessions), sim.RunOptions{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, whole.State.Overflow); d != "" {
		t.Errorf("overflow (-replays +run):\n%s", d)
	}
	if d := cmp.Diff(want, whole.Outcomes.Overflow); d != "" {
		t.Errorf("outcomes' overflow (-replays +run):\n%s", d)
	}
	// Two shards, merged in either order, count the same.
	shard := func(k int64) *sim.RunState {
		res, err := eng.Run(context.Background(), sessionSeq(sessions), sim.RunOptions{Workers: 2,
			Select: func(idx int64, _ string) bool { return idx%2 == k }})
		if err != nil {
			t.Fatal(err)
		}
		return res.State
	}
	for _, order := range [][2]int64{{0, 1}, {1, 0}} {
		a, b := shard(order[0]), shard(order[1])
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, a.Overflow, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("shards %v merged (-whole run +merge):\n%s", order, d)
		}
	}
	// A window no request reaches counts nothing.
	none, err := engine(1<<40).Run(context.Background(), sessionSeq(sessions), sim.RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(make([]sim.ContextOverflow, len(strategies)), none.State.Overflow); d != "" {
		t.Errorf("window of 2^40 tokens: %s", d)
	}
}
