package sim

import (
	"fmt"
	"slices"
	"time"
)

// UpgradeReach counts the replayed sessions a scenario upgrade
// (servers.NAME.upgrades) applied to: the sessions it moved to version To,
// at their start or by a catalog change inside them (applyUpgrades). An
// upgrade that applied to none changes nothing in the replay — its
// after_session is beyond the sessions replayed, its `at` after every
// session of the server, or no session connects the server — so the
// report says it (RunInfo.UnreachedUpgrades).
type UpgradeReach struct {
	Server string
	To     string
	// AfterSession and At are the upgrade's (Upgrade).
	AfterSession int64
	At           time.Time
	Sessions     int64
}

// sameUpgrade reports whether a and b count the same upgrade.
func (a UpgradeReach) sameUpgrade(b UpgradeReach) bool {
	return a.Server == b.Server && a.To == b.To && a.AfterSession == b.AfterSession && a.At.Equal(b.At)
}

// initUpgradeReach gives a new state (one that counts no upgrade) a count
// of 0 for each of e's upgrades; a resumed state must count the same
// upgrades.
func (e *Engine) initUpgradeReach(st *RunState) error {
	want := make([]UpgradeReach, len(e.upgrades))
	for i, u := range e.upgrades {
		want[i] = UpgradeReach{Server: u.Server, To: u.To, AfterSession: u.AfterSession, At: u.At}
	}
	if len(st.Upgrades) == 0 {
		st.Upgrades = want
		return nil
	}
	if !slices.EqualFunc(st.Upgrades, want, UpgradeReach.sameUpgrade) {
		return fmt.Errorf("the run state counts %d scenario upgrades, not the run's %d (servers.NAME.upgrades differ)", len(st.Upgrades), len(want))
	}
	return nil
}

// countUpgrades counts a replayed session for each upgrade applied to it
// (applied[i]: upgrade i did, applyUpgradesReach). Kept in the state, so
// that shards, merges and resumes count every session once.
func (st *RunState) countUpgrades(applied []bool) {
	for i, ok := range applied {
		if ok && i < len(st.Upgrades) {
			st.Upgrades[i].Sessions++
		}
	}
}

// mergeUpgrades adds another state's upgrade counts to st's; a state that
// counts none (an empty state being merged into) takes o's.
func (st *RunState) mergeUpgrades(o []UpgradeReach) error {
	switch {
	case len(o) == 0:
		return nil
	case len(st.Upgrades) == 0:
		st.Upgrades = slices.Clone(o)
		return nil
	case !slices.EqualFunc(st.Upgrades, o, UpgradeReach.sameUpgrade):
		return fmt.Errorf("merge run states: different scenario upgrades (%d vs %d, servers.NAME.upgrades)", len(st.Upgrades), len(o))
	}
	for i := range o {
		st.Upgrades[i].Sessions += o[i].Sessions
	}
	return nil
}

// UnreachedUpgrade is a scenario upgrade that applied to no replayed
// session (UpgradeReach), as results.json records it: after_session or at,
// as the scenario gives it.
type UnreachedUpgrade struct {
	Server       string `json:"server"`
	To           string `json:"to"`
	AfterSession *int64 `json:"after_session,omitempty"`
	At           string `json:"at,omitempty"`
}

// UnreachedUpgrades returns the upgrades st counts no session for, in the
// scenario's order (nil when every upgrade applied to a session).
func (st *RunState) UnreachedUpgrades() []UnreachedUpgrade {
	var out []UnreachedUpgrade
	for _, u := range st.Upgrades {
		if u.Sessions > 0 {
			continue
		}
		x := UnreachedUpgrade{Server: u.Server, To: u.To}
		if u.AfterSession >= 0 {
			x.AfterSession = &u.AfterSession
		}
		if !u.At.IsZero() {
			x.At = u.At.UTC().Format(time.RFC3339)
		}
		out = append(out, x)
	}
	return out
}
