package sim

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
)

// TestApplyUpgrades pins how scenario upgrades rewrite a session: by
// session index, by start time, and mid-session at the first step after
// the upgrade time.
func TestApplyUpgrades(t *testing.T) {
	e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}}}, []testTool{{"a", 1, 0}})
	e.tables.versions = map[string][]string{"s": {"1", "2"}}
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	mk := func(start time.Time) *Need {
		return &Need{SessionID: "x", Start: start, Steps: []Step{
			{Kind: StepUser, T: start}, {Kind: StepModel, T: start.Add(time.Minute)}, {Kind: StepModel, T: start.Add(3 * time.Minute)}}}
	}
	type got struct {
		Servers []traces.ServerRef
		Kinds   []StepKind
	}
	for _, tc := range []struct {
		name string
		up   Upgrade
		idx  int64
		need *Need
		want got
	}{
		{"before after_session", Upgrade{Server: "s", To: "2", AfterSession: 5}, 4, mk(t0),
			got{[]traces.ServerRef{{Name: "s", Version: "1"}}, []StepKind{StepUser, StepModel, StepModel}}},
		{"from after_session on", Upgrade{Server: "s", To: "2", AfterSession: 5}, 5, mk(t0),
			got{[]traces.ServerRef{{Name: "s", Version: "2"}}, []StepKind{StepUser, StepModel, StepModel}}},
		{"session starts after At", Upgrade{Server: "s", To: "2", AfterSession: -1, At: at(0)}, 0, mk(at(10)),
			got{[]traces.ServerRef{{Name: "s", Version: "2"}}, []StepKind{StepUser, StepModel, StepModel}}},
		{"session spans At", Upgrade{Server: "s", To: "2", AfterSession: -1, At: at(2)}, 0, mk(t0),
			got{[]traces.ServerRef{{Name: "s", Version: "1"}}, []StepKind{StepUser, StepModel, StepCatalogChange, StepModel}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.upgrades = []Upgrade{tc.up}
			e.applyUpgrades(tc.need, tc.idx)
			g := got{Servers: tc.need.Servers}
			for _, st := range tc.need.Steps {
				g.Kinds = append(g.Kinds, st.Kind)
			}
			if d := cmp.Diff(tc.want, g); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestUpgradeAddsNoServer pins that a scenario upgrade never adds its
// server to a session that does not have it: a session naming other
// servers keeps its registry (no server pinned, no catalog change
// inserted), and an `at` upgrade inside a session changes a server that a
// recorded catalog_change added only once it is there. (Before, every
// upgrade put its server into every session, with its tools in the prompt.)
func TestUpgradeAddsNoServer(t *testing.T) {
	e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}}}, []testTool{{"a", 1, 0}})
	e.tables.versions = map[string][]string{"s": {"1", "2"}}
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	other := []traces.ServerRef{{Name: "o", Version: "1"}}
	// mk returns a session naming only o, with a recorded catalog change
	// adding s at minute join (none when join < 0).
	mk := func(join int) *Need {
		n := &Need{SessionID: "x", Start: t0, Servers: other, Steps: []Step{
			{Kind: StepUser, T: t0}, {Kind: StepModel, T: at(1)}, {Kind: StepModel, T: at(3)}, {Kind: StepModel, T: at(5)}}}
		if join >= 0 {
			for i, st := range n.Steps {
				if !st.T.Before(at(join)) {
					n.Steps = slices.Insert(n.Steps, i, Step{Kind: StepCatalogChange, Server: "s", Version: "1", T: at(join)})
					break
				}
			}
		}
		return n
	}
	type got struct {
		Servers []traces.ServerRef
		Changes []string // server@version of each catalog change, in order
	}
	for _, tc := range []struct {
		name string
		up   Upgrade
		idx  int64
		need *Need
		want got
	}{
		{"before after_session", Upgrade{Server: "s", To: "2", AfterSession: 5}, 4, mk(-1), got{Servers: other}},
		{"from after_session on", Upgrade{Server: "s", To: "2", AfterSession: 5}, 5, mk(-1), got{Servers: other}},
		{"session starts after At", Upgrade{Server: "s", To: "2", AfterSession: -1, At: at(-10)}, 0, mk(-1), got{Servers: other}},
		{"session spans At", Upgrade{Server: "s", To: "2", AfterSession: -1, At: at(2)}, 0, mk(-1), got{Servers: other}},
		{"At to the first version", Upgrade{Server: "s", To: "1", AfterSession: -1, At: at(2)}, 0, mk(-1), got{Servers: other}},
		{"recorded change adds s before At", Upgrade{Server: "s", To: "2", AfterSession: -1, At: at(2)}, 0, mk(1),
			got{Servers: other, Changes: []string{"s@1", "s@2"}}},
		{"recorded change adds s after At", Upgrade{Server: "s", To: "2", AfterSession: -1, At: at(2)}, 0, mk(4),
			got{Servers: other, Changes: []string{"s@1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.upgrades = []Upgrade{tc.up}
			e.applyUpgrades(tc.need, tc.idx)
			g := got{Servers: tc.need.Servers}
			for _, st := range tc.need.Steps {
				if st.Kind == StepCatalogChange {
					g.Changes = append(g.Changes, st.Server+"@"+st.Version)
				}
			}
			if d := cmp.Diff(tc.want, g); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
