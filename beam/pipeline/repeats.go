package pipeline

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/defersim/defersim/traces"
)

// Each trace file is read on its own worker, with its own traces.SessionSet:
// a session id that starts again within the file is the reader's
// (stopped at, or skipped with skip-bad, as in `defersim run`). A session
// id read in two files — or in a file given twice — is found here instead:
// the reader of each file emits every session's id with where it started,
// a CombineFn per id keeps its earliest start and its earliest start in
// another file, and a global CombineFn keeps the earliest such repeat in
// stream order, which the Write step refuses to write results over.

// sessionStart is where a session read from a trace file starts: the
// file's position among the run's traces and the line of its
// session_start.
type sessionStart struct {
	File int
	Line int
}

// compareStarts orders starts as `defersim run` reads them: by file, then
// by line.
func compareStarts(a, b sessionStart) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
}

// sessionStarts is what is known of one session id's starts: the earliest
// (First) and, when the id starts in another file too, the earliest start
// in a file other than First's (Other). Per id it is two places, whatever
// the number of files.
type sessionStarts struct {
	First    sessionStart
	Other    sessionStart
	HasOther bool
}

// startsFn is the CombineFn of one session id's starts. Its result does
// not depend on the order of merging: First is the minimum of all starts,
// and the earliest start in another file than First's is either the other
// side's First or, when that is in First's file, the other side's Other.
type startsFn struct{}

// MergeAccumulators merges what two parts of the run know of an id.
func (startsFn) MergeAccumulators(a, b sessionStarts) sessionStarts {
	all := []sessionStart{a.First, b.First}
	if a.HasOther {
		all = append(all, a.Other)
	}
	if b.HasOther {
		all = append(all, b.Other)
	}
	slices.SortFunc(all, compareStarts)
	out := sessionStarts{First: all[0]}
	for _, s := range all[1:] {
		if s.File != out.First.File {
			out.Other, out.HasOther = s, true
			break
		}
	}
	return out
}

// repeatedSession is a session id read in two trace files: First is its
// earliest start, Again its earliest start in another file.
type repeatedSession struct {
	ID    string
	First sessionStart
	Again sessionStart
}

// repeatsFn emits the ids that start in more than one file.
func repeatsFn(id string, st sessionStarts, emit func(repeatedSession)) {
	if st.HasOther {
		emit(repeatedSession{ID: id, First: st.First, Again: st.Other})
	}
}

// earliestRepeatFn is the global CombineFn that keeps the repeat
// `defersim run` would meet first: the earliest second start in stream
// order (then the smallest id, so that the choice never depends on the
// order of merging).
type earliestRepeatFn struct{}

// MergeAccumulators keeps the earlier of two repeats.
func (earliestRepeatFn) MergeAccumulators(a, b repeatedSession) repeatedSession {
	if c := compareStarts(a.Again, b.Again); c < 0 || c == 0 && a.ID <= b.ID {
		return a
	}
	return b
}

// repeatError is the error of a session id read in two trace files:
// `defersim run`'s own (file:line: session "…" starts again: already read
// at file:line …) and, with skip-bad, why the pipeline stops where `defersim
// run` would skip the later copy. paths are the run's trace paths by
// position.
func repeatError(r repeatedSession, paths map[int]string, skipBad bool) error {
	e := traces.DuplicateSessionError(r.ID, paths[r.Again.File], r.Again.Line, paths[r.First.File], r.First.Line, true)
	if !skipBad {
		return fmt.Errorf("trace: %w", e)
	}
	return fmt.Errorf("trace: %w; the Beam pipeline reads each trace file apart and cannot skip a session "+
		"repeated across files as --skip-bad does in defersim run (docs/beam.md): remove the repeat from the "+
		"traces, or replay them with defersim run --skip-bad", e)
}
