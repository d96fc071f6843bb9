package sim

import (
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
