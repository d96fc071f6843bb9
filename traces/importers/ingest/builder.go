package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/defersim/defersim/traces"
)

// Builder assembles the events of one session in order, numbers model
// requests, and pairs tool results with the calls they answer.
type Builder struct {
	s       *Session
	nreq    int
	reqIDs  map[string]bool
	pending map[string][]int // call id → indices of calls still awaiting a result
	lastT   time.Time
	clamped int
	ncall   int
	callIDs map[string]bool
	genIDs  int
	gw      *Gateway
	gwStats gatewayStats

	failedSearches int
	failedBy       map[string]int // failed results by what marked them
}

// NewBuilder starts a session with the given id, domain and default server.
func NewBuilder(id, domain, defaultServer string) *Builder {
	return &Builder{
		s: &Session{
			Session:       traces.Session{ID: id},
			Domain:        domain,
			DefaultServer: defaultServer,
		},
		reqIDs:  map[string]bool{},
		pending: map[string][]int{},
		callIDs: map[string]bool{},
	}
}

// Session returns the session being built.
func (b *Builder) Session() *Session { return b.s }

// Add appends ev and returns its index. It sets the event's Session (and the
// format version on session_start); a time earlier than the previous known
// time is raised to it (counted in the report by End) so times never go
// backwards.
func (b *Builder) Add(ev traces.Event) int {
	ev.Session = b.s.ID
	if ev.Type == traces.SessionStart {
		ev.V = traces.Version
	}
	if !ev.T.IsZero() {
		if ev.T.Before(b.lastT) {
			ev.T = b.lastT
			b.clamped++
		}
		b.lastT = ev.T
	}
	b.s.Events = append(b.s.Events, ev)
	return len(b.s.Events) - 1
}

// LastTime returns the latest known event time (zero when none).
func (b *Builder) LastTime() time.Time { return b.lastT }

// At returns the event at index i. The pointer is valid until the next Add.
func (b *Builder) At(i int) *traces.Event { return &b.s.Events[i] }

// Request adds a model_request event. id is the source's request id; when it
// is empty or already used, the request is numbered r1, r2, … instead. It
// returns the index of the event.
func (b *Builder) Request(id string, t time.Time, durationMs int64, usage *traces.Usage) int {
	b.nreq++
	if id == "" || b.reqIDs[id] {
		id = fmt.Sprintf("r%d", b.nreq)
		for b.reqIDs[id] {
			id += "'"
		}
	}
	b.reqIDs[id] = true
	return b.Add(traces.Event{Type: traces.ModelRequest, T: t, ID: id, DurationMs: durationMs, Usage: usage})
}

// Call adds a tool_call event and registers it as awaiting a result under
// its CallID. A call without an id gets c1, c2, … (results of id-less calls
// still pair with them, first come first served). It returns the index of
// the event.
func (b *Builder) Call(ev traces.Event) int {
	return b.call(ev, true)
}

// DoneCall adds a tool_call event whose result the caller sets at once (it
// is not registered as awaiting one). It returns the index of the event.
func (b *Builder) DoneCall(ev traces.Event) int {
	return b.call(ev, false)
}

func (b *Builder) call(ev traces.Event, await bool) int {
	ev.Type = traces.ToolCall
	unattributed := ev.Server == ""
	if unattributed {
		ev.Server = b.s.DefaultServer
	}
	src := ev.CallID
	b.ncall++
	if ev.CallID == "" {
		b.genIDs++
		ev.CallID = fmt.Sprintf("c%d", b.ncall)
		for b.callIDs[ev.CallID] {
			ev.CallID += "'"
		}
	}
	b.callIDs[ev.CallID] = true
	i := b.Add(ev)
	if unattributed {
		b.s.Unattributed = append(b.s.Unattributed, i)
	}
	if await {
		b.pending[src] = append(b.pending[src], i)
	}
	return i
}

// Search adds a tool_search event and registers it as awaiting a result
// (its Returned names) under callID.
func (b *Builder) Search(callID string, ev traces.Event) int {
	ev.Type = traces.ToolSearch
	i := b.Add(ev)
	b.pending[callID] = append(b.pending[callID], i)
	return i
}

// SetSearchText keeps the result text of the tool_search event i, from
// which the pipeline reads the returned tools (see ReturnedTools), unless
// the event lists them already.
func (b *Builder) SetSearchText(i int, text string) {
	if len(b.s.Events[i].Returned()) > 0 || strings.TrimSpace(text) == "" {
		return
	}
	if b.s.SearchText == nil {
		b.s.SearchText = map[int]string{}
	}
	b.s.SearchText[i] = text
}

// Answer returns the index of the earliest event still awaiting the result
// of callID and marks it answered, or -1 when there is none.
func (b *Builder) Answer(callID string) int {
	q := b.pending[callID]
	if len(q) == 0 {
		return -1
	}
	i := q[0]
	if len(q) == 1 {
		delete(b.pending, callID)
	} else {
		b.pending[callID] = q[1:]
	}
	return i
}

// Settle marks the call at index i answered when it still awaits a result
// (its result comes from elsewhere in the source), and reports whether it
// did.
func (b *Builder) Settle(i int) bool {
	for id, q := range b.pending {
		for k, j := range q {
			if j != i {
				continue
			}
			q = append(q[:k:k], q[k+1:]...)
			if len(q) == 0 {
				delete(b.pending, id)
			} else {
				b.pending[id] = q
			}
			return true
		}
	}
	return false
}

// Len returns the number of events so far.
func (b *Builder) Len() int { return len(b.s.Events) }

// MoveStart sets the time of event i to t when that keeps times in order
// (t not before the event's own time and not after any later known time),
// and reports whether it did.
func (b *Builder) MoveStart(i int, t time.Time) bool {
	ev := &b.s.Events[i]
	if t.IsZero() || t.Before(ev.T) {
		return false
	}
	for j := i + 1; j < len(b.s.Events); j++ {
		if u := b.s.Events[j].T; !u.IsZero() && u.Before(t) {
			return false
		}
	}
	ev.T = t
	if t.After(b.lastT) {
		b.lastT = t
	}
	return true
}

// Unanswered returns how many calls never got a result.
func (b *Builder) Unanswered() int {
	n := 0
	for _, q := range b.pending {
		n += len(q)
	}
	return n
}

// SetResult records a tool result on a tool_call event: its text, size and
// status (error when isError, else ok).
func SetResult(ev *traces.Event, text string, isError bool) {
	ev.Result = text
	ev.ResultBytes = int64(len(text))
	if isError {
		ev.Status = traces.StatusError
		ev.Error = text
	} else {
		ev.Status = traces.StatusOK
	}
}

// Args returns the raw arguments of a call as trace v1 wants them: a JSON
// object, or a JSON string for anything else. A string holding a JSON object
// is unwrapped (OpenAI sends arguments as a JSON-encoded string); ok is
// false when the arguments were not an object, or were an object with a
// key twice in one of its objects, which a trace line may not hold (they
// are then kept as a string holding their text).
func Args(raw json.RawMessage) (args json.RawMessage, ok bool) {
	if IsNull(raw) {
		return nil, true
	}
	if !utf8.Valid(raw) {
		// Invalid bytes can only sit inside string literals of otherwise
		// valid JSON: replacing them keeps the JSON valid and the trace
		// UTF-8, as the format requires.
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return json.RawMessage("{}"), true
		}
		if FirstByte([]byte(s)) == '{' && json.Valid([]byte(s)) && !traces.HasDuplicateKey([]byte(s)) {
			return Compact(json.RawMessage(s)), true
		}
		return Compact(raw), false
	}
	if FirstByte(raw) == '{' && !traces.HasDuplicateKey(raw) {
		return Compact(raw), true
	}
	b, _ := json.Marshal(string(Compact(raw)))
	return json.RawMessage(b), false
}

// Timing values of session_start meta "timing".
const (
	TimingRecorded  = traces.TimingRecorded  // every event time comes from the source
	TimingPartial   = traces.TimingPartial   // some events had none and carry the previous event's time
	TimingSynthetic = traces.TimingSynthetic // the source records no times; see SyntheticTime
)

// SyntheticTime is the time given to every event of a session whose source
// records no times (trace v1 requires one): the Unix epoch.
func SyntheticTime() time.Time { return time.Unix(0, 0).UTC() }

// End closes the session with a session_end event at t (zero: the last known
// time) and returns it. Events without a time get the previous event's time
// (session_start the first known time); when no event has one, every event
// gets SyntheticTime. The session_start meta "timing" says which happened.
// Calls that never got a result and generated call ids are counted in rep.
func (b *Builder) End(t time.Time, rep *Report) *Session {
	if b.clamped > 0 {
		rep.UnmapN("timestamp earlier than the previous event (raised to it)", b.clamped)
	}
	if n := b.Unanswered(); n > 0 {
		rep.UnmapN("tool call without a result (status left empty)", n)
	}
	if b.genIDs > 0 {
		rep.UnmapN("tool call without a call id (ids c1, c2, … generated)", b.genIDs)
	}
	b.gwStats.report(rep)
	rep.UnmapN("failed tool search (trace v1 has no search status)", b.failedSearches)
	for k, n := range b.failedBy {
		rep.ErrorResults[k] += n
	}
	b.Add(traces.Event{Type: traces.SessionEnd, T: t})
	evs := b.s.Events
	timing := TimingRecorded
	first := time.Time{}
	for i := range evs {
		if !evs[i].T.IsZero() {
			first = evs[i].T
			break
		}
	}
	if first.IsZero() {
		timing, first = TimingSynthetic, SyntheticTime()
		rep.Note("sessions whose source records no times get t = %s on every event (session_start meta timing=synthetic)", first.Format(time.RFC3339))
	}
	prev := first
	filled := 0
	for i := range evs {
		if evs[i].T.IsZero() {
			evs[i].T = prev
			switch evs[i].Type {
			case traces.SessionStart, traces.SessionEnd, traces.DeferralChange, traces.CatalogChange:
				// state, not activity: taking the neighbour's time loses nothing
			default:
				filled++
			}
		}
		prev = evs[i].T
	}
	if timing == TimingRecorded && filled > 0 {
		timing = TimingPartial
		rep.UnmapN("event without a recorded time (given the previous event's time)", filled)
	}
	if evs[0].Meta() == nil {
		evs[0].EnsureStart().Meta = map[string]string{}
	}
	evs[0].Meta()["timing"] = timing
	return b.s
}
