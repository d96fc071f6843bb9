package runner

import (
	"iter"
	"sync/atomic"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// allNeeds is allSessions for a replay: each session's need is built as
// its events are read (traces.ReadOptions.OnEvent, sim.NeedBuilder), so no
// session is held as events and one session's memory is its need's
// (docs/performance.md, "One long session"). The sessions, their order,
// the counts and the errors are allSessions'.
func allNeeds(srcs []Source, hashes traceHashes, opts traces.ReadOptions, counts *[]traces.Counts,
	read *atomic.Int64) iter.Seq2[*sim.NeedBuilder, error] {
	return func(yield func(*sim.NeedBuilder, error) bool) {
		building := map[*traces.Session]*sim.NeedBuilder{} // the open sessions'
		var last *traces.Session                           // the session of the previous event, and its builder
		var lastB *sim.NeedBuilder
		opts.OnEvent = func(s *traces.Session, ev *traces.Event, line int) {
			if s != last {
				if lastB = building[s]; lastB == nil {
					lastB = sim.NewNeedBuilder(s.ID)
					building[s] = lastB
				}
				last = s
			}
			lastB.Add(ev, line)
		}
		for s, err := range allSessions(srcs, hashes, opts, counts, read, nil) {
			if err != nil {
				yield(nil, err)
				return
			}
			b := building[s]
			delete(building, s)
			if s == last {
				last, lastB = nil, nil
			}
			if b == nil { // a session has at least its session_start: cannot happen
				b = sim.NewNeedBuilder(s.ID)
			}
			if !yield(b, nil) {
				return
			}
		}
	}
}
