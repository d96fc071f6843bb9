package sim

import (
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/defersim/defersim/traces"
)

// resolveJob counts in res.resol how j's session resolves as the replay
// resolves it: as read (the need builder's count, or resolveSession),
// then under the scenario's upgrades (applyUpgradesReach, upgradeRemoved).
// It leaves in r.pn the need the replay replays, in res the upgrades
// applied to it and in res.versions (b's buffer) the server versions it
// replays. replayOne and ResolveNeeds share it, so that a resolution
// counted without the replay is the replay's.
func (e *Engine) resolveJob(r *replayer, j job, b *resultBufs, res *jobResult) error {
	if j.b != nil {
		if j.b.e != e {
			return errors.New("the session's need was built for another engine")
		}
		res.resol = j.b.resol // resolved as it was read
	} else {
		r.buf.key = e.resolveSession(j.s, &res.resol, r.buf.key)
	}
	n := &r.pn
	switch {
	case j.b != nil && len(e.upgrades) == 0:
		res.removed = j.b.compact(n)
		res.resol.VersionChanges += int64(len(n.changes)) // a compact step per catalog change
	default:
		var n0 *Need
		if j.b != nil {
			n0 = j.b.Need()
		} else {
			n0 = r.need.extract(j.s)
		}
		var before []recordedCall
		before, r.buf.key = e.recordedCalls(n0, nil, r.buf.key)
		b.applied = slices.Grow(b.applied[:0], len(e.upgrades))[:len(e.upgrades)]
		epoch, err := e.applyUpgradesReach(n0, j.idx, b.applied)
		if err != nil {
			return err
		}
		r.buf.key = e.upgradeRemoved(n0, before, &res.resol, r.buf.key)
		res.epoch, res.applied = epoch, b.applied
		for i := range n0.Steps {
			if n0.Steps[i].Kind == StepCatalogChange {
				res.resol.VersionChanges++
			}
		}
		res.removed = n0.Removed
		n.fill(n0)
		if j.b != nil {
			n0.Steps = nil // the replay reads only the compact form
		}
	}
	b.versions = e.sessionVersions(n, b.versions[:0])
	res.versions = b.versions
	return nil
}

// Resolved is how a run's sessions resolve, counted without replaying
// them (Engine.ResolveNeeds).
type Resolved struct {
	// Resolution is the run's RunResult.Resolution (results.json
	// run.resolution) over the same sessions, scenario upgrades included.
	Resolution Resolution
	// UnreachedUpgrades are the run's RunInfo.UnreachedUpgrades: the
	// scenario's upgrades no session reaches.
	UnreachedUpgrades []UnreachedUpgrade
}

// ResolveNeeds counts how the sessions resolve as a run of e over the
// same needs counts it (RunNeeds: RunResult.Resolution), without
// replaying them under the strategies: each session, in stream order, is
// resolved and upgraded by the code the replay resolves it with
// (resolveJob). A session whose replay would fail is counted here, where
// a run leaves it out. The builders must come from e.BuildNeeds. A read
// error, or an error of the scenario's upgrades (*DatedUpgradeError,
// which stops a run), is returned; a session's other error is returned
// too, naming the session. `trace validate --scenario` predicts run's
// resolution with it.
func (e *Engine) ResolveNeeds(needs iter.Seq2[*NeedBuilder, error]) (*Resolved, error) {
	return e.resolveInputs(func(yield func(input, error) bool) {
		for b, err := range needs {
			if !yield(input{b: b}, err) {
				return
			}
		}
	})
}

// ResolveSessions is ResolveNeeds over decoded sessions (as Run is
// RunNeeds).
func (e *Engine) ResolveSessions(sessions iter.Seq2[*traces.Session, error]) (*Resolved, error) {
	return e.resolveInputs(func(yield func(input, error) bool) {
		for s, err := range sessions {
			if !yield(input{s: s}, err) {
				return
			}
		}
	})
}

func (e *Engine) resolveInputs(ins iter.Seq2[input, error]) (*Resolved, error) {
	st := &RunState{}
	if err := e.initUpgradeReach(st); err != nil {
		return nil, err
	}
	r := newReplayer(e)
	b := &resultBufs{}
	var idx int64
	for in, err := range ins {
		if err != nil {
			return nil, err
		}
		var res jobResult
		if err := e.resolveJob(r, job{idx: idx, input: in}, b, &res); err != nil {
			var dated *DatedUpgradeError
			if errors.As(err, &dated) {
				return nil, err
			}
			return nil, fmt.Errorf("session %s: %w", in.id(), err)
		}
		idx++
		st.countUpgrades(res.applied)
		st.Resolution.Merge(&res.resol)
		st.Resolution.addVersionsReplayed(res.versions)
		r.endSession()
	}
	return &Resolved{Resolution: st.Resolution, UnreachedUpgrades: st.UnreachedUpgrades()}, nil
}
