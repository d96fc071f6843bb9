package main

import (
	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// unservedCounter counts, as trace stats reads the events, the tool calls
// that do not resolve against the server version their session holds at
// each (sim.CallResolver), and the tool names searches return that no
// server of the session serves there: what trace validate flags with the
// same catalogs, and a run counts as search_results_unknown.
type unservedCounter struct {
	r     traces.CallResolver
	open  map[*traces.Session]traces.SessionResolver // by open session
	calls map[traces.ToolCount]int                   // by server and tool (Count 0)
	total int
	// results counts the names tool_search events return; unknown those
	// no server of their session serves at its version in force.
	results, unknown int
	unres            []traces.Unresolved // scratch
}

func newUnservedCounter(cat *catalog.Catalog) *unservedCounter {
	return &unservedCounter{r: sim.NewCallResolver(cat), open: map[*traces.Session]traces.SessionResolver{},
		calls: map[traces.ToolCount]int{}}
}

// event takes the next event of the open session s (ReadOptions.OnEvent).
func (u *unservedCounter) event(s *traces.Session, ev *traces.Event, line int) {
	sr := u.open[s]
	if ev.Type == traces.SessionStart {
		sr = u.r.Session()
		u.open[s] = sr
	}
	if sr == nil {
		return // a reader opens every session at its session_start
	}
	u.unres = sr.Event(ev, line, u.unres[:0])
	switch ev.Type {
	case traces.ToolCall:
		if len(u.unres) > 0 {
			u.calls[traces.ToolCount{Server: ev.Server, Tool: ev.Tool}]++
			u.total++
		}
	case traces.ToolSearch:
		u.results += len(ev.Returned())
		u.unknown += len(u.unres)
	case traces.SessionEnd:
		delete(u.open, s)
	}
}

// done forgets session s, which the reader yielded (complete or not).
func (u *unservedCounter) done(s *traces.Session) { delete(u.open, s) }

// tools returns the unserved calls per tool, most first.
func (u *unservedCounter) tools() []traces.ToolCount {
	out := make([]traces.ToolCount, 0, len(u.calls))
	for k, n := range u.calls {
		k.Count = n
		out = append(out, k)
	}
	traces.SortToolCounts(out)
	return out
}
