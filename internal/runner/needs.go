package runner

import (
	"iter"
	"sync/atomic"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// allNeeds is allSessions for a replay: each session's need is built as
// its events are read (sim.BuildNeeds), so no session is held as events
// and one session's memory is about its need's (docs/performance.md, "One
// long session"). The sessions, their order, the counts and the errors
// are allSessions'.
func allNeeds(eng *sim.Engine, srcs []Source, hashes traceHashes, opts traces.ReadOptions, counts *[]traces.Counts,
	read *atomic.Int64) iter.Seq2[*sim.NeedBuilder, error] {
	return eng.BuildNeeds(func(onEvent func(*traces.Session, *traces.Event, int)) iter.Seq2[*traces.Session, error] {
		opts.OnEvent = onEvent
		return allSessions(srcs, hashes, opts, counts, read, nil)
	})
}
