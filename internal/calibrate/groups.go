package calibrate

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// group is the sessions of one recorded model.
type group struct {
	key  string // modelKey of the recorded model
	name string // the recorded model (as first seen)
	fit  int    // sessions fitted on
	held int    // sessions held out
	// deferred counts the fit and held-out sessions recorded under a
	// deferral rule, by rule: calibrate skips them, so fit and held do
	// not count them.
	deferred Skipped
	// requests, withUsage and withDuration count the model requests of
	// the fit and held-out sessions (deferred ones left out), and those
	// that record token usage or a duration: a group with neither has
	// nothing to calibrate, however its sessions split.
	requests, withUsage, withDuration int
}

// nothingToFit says why a group none of whose n model requests records
// usage or a duration is not calibrated.
func nothingToFit(n int) error {
	return fmt.Errorf("nothing to calibrate: none of its %d model requests records token usage (what the prompt overhead is fitted to) "+
		"or a duration (what the latency is fitted to); %s", n, durationHint)
}

// durationHint says where a model request's duration comes from and how a
// trace without one can have it: the importers derive it from message
// times; placeholder times give none.
const durationHint = "a request's duration is its model_request duration_ms (docs/trace-format.md); " +
	"the importers derive it from the source's message times, a request ending at its own message's time (docs/importers.md, Model requests), " +
	"and a trace of your own that records those times can be given duration_ms the same way; sessions whose times are placeholders " +
	"(session_start meta timing \"synthetic\") have none to derive"

// count adds the model requests of s to g's counts.
func (g *group) count(s *traces.Session) {
	need := sim.ExtractNeed(s)
	for i := range need.Steps {
		st := &need.Steps[i]
		if st.Kind != sim.StepModel {
			continue
		}
		g.requests++
		if st.Usage != nil {
			g.withUsage++
		}
		if st.DurationMs > 0 {
			g.withDuration++
		}
	}
}

// skippedText says which sessions recorded under another strategy a group
// skips ("" when none).
func (g group) skippedText() string {
	var parts []string
	n := 0
	for _, k := range sortedSkips(g.deferred) {
		parts = append(parts, k)
		n += g.deferred[k]
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s recorded under another strategy (%s) %s skipped: calibrate fits and judges sessions "+
		"recorded with every schema sent (recorded_strategy eager)", nouns.Count(n, "session"), strings.Join(parts, ", "), nouns.Form(n, "is", "are"))
}

// scanGroups reads the sessions once, groups them by recorded model (in
// order of first appearance), counts the held-out ones and stops at a
// session id read before, in the same file or an earlier one (calibration
// or test): fitted twice, or fitted on and judged on, it would make the
// held-out figures measure the fit on its own data.
func scanGroups(d *Data) ([]group, int, error) {
	var out []group
	at := map[string]int{}
	seen := map[string]place{}
	held := 0
	for it, err := range d.source("", true)() {
		if err != nil {
			return nil, 0, err
		}
		if err := seenOnce(seen, it); err != nil {
			return nil, 0, err
		}
		i, ok := at[it.Group]
		if !ok {
			i = len(out)
			at[it.Group] = i
			name := ""
			if st := it.Session.Start(); st != nil {
				name = st.Model()
			}
			out = append(out, group{key: it.Group, name: name})
		}
		if st := it.Session.Start(); it.Role != Unused && st != nil && traces.RecordedDeferred(st.RecordedStrategy()) {
			if out[i].deferred == nil {
				out[i].deferred = Skipped{}
			}
			out[i].deferred[st.RecordedStrategy()]++
			continue
		}
		switch it.Role {
		case FitRole:
			out[i].fit++
		case HeldOut:
			out[i].held++
			held++
		}
		if it.Role != Unused {
			out[i].count(it.Session)
		}
	}
	if len(out) == 0 {
		return nil, 0, fmt.Errorf("no session in the traces")
	}
	return out, held, nil
}

// place is where a session started: the index of its file among the
// calibration and test traces, its name and the line of its session_start
// (0: unknown).
type place struct {
	file int
	name string
	line int
}

// seenOnce records where the session of it starts, or returns a line error of
// kind duplicate_session, in the words of a run's (traces.SessionSet),
// when its id was read before.
func seenOnce(seen map[string]place, it Item) error {
	s := it.Session
	p := place{file: it.file, name: s.File, line: 0}
	if len(s.Lines) > 0 {
		p.line = s.Lines[0]
	}
	first, dup := seen[s.ID]
	if !dup {
		seen[s.ID] = p
		return nil
	}
	where := first.name
	if first.line > 0 {
		where = fmt.Sprintf("%s:%d", first.name, first.line)
	}
	hint := ""
	if first.file != p.file && first.name == p.name {
		hint = ": is the file given twice?"
	}
	return &traces.LineError{File: p.name, Line: p.line, Kind: traces.KindDuplicateSession,
		Reason: fmt.Sprintf("session %q starts again: already read at %s (duplicate session id%s); "+
			"calibrate would fit it twice, or judge the fit on a session it fitted on", s.ID, where, hint)}
}
