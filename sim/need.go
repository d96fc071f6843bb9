package sim

import (
	"encoding/json"
	"time"

	"github.com/defersim/defersim/traces"
)

// StepKind says what one step of a session's need is.
type StepKind uint8

// Kinds of need steps.
const (
	StepUser StepKind = iota + 1
	StepModel
	StepCatalogChange
	StepCanned // assistant text not produced by a model request (a canned greeting)
)

// Need is what a recorded session required, independent of any deferral
// rule: its user turns, model steps with their tool calls, and catalog
// changes, with the recording runtime's own deferral artefacts removed.
type Need struct {
	SessionID    string
	Model        string
	Start        time.Time
	SystemText   string
	SystemTokens int64 // when the trace gives only a size
	Servers      []traces.ServerRef
	Steps        []Step
	// Removed counts recorded steps dropped as the recording runtime's own
	// deferral (tool_search calls, calls rejected as not loaded, requests
	// that only searched).
	Removed int
	// Queries are recorded tool_search queries, in order; QueryFor maps a
	// tool name to the recorded query that found it: the search that
	// returned it or, for a search whose results were not recorded (a
	// search tool's call), the tools the session called next, until the
	// next search or user message.
	Queries  []string
	QueryFor map[string]string

	prepared bool // token counts filled by Engine.prepare
	// queryTokens memoises the tokens of search calls: every strategy of a
	// session searches with the same few queries.
	queryTokens map[string]int64
}

// Step is one element of a need.
type Step struct {
	Kind StepKind
	// Pause is the recorded idle time before a user step (ms), or -1 when
	// the trace has no timestamps for it.
	PauseMs float64
	// Text and TextTokens: user or assistant text (or only its size).
	Text       string
	TextTokens int64
	// Model step fields.
	RequestID  string
	Usage      *traces.Usage
	TTFTMs     float64
	DurationMs float64
	Calls      []Call
	// Repeat: the step's tool calls are exactly the previous model step's
	// (set by Engine.prepare; see RequestKind).
	Repeat bool
	// Catalog change.
	Server, Version string
	// Line is the source line of the event that started the step (0 if unknown).
	Line int
	// T is the recorded time of the event that started the step (zero if unknown).
	T time.Time
}

// Call is one tool call of a model step.
type Call struct {
	ID           string
	Tool, Server string
	Args         json.RawMessage // raw, decoded only when validated
	Status       string
	DurationMs   float64 // -1 when not recorded
	Result       string
	ResultBytes  int64
	ResultTokens int64
	// ArgTokens and NameTokens are filled by Engine.prepare.
	ArgTokens  int64
	NameTokens int64
}

// searchToolNames are the names recording runtimes give their search tool.
var searchToolNames = map[string]bool{"tool_search": true, "ToolSearch": true, "search_tools": true, "tool_search_tool_regex": true, "tool_search_tool_bm25": true}

// isSearchTool reports whether name is a runtime's tool-search tool.
func isSearchTool(name string) bool { return searchToolNames[name] }

// ExtractNeed turns a recorded session into its need. Model steps are
// delimited by model_request events; a trace without any model_request
// event gets one implicit step per run of assistant output (a new step
// starts after a user message, or when text follows tool calls).
func ExtractNeed(s *traces.Session) *Need {
	var b needBuffers
	n := &Need{}
	b.extractInto(n, s)
	return n
}

// needBuffers is ExtractNeed's working memory. A worker keeps one and
// extracts every session it replays into the same Need (extract), so the
// steps, calls and maps of a session reuse the previous session's memory.
type needBuffers struct {
	need    Need
	steps   []Step // the reused need's step memory
	arena   []Call // the reused need's call memory (every step's Calls)
	byReq   map[string]int
	ncalls  []int32       // calls per step, by step index
	pending []pendingCall // tool calls in event order, with their step
	reused  bool          // steps, arena and the maps belong to need and are reused
	// How much of steps and arena the last extraction wrote.
	stepsUsed, callsUsed int
}

// pendingCall is a tool call event waiting to be placed in its step.
type pendingCall struct {
	ev, step int32
}

// Reuse bounds: a very long session must not pin its memory for the rest
// of the run (reuse is about the many ordinary sessions).
const (
	maxReusedSteps = 1024
	maxReusedCalls = 1024
	maxReusedKeys  = 1024 // map entries
)

// extract returns the need of s in b's reused Need. The need is valid
// until the next call: the caller must let go of it (and of everything
// it holds: steps, calls, maps) before extracting the next session.
func (b *needBuffers) extract(s *traces.Session) *Need {
	n := &b.need
	b.reused = true
	// Let the previous session's strings go: clear what it wrote (its
	// steps before dropping any, or after applyUpgrades inserted some).
	clear(b.steps[:min(cap(b.steps), max(b.stepsUsed, len(n.Steps)))])
	clear(b.arena[:b.callsUsed])
	if cap(b.steps) > maxReusedSteps {
		b.steps = nil
	}
	if cap(b.arena) > maxReusedCalls {
		b.arena = nil
	}
	qf, qt, queries := n.QueryFor, n.queryTokens, n.Queries
	if len(qf) > maxReusedKeys {
		qf = nil
	}
	if len(qt) > maxReusedKeys {
		qt = nil
	}
	clear(qf)
	clear(qt)
	clear(queries)
	*n = Need{queryTokens: qt, Queries: queries[:0], QueryFor: qf}
	b.extractInto(n, s)
	return n
}

// extractInto fills n, a zero Need apart from reused memory, with the need
// of s.
func (b *needBuffers) extractInto(n *Need, s *traces.Session) {
	n.SessionID = s.ID
	if n.QueryFor == nil {
		n.QueryFor = map[string]string{}
	}
	explicit := false
	steps, calls := 0, 0 // events that may open a step; tool calls
	for i := range s.Events {
		switch s.Events[i].Type {
		case traces.ModelRequest:
			explicit = true
			steps++
		case traces.UserMessage, traces.AssistantMessage, traces.CatalogChange:
			steps++
		case traces.ToolCall:
			calls++
		}
	}
	if !explicit {
		steps += calls // each may open an implicit step
	}
	if cap(b.steps) < steps {
		b.steps = make([]Step, 0, steps)
	}
	n.Steps = b.steps[:0]
	b.ncalls = b.ncalls[:0]
	b.pending = b.pending[:0]
	addStep := func(st Step) int {
		n.Steps = append(n.Steps, st)
		b.ncalls = append(b.ncalls, 0)
		return len(n.Steps) - 1
	}
	// Importers of sources without timestamps write a placeholder time and
	// mark the session meta timing=synthetic: such times are not used.
	synthetic := false
	if st := s.Start(); st != nil && st.Meta["timing"] == "synthetic" {
		synthetic = true
	}
	if b.byReq == nil || len(b.byReq) > maxReusedKeys {
		b.byReq = map[string]int{} // request id -> step index
	}
	byReq := b.byReq
	clear(byReq)
	cur := -1             // index of the open model step
	pending := ""         // a recorded query whose results are not known
	var lastEnd time.Time // recorded end of the latest event
	haveTimes := true
	line := func(i int) int {
		if i < len(s.Lines) {
			return s.Lines[i]
		}
		return 0
	}
	openImplicit := func(i int) int {
		return addStep(Step{Kind: StepModel, Line: line(i), T: s.Events[i].T, TTFTMs: -1, DurationMs: -1})
	}
	for i := range s.Events {
		ev := &s.Events[i]
		if ev.T.IsZero() || synthetic {
			haveTimes = false
		}
		switch ev.Type {
		case traces.SessionStart:
			n.Model = ev.Model
			n.Start = ev.T
			n.SystemText = ev.SystemPrompt
			n.SystemTokens = ev.SystemPromptTokens
			n.Servers = ev.Servers
		case traces.UserMessage:
			pause := -1.0
			if haveTimes && !lastEnd.IsZero() && !ev.T.IsZero() {
				pause = max(0, float64(ev.T.Sub(lastEnd))/float64(time.Millisecond))
			}
			addStep(Step{Kind: StepUser, PauseMs: pause, Text: ev.Text, TextTokens: ev.TextTokens, Line: line(i), T: ev.T})
			cur = -1
			pending = ""
		case traces.ModelRequest:
			st := Step{Kind: StepModel, RequestID: ev.ID, Usage: ev.Usage, TTFTMs: -1, DurationMs: -1, Line: line(i), T: ev.T}
			if ev.TTFTMs > 0 {
				st.TTFTMs = float64(ev.TTFTMs)
			}
			if ev.DurationMs > 0 {
				st.DurationMs = float64(ev.DurationMs)
			}
			cur = addStep(st)
			if ev.ID != "" {
				byReq[ev.ID] = cur
			}
		case traces.AssistantMessage:
			idx := stepFor(ev.Request, byReq, cur)
			if idx < 0 && explicit {
				addStep(Step{Kind: StepCanned, Text: ev.Text, TextTokens: ev.TextTokens, Line: line(i), T: ev.T})
				break
			}
			if idx < 0 || (!explicit && b.ncalls[idx] > 0) {
				idx = openImplicit(i)
				cur = idx
			}
			st := &n.Steps[idx]
			if st.Text != "" && ev.Text != "" {
				st.Text += "\n"
			}
			st.Text += ev.Text
			st.TextTokens += ev.TextTokens
		case traces.ToolSearch:
			n.Removed++
			pending = ""
			if ev.Query != "" {
				n.Queries = append(n.Queries, ev.Query)
				for _, name := range ev.Returned {
					if _, ok := n.QueryFor[name]; !ok {
						n.QueryFor[name] = ev.Query
					}
				}
				if len(ev.Returned) == 0 {
					pending = ev.Query
				}
			}
		case traces.ToolCall:
			if isSearchTool(ev.Tool) {
				n.Removed++
				pending = searchQueryFromArgs(ev.Args)
				if pending != "" {
					n.Queries = append(n.Queries, pending)
				}
				break
			}
			if ev.Status == traces.StatusRejected {
				n.Removed++
				break
			}
			if _, ok := n.QueryFor[ev.Tool]; !ok && pending != "" {
				n.QueryFor[ev.Tool] = pending
			}
			idx := stepFor(ev.Request, byReq, cur)
			if idx < 0 {
				idx = openImplicit(i)
				cur = idx
			}
			b.ncalls[idx]++
			b.pending = append(b.pending, pendingCall{ev: int32(i), step: int32(idx)})
		case traces.CatalogChange:
			addStep(Step{Kind: StepCatalogChange, Server: ev.Server, Version: ev.Version, Line: line(i), T: ev.T})
		}
		if !ev.T.IsZero() {
			end := ev.T.Add(time.Duration(ev.DurationMs) * time.Millisecond)
			if end.After(lastEnd) {
				lastEnd = end
			}
		}
	}
	b.placeCalls(n, s)
	b.stepsUsed, b.callsUsed = len(n.Steps), len(b.pending)
	if len(n.Steps) == 0 {
		n.Steps = nil // as without the preallocation
	}
	// Drop model steps that produced nothing but removed artefacts: the
	// recording runtime's own search round trips.
	out := n.Steps[:0]
	for _, st := range n.Steps {
		if st.Kind == StepModel && len(st.Calls) == 0 && st.Text == "" && st.TextTokens == 0 && producedOnlySearch(s, st.RequestID) {
			n.Removed++
			continue
		}
		out = append(out, st)
	}
	n.Steps = out
}

// placeCalls gives every step its tool calls, in event order, cut from one
// array (a step's calls may be interleaved with other steps' in the trace).
func (b *needBuffers) placeCalls(n *Need, s *traces.Session) {
	if len(b.pending) == 0 {
		return
	}
	arena := b.arena[:0]
	if cap(arena) < len(b.pending) {
		arena = make([]Call, 0, len(b.pending))
	}
	if b.reused {
		b.arena = arena
	}
	start := 0
	for i, k := range b.ncalls {
		if k > 0 {
			end := start + int(k)
			n.Steps[i].Calls = arena[start:start:end]
			start = end
		}
	}
	for _, p := range b.pending {
		ev := &s.Events[p.ev]
		dur := -1.0
		if ev.DurationMs > 0 {
			dur = float64(ev.DurationMs)
		}
		st := &n.Steps[p.step]
		st.Calls = append(st.Calls, Call{ID: ev.CallID, Tool: ev.Tool, Server: ev.Server,
			Args: ev.Args, Status: ev.Status, DurationMs: dur, Result: ev.Result,
			ResultBytes: ev.ResultBytes, ResultTokens: ev.ResultTokens})
	}
}

func stepFor(req string, byReq map[string]int, cur int) int {
	if req != "" {
		if idx, ok := byReq[req]; ok {
			return idx
		}
	}
	return cur
}

// producedOnlySearch reports whether the request id produced a search call
// (so an empty step left after removing it was the recorder's round trip).
func producedOnlySearch(s *traces.Session, req string) bool {
	if req == "" {
		return false
	}
	for i := range s.Events {
		ev := &s.Events[i]
		if ev.Request != req {
			continue
		}
		if ev.Type == traces.ToolSearch || (ev.Type == traces.ToolCall && (isSearchTool(ev.Tool) || ev.Status == traces.StatusRejected)) {
			return true
		}
	}
	return false
}

// searchQueryFromArgs is the query of a search tool's call: the first of
// its query, pattern, regex and q arguments that is a non-empty string
// (the fields the importers read for gateway searches).
func searchQueryFromArgs(args json.RawMessage) string {
	var a struct {
		Query   any `json:"query"`
		Pattern any `json:"pattern"`
		Regex   any `json:"regex"`
		Q       any `json:"q"`
	}
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	for _, v := range []any{a.Query, a.Pattern, a.Regex, a.Q} {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
	}
	return ""
}
