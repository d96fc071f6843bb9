package traces

import (
	"cmp"
	"iter"
	"slices"
)

// Stats summarises a set of sessions.
type Stats struct {
	Sessions int `json:"sessions"`
	// Incomplete counts sessions without a session_end.
	Incomplete int `json:"incomplete_sessions"`
	// NoUser counts sessions without a user event: a run measures first
	// reply from the first user message (docs/engine.md §5), so theirs
	// is not one.
	NoUser int `json:"sessions_without_user,omitempty"`
	Events int `json:"events"`
	// EventsByType has an entry for every event type of format v1.
	EventsByType  map[EventType]int `json:"events_by_type"`
	UserTurns     int               `json:"user_turns"`
	ModelRequests int               `json:"model_requests"`
	ToolCalls     int               `json:"tool_calls"`
	// ToolCallsByStatus counts tool calls by status ("unknown" when absent).
	ToolCallsByStatus map[string]int `json:"tool_calls_by_status"`
	ToolSearches      int            `json:"tool_searches"`
	// DistinctTools counts distinct (server, tool) pairs called.
	DistinctTools int `json:"distinct_tools"`
	// SessionsWithToolCalls counts sessions with at least one tool_call.
	SessionsWithToolCalls int `json:"sessions_with_tool_calls"`
	// SessionsWithUsage counts sessions with token usage on some model_request.
	SessionsWithUsage int `json:"sessions_with_usage"`
	// SessionsWithTimings counts sessions with ttft_ms or duration_ms on some
	// model_request or tool_call.
	SessionsWithTimings int `json:"sessions_with_timings"`

	ToolCallsPerSession     Summary `json:"tool_calls_per_session"`
	UserTurnsPerSession     Summary `json:"user_turns_per_session"`
	ModelRequestsPerSession Summary `json:"model_requests_per_session"`

	// Openers counts, per tool, the sessions whose first tool_call called it;
	// most frequent first (ties by server, then tool).
	Openers []ToolCount `json:"openers"`
	// TopTools counts calls per tool; most called first (same tie order).
	TopTools []ToolCount `json:"top_tools"`
}

// Summary describes a per-session count over the sessions.
type Summary struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Max    int     `json:"max"`
}

// ToolCount is a count for one tool of one server.
type ToolCount struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Count  int    `json:"count"`
}

// Truncate returns a copy of s whose Openers and TopTools keep at most n
// entries (n <= 0 keeps all).
func (s Stats) Truncate(n int) Stats {
	if n > 0 {
		s.Openers = slices.Clone(s.Openers[:min(n, len(s.Openers))])
		s.TopTools = slices.Clone(s.TopTools[:min(n, len(s.TopTools))])
	}
	return s
}

// toolKey names a tool of a server.
type toolKey struct{ server, tool string }

// StatsAccumulator builds Stats one session at a time; its zero value is
// ready to use. Memory grows with the number of distinct tools and by one
// small record per session (for medians).
type StatsAccumulator struct {
	st       Stats
	byType   map[EventType]int
	byStatus map[string]int
	calls    map[toolKey]int
	openers  map[toolKey]int
	perCalls []int
	perTurns []int
	perReqs  []int
	// open holds the running counts of sessions fed event by event
	// (Event), until Add closes them.
	open map[*Session]*sessionCounts
}

// sessionCounts are one session's counts.
type sessionCounts struct {
	events, calls, turns, reqs int
	usage, timings, ended      bool
}

func (a *StatsAccumulator) init() {
	if a.byType == nil {
		a.byType = make(map[EventType]int)
		a.byStatus = make(map[string]int)
		a.calls = make(map[toolKey]int)
		a.openers = make(map[toolKey]int)
		a.open = make(map[*Session]*sessionCounts)
	}
}

// Event counts one event of the open session s. With ReadOptions.OnEvent
// set to it, a Reader keeps no events, and Add (of the session the reader
// yields) closes what Event counted: memory is then bounded by the open
// sessions, not by their length.
func (a *StatsAccumulator) Event(s *Session, ev *Event) {
	a.init()
	c := a.open[s]
	if c == nil {
		c = &sessionCounts{}
		a.open[s] = c
	}
	a.count(c, ev)
}

// count adds ev to the session counts c and to the totals.
func (a *StatsAccumulator) count(c *sessionCounts, ev *Event) {
	c.events++
	a.byType[ev.Type]++
	switch ev.Type {
	case UserMessage:
		c.turns++
	case ModelRequest:
		c.reqs++
		c.usage = c.usage || ev.Usage != nil
		c.timings = c.timings || ev.TTFTMs > 0 || ev.DurationMs > 0
	case ToolCall:
		k := toolKey{ev.Server, ev.Tool}
		if c.calls == 0 {
			a.openers[k]++
		}
		c.calls++
		a.calls[k]++
		status := ev.Status
		if status == "" {
			status = "unknown"
		}
		a.byStatus[status]++
		c.timings = c.timings || ev.DurationMs > 0
	case ToolSearch:
		a.st.ToolSearches++
	case SessionEnd:
		c.ended = true
	}
}

// Add counts one session: its events, or what Event counted of it.
func (a *StatsAccumulator) Add(s *Session) {
	a.init()
	c := a.open[s]
	if c != nil {
		delete(a.open, s)
	} else {
		c = &sessionCounts{}
		for i := range s.Events {
			a.count(c, &s.Events[i])
		}
	}
	a.st.Sessions++
	if !c.ended {
		a.st.Incomplete++
	}
	a.st.Events += c.events
	a.st.UserTurns += c.turns
	if c.turns == 0 {
		a.st.NoUser++
	}
	a.st.ModelRequests += c.reqs
	a.st.ToolCalls += c.calls
	if c.calls > 0 {
		a.st.SessionsWithToolCalls++
	}
	if c.usage {
		a.st.SessionsWithUsage++
	}
	if c.timings {
		a.st.SessionsWithTimings++
	}
	a.perCalls = append(a.perCalls, c.calls)
	a.perTurns = append(a.perTurns, c.turns)
	a.perReqs = append(a.perReqs, c.reqs)
}

// Stats returns the statistics of the sessions added so far.
func (a *StatsAccumulator) Stats() Stats {
	st := a.st
	st.EventsByType = make(map[EventType]int, len(KnownEventTypes))
	for _, t := range KnownEventTypes {
		st.EventsByType[t] = 0
	}
	for t, n := range a.byType {
		st.EventsByType[t] = n
	}
	st.ToolCallsByStatus = make(map[string]int)
	for k, n := range a.byStatus {
		st.ToolCallsByStatus[k] = n
	}
	st.DistinctTools = len(a.calls)
	st.ToolCallsPerSession = summarize(a.perCalls)
	st.UserTurnsPerSession = summarize(a.perTurns)
	st.ModelRequestsPerSession = summarize(a.perReqs)
	st.Openers = ranked(a.openers)
	st.TopTools = ranked(a.calls)
	return st
}

// ComputeStats reads every session of sessions and summarises them. It stops
// at the first error.
func ComputeStats(sessions iter.Seq2[*Session, error]) (Stats, error) {
	var a StatsAccumulator
	for s, err := range sessions {
		if err != nil {
			return a.Stats(), err
		}
		a.Add(s)
	}
	return a.Stats(), nil
}

// summarize returns the mean, median and maximum of xs (zeros when empty).
func summarize(xs []int) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	sum := 0
	for _, x := range sorted {
		sum += x
	}
	n := len(sorted)
	med := float64(sorted[n/2])
	if n%2 == 0 {
		med = float64(sorted[n/2-1]+sorted[n/2]) / 2
	}
	return Summary{Mean: float64(sum) / float64(n), Median: med, Max: sorted[n-1]}
}

// ranked returns the counts most frequent first, ties by server then tool.
func ranked(m map[toolKey]int) []ToolCount {
	out := make([]ToolCount, 0, len(m))
	for k, n := range m {
		out = append(out, ToolCount{Server: k.server, Tool: k.tool, Count: n})
	}
	SortToolCounts(out)
	return out
}

// SortToolCounts sorts counts most frequent first, ties by server then tool.
func SortToolCounts(counts []ToolCount) {
	slices.SortFunc(counts, func(a, b ToolCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Server, b.Server), cmp.Compare(a.Tool, b.Tool))
	})
}
