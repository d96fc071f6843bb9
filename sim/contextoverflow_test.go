package sim_test

import (
	"context"
	"fmt"
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

// overflowEngines returns the strategies eager and claude-code-default,
// the model claude-sonnet-4.5, and a function that builds an engine of
// them over cat with the model's context window set to window.
func overflowEngines(t *testing.T, cat *catalog.Catalog) ([]sim.Strategy, sim.Model, func(window int64) *sim.Engine) {
	t.Helper()
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
	return strategies, model, func(window int64) *sim.Engine {
		m := model
		m.ContextWindow = window
		eng, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: m, Params: params, Catalog: cat, Seed: 1, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		return eng
	}
}

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
	strategies, model, engine := overflowEngines(t, cat)
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

// TestOverflowTieAcrossShardsKeepsTheEarlierSession pins that when two
// sessions of different shards send the same largest request over the
// context window, the merged count names the one earlier in stream order
// (MaxSession, MaxIndex), whichever shard is merged into the other, as
// one run over all sessions does. The shard merges of
// TestRunCountsRequestsOverTheContextWindow have a single largest session,
// so the tie rule of takeMax went untested across shards.
func TestOverflowTieAcrossShardsKeepsTheEarlierSession(t *testing.T) {
	cat, sessions := genTrace(t, 10)
	long := repeatSession(sessions[0], 3000)
	twin := func(id string) *traces.Session {
		s := &traces.Session{ID: id, Events: slices.Clone(long.Events)}
		for i := range s.Events {
			s.Events[i].Session = id
		}
		return s
	}
	// The twins at stream indexes 5 and 8: shards idx%2 == 1 and 0.
	const first, second = 5, 8
	sessions = slices.Insert(sessions, first, twin("twin-a"))
	sessions = slices.Insert(sessions, second, twin("twin-b"))
	_, model, engine := overflowEngines(t, cat)
	// The window: the largest request of any other session, so that only
	// the twins exceed it.
	probe := engine(model.ContextWindow)
	var window int64
	largest := map[string]int64{}
	for _, s := range sessions {
		for _, o := range probe.ReplayNeed(sim.ExtractNeed(s)) {
			for _, rt := range o.PerRequest {
				if s.ID == "twin-a" || s.ID == "twin-b" {
					largest[s.ID] = max(largest[s.ID], rt.Input)
				} else {
					window = max(window, rt.Input)
				}
			}
		}
	}
	if largest["twin-a"] != largest["twin-b"] || largest["twin-a"] <= window {
		t.Fatalf("the twins' largest requests %v against a window of %d: no tie over the window, the test checks nothing", largest, window)
	}
	eng := engine(window)
	run := func(sel func(idx int64, _ string) bool) *sim.RunState {
		res, err := eng.Run(context.Background(), sessionSeq(sessions), sim.RunOptions{Workers: 2, Select: sel})
		if err != nil {
			t.Fatal(err)
		}
		return res.State
	}
	whole := run(nil)
	if o := whole.Overflow[0]; o.Sessions != 2 || o.MaxInput != largest["twin-a"] || o.MaxSession != "twin-a" || o.MaxIndex != first {
		t.Fatalf("eager's overflow over the whole run %+v, want the twins' 2 sessions, the largest %d in twin-a (index %d)", o, largest["twin-a"], first)
	}
	for _, order := range [][2]int64{{0, 1}, {1, 0}} {
		t.Run(fmt.Sprintf("shard %d merged with shard %d", order[0], order[1]), func(t *testing.T) {
			shard := func(k int64) *sim.RunState { return run(func(idx int64, _ string) bool { return idx%2 == k }) }
			a, b := shard(order[0]), shard(order[1])
			if err := a.Merge(b); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(whole.Overflow, a.Overflow, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("merged overflow (-whole run +merge):\n%s", d)
			}
		})
	}
}
