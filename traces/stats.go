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
	Events     int `json:"events"`
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
}

// Add counts one session.
func (a *StatsAccumulator) Add(s *Session) {
	if a.byType == nil {
		a.byType = make(map[EventType]int)
		a.byStatus = make(map[string]int)
		a.calls = make(map[toolKey]int)
		a.openers = make(map[toolKey]int)
	}
	a.st.Sessions++
	if s.End() == nil {
		a.st.Incomplete++
	}
	var calls, turns, reqs int
	var usage, timings bool
	for i := range s.Events {
		ev := &s.Events[i]
		a.byType[ev.Type]++
		switch ev.Type {
		case UserMessage:
			turns++
		case ModelRequest:
			reqs++
			usage = usage || ev.Usage != nil
			timings = timings || ev.TTFTMs > 0 || ev.DurationMs > 0
		case ToolCall:
			k := toolKey{ev.Server, ev.Tool}
			if calls == 0 {
				a.openers[k]++
			}
			calls++
			a.calls[k]++
			status := ev.Status
			if status == "" {
				status = "unknown"
			}
			a.byStatus[status]++
			timings = timings || ev.DurationMs > 0
		case ToolSearch:
			a.st.ToolSearches++
		}
	}
	a.st.Events += len(s.Events)
	a.st.UserTurns += turns
	a.st.ModelRequests += reqs
	a.st.ToolCalls += calls
	if calls > 0 {
		a.st.SessionsWithToolCalls++
	}
	if usage {
		a.st.SessionsWithUsage++
	}
	if timings {
		a.st.SessionsWithTimings++
	}
	a.perCalls = append(a.perCalls, calls)
	a.perTurns = append(a.perTurns, turns)
	a.perReqs = append(a.perReqs, reqs)
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
	slices.SortFunc(out, func(a, b ToolCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Server, b.Server), cmp.Compare(a.Tool, b.Tool))
	})
	return out
}
