package sim

import (
	"encoding/json"
	"slices"
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
	// SyntheticTimes says the session's times are placeholders (its
	// session_start meta timing=synthetic: the source recorded none).
	SyntheticTimes   bool
	RecordedStrategy string // session_start's: fidelity leaves it out when traces.RecordedDeferred

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
	ID               string
	Tool, Server     string
	Args             json.RawMessage // raw, decoded only when validated
	ArgsUnrecorded   bool            // args not recorded (Args empty): not validated
	ResultUnrecorded bool            // result not recorded (none of Result, ResultBytes, ResultTokens): counted
	Status           string
	DurationMs       float64 // -1 when not recorded
	Result           string
	ResultBytes      int64
	ResultTokens     int64
	// ArgTokens and NameTokens are filled by Engine.prepare.
	ArgTokens  int64
	NameTokens int64
}

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
// It also holds the state of an extraction in progress, which takes the
// session's events one at a time (begin, add, finish), so that a need can
// be built as a trace is read (NeedBuilder) as well as from a whole
// session (extractInto).
type needBuffers struct {
	need   Need
	steps  []Step // the reused need's step memory
	arena  []Call // the reused need's call memory (every step's Calls)
	byReq  map[string]int
	ncalls []int32 // calls per step, by step index
	// Tool calls in event order, with their step, until finish places them.
	pcalls []Call
	pstep  []int32
	reused bool // steps, arena and the maps belong to need and are reused
	// How much of steps and arena the last extraction wrote.
	stepsUsed, callsUsed int

	// The extraction in progress.
	explicit  bool            // the session has model_request events
	synthetic bool            // its times are placeholders (meta timing=synthetic)
	cur       int             // index of the open model step
	lastEnd   time.Time       // recorded end of the latest event
	haveTimes bool            // every event so far had a usable time
	pending   string          // a recorded query whose results are not known
	searched  map[string]bool // requests that made a search or rejected call
	// blocked: the steps are in blocks, not need.Steps (a NeedBuilder's).
	blocked bool
	blocks  [][]Step
	nsteps  int    // steps in blocks
	spare   []Step // memory for the first block (a recycled builder's, needmem.go)
	// names reads the session's server references as series keys.
	names variantNames
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
	if cap(b.pcalls) > maxReusedCalls {
		b.pcalls, b.pstep = nil, nil
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
	// Importers of sources without timestamps write a placeholder time and
	// mark the session meta timing=synthetic: such times are not used.
	synthetic := false
	if st := s.Start(); st != nil && st.Meta()["timing"] == "synthetic" {
		synthetic = true
	}
	b.begin(n, s.ID, explicit, synthetic)
	for i := range s.Events {
		line := 0
		if i < len(s.Lines) {
			line = s.Lines[i]
		}
		b.add(n, &s.Events[i], line)
	}
	b.finish(n)
}

// begin starts the extraction of session id into n. explicit says whether
// the session has model_request events (which decides how assistant text
// outside a request is read), synthetic whether its times are placeholders.
func (b *needBuffers) begin(n *Need, id string, explicit, synthetic bool) {
	n.SessionID, n.SyntheticTimes = id, synthetic
	if n.QueryFor == nil {
		n.QueryFor = map[string]string{}
	}
	n.Steps = b.steps[:0]
	b.ncalls = b.ncalls[:0]
	b.pcalls, b.pstep = b.pcalls[:0], b.pstep[:0]
	if b.byReq == nil || len(b.byReq) > maxReusedKeys {
		b.byReq = map[string]int{} // request id -> step index
	}
	clear(b.byReq)
	if len(b.searched) > maxReusedKeys {
		b.searched = nil
	}
	clear(b.searched)
	b.explicit, b.synthetic = explicit, synthetic
	b.cur, b.lastEnd, b.haveTimes, b.pending = -1, time.Time{}, true, ""
	b.names.reset()
}

// addStep appends a step to n and returns its index.
func (b *needBuffers) addStep(n *Need, st Step) int {
	b.ncalls = append(b.ncalls, 0)
	if b.blocked {
		return b.addBlockStep(st)
	}
	n.Steps = append(n.Steps, st)
	return len(n.Steps) - 1
}

// step returns step i of the need being extracted.
func (b *needBuffers) step(n *Need, i int) *Step {
	if b.blocked {
		return &b.blocks[i/stepBlock][i%stepBlock]
	}
	return &n.Steps[i]
}

// openImplicit opens a model step for output outside any request.
func (b *needBuffers) openImplicit(n *Need, ev *traces.Event, line int) int {
	return b.addStep(n, Step{Kind: StepModel, Line: line, T: ev.T, TTFTMs: -1, DurationMs: -1})
}

// add takes the session's next event, read from the given line (0 if
// unknown). The need keeps ev's strings and arguments, not ev itself.
func (b *needBuffers) add(n *Need, ev *traces.Event, line int) {
	if ev.T.IsZero() || b.synthetic {
		b.haveTimes = false
	}
	ev = b.names.read(ev)
	switch ev.Type {
	case traces.SessionStart:
		n.Model = ev.Model()
		n.Start = ev.T
		n.SystemText = ev.SystemPrompt()
		n.SystemTokens = ev.SystemPromptTokens()
		n.Servers, n.RecordedStrategy = ev.Servers(), ev.RecordedStrategy()
	case traces.UserMessage:
		pause := -1.0
		if b.haveTimes && !b.lastEnd.IsZero() && !ev.T.IsZero() {
			pause = max(0, float64(ev.T.Sub(b.lastEnd))/float64(time.Millisecond))
		}
		b.addStep(n, Step{Kind: StepUser, PauseMs: pause, Text: ev.Text, TextTokens: ev.TextTokens, Line: line, T: ev.T})
		b.cur = -1
		b.pending = ""
	case traces.ModelRequest:
		st := Step{Kind: StepModel, RequestID: ev.ID, Usage: ev.Usage, TTFTMs: -1, DurationMs: -1, Line: line, T: ev.T}
		if ev.TTFTMs > 0 {
			st.TTFTMs = float64(ev.TTFTMs)
		}
		if ev.DurationMs > 0 {
			st.DurationMs = float64(ev.DurationMs)
		}
		b.cur = b.addStep(n, st)
		if ev.ID != "" {
			b.byReq[ev.ID] = b.cur
		}
	case traces.AssistantMessage:
		idx := stepFor(ev.Request, b.byReq, b.cur)
		if idx < 0 && b.explicit {
			b.addStep(n, Step{Kind: StepCanned, Text: ev.Text, TextTokens: ev.TextTokens, Line: line, T: ev.T})
			break
		}
		if idx < 0 || (!b.explicit && b.ncalls[idx] > 0) {
			idx = b.openImplicit(n, ev, line)
			b.cur = idx
		}
		st := b.step(n, idx)
		if st.Text != "" && ev.Text != "" {
			st.Text += "\n"
		}
		st.Text += ev.Text
		st.TextTokens += ev.TextTokens
	case traces.ToolSearch:
		n.Removed++
		b.searchedBy(ev.Request)
		b.pending = ""
		if ev.Query() != "" {
			n.Queries = append(n.Queries, ev.Query())
			for _, name := range ev.Returned() {
				if _, ok := n.QueryFor[name]; !ok {
					n.QueryFor[name] = ev.Query()
				}
			}
			if len(ev.Returned()) == 0 {
				b.pending = ev.Query()
			}
		}
	case traces.ToolCall:
		if isSearchTool(ev.Tool) {
			n.Removed++
			b.searchedBy(ev.Request)
			b.pending = searchQueryFromArgs(ev.Args)
			if b.pending != "" {
				n.Queries = append(n.Queries, b.pending)
			}
			break
		}
		if ev.Status == traces.StatusRejected {
			n.Removed++
			b.searchedBy(ev.Request)
			break
		}
		if _, ok := n.QueryFor[ev.Tool]; !ok && b.pending != "" {
			n.QueryFor[ev.Tool] = b.pending
		}
		idx := stepFor(ev.Request, b.byReq, b.cur)
		if idx < 0 {
			idx = b.openImplicit(n, ev, line)
			b.cur = idx
		}
		b.ncalls[idx]++
		dur := -1.0
		if ev.DurationMs > 0 {
			dur = float64(ev.DurationMs)
		}
		b.pcalls = append(b.pcalls, Call{ID: ev.CallID, Tool: ev.Tool, Server: ev.Server,
			Args: ev.Args, ArgsUnrecorded: ev.ArgsUnrecorded() && len(ev.Args) == 0, Status: ev.Status, DurationMs: dur, Result: ev.Result,
			ResultBytes: ev.ResultBytes, ResultTokens: ev.ResultTokens, ResultUnrecorded: ev.ResultUnrecorded() && ev.Result == "" && ev.ResultBytes == 0 && ev.ResultTokens == 0})
		b.pstep = append(b.pstep, int32(idx))
	case traces.CatalogChange:
		b.addStep(n, Step{Kind: StepCatalogChange, Server: ev.Server, Version: ev.Version(), Line: line, T: ev.T})
	}
	if !ev.T.IsZero() {
		end := ev.T.Add(time.Duration(ev.DurationMs) * time.Millisecond)
		if end.After(b.lastEnd) {
			b.lastEnd = end
		}
	}
}

// searchedBy notes that request req (when named) made a search call or a
// call rejected as not loaded.
func (b *needBuffers) searchedBy(req string) {
	if req == "" {
		return
	}
	if b.searched == nil {
		b.searched = map[string]bool{}
	}
	b.searched[req] = true
}

// finish completes the need once every event was added.
func (b *needBuffers) finish(n *Need) {
	b.placeCalls(n)
	if b.blocked {
		b.dropSearchSteps(n)
		return
	}
	b.stepsUsed, b.callsUsed = len(n.Steps), len(b.pstep)
	if len(n.Steps) == 0 {
		n.Steps = nil // as without the preallocation
	}
	// Drop model steps that produced nothing but removed artefacts: the
	// recording runtime's own search round trips.
	out := n.Steps[:0]
	for _, st := range n.Steps {
		if b.onlySearched(&st) {
			n.Removed++
			continue
		}
		out = append(out, st)
	}
	n.Steps = out
}

// onlySearched reports whether st is a model step that produced nothing
// but removed artefacts: the recording runtime's own search round trip.
func (b *needBuffers) onlySearched(st *Step) bool {
	return st.Kind == StepModel && len(st.Calls) == 0 && st.Text == "" && st.TextTokens == 0 && st.RequestID != "" && b.searched[st.RequestID]
}

// placeCalls gives every step its tool calls, in event order, cut from one
// array (a step's calls may be interleaved with other steps' in the trace).
func (b *needBuffers) placeCalls(n *Need) {
	k := len(b.pcalls)
	if k == 0 {
		return
	}
	if slices.IsSorted(b.pstep) {
		// Each step's calls are together already: the pending calls are
		// the arena (and the previous arena the next pending buffer).
		arena := b.pcalls[:k:k]
		b.pcalls, b.arena = b.arena[:0], b.pcalls
		b.cut(n, arena)
		return
	}
	arena := b.arena[:0]
	if cap(arena) < k {
		arena = make([]Call, 0, k)
	}
	if b.reused {
		b.arena = arena
	}
	b.cut(n, arena)
	for i := range b.pcalls {
		st := b.step(n, int(b.pstep[i]))
		st.Calls = append(st.Calls, b.pcalls[i])
	}
	clear(b.pcalls) // keep no strings twice
}

// cut gives each step with calls its part of arena: filled already when
// arena has every call, else empty with room for them.
func (b *needBuffers) cut(n *Need, arena []Call) {
	full := len(arena) > 0
	start := 0
	for i, k := range b.ncalls {
		if k > 0 {
			end := start + int(k)
			if full {
				b.step(n, i).Calls = arena[start:end:end]
			} else {
				b.step(n, i).Calls = arena[start:start:end]
			}
			start = end
		}
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
