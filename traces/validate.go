package traces

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/defersim/defersim/internal/nouns"
)

// ToolIndex says whether some catalog knows a tool; server "" means any
// server. *catalog.Catalog satisfies it.
type ToolIndex interface {
	HasTool(server, tool string) bool
}

// CallResolver resolves the events of sessions as a run resolves them
// (sim.CallResolver): each against the server versions its session holds
// at that event.
type CallResolver interface {
	// Session starts resolving a session at its session_start.
	Session() SessionResolver
}

// SessionResolver resolves one session's events, given in order.
type SessionResolver interface {
	// Event takes the session's next event, read at line, and appends to
	// out what of it does not resolve against the server versions the
	// session holds there: a tool_call's tool, a tool_search's returned
	// names, the server version a session_start or catalog_change names.
	Event(ev *Event, line int, out []Unresolved) []Unresolved
}

// CallHinter, when a ValidateOptions.Resolver implements it, says why a
// tool_call of a session that does not begin with a session_start, which
// Tools checks against every version, names a tool no catalog knows: in
// the words, and with the hint of the name most likely meant, that the
// calls of the sessions it resolves get (sim.CallResolver).
type CallHinter interface {
	UnknownCall(server, tool string) string
}

// SearchHinter, when a ValidateOptions.Resolver implements it, says why a
// name a tool_search returned in a session that does not begin with a
// session_start is a tool no catalog knows, with the hint of the name most
// likely meant, as for the sessions it resolves (sim.CallResolver).
type SearchHinter interface {
	UnknownSearchResult(name string) string
}

// Unresolved is a name of an event that does not resolve (SessionResolver):
// its kind, and why (without the session).
type Unresolved struct {
	Kind   Kind
	Reason string
}

// ValidateOptions tune Validate. The zero value checks everything but tool
// names.
type ValidateOptions struct {
	// Tools, when set, makes a tool_call for a tool it does not know, and a
	// tool_search returning a tool no server of it serves, a problem. It
	// checks against every version; Resolver replaces it.
	Tools ToolIndex
	// Resolver, when set, checks the sessions that begin with a
	// session_start as a run resolves them, against the server versions
	// in force at each event: every tool_call naming a server (those a
	// run replays as the run counts them), the names each tool_search
	// returns, and the server versions session_start and catalog_change
	// name. Tools then checks only the sessions that do not begin with a
	// session_start, saying why a call, or a name a tool_search returned,
	// does not resolve in the Resolver's words when it is a CallHinter, or
	// a SearchHinter.
	Resolver CallResolver
	// MaxLineBytes bounds one line (<= 0: DefaultMaxLineBytes).
	MaxLineBytes int
	// Seen, when set, is shared by the validations of a run's files: a
	// session_start for an id that started in an earlier file is a
	// problem of kind KindDuplicateSession, as for a Reader.
	Seen *SessionSet
}

// Problem is one thing wrong with a trace, at a line of a file.
type Problem struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	Kind   Kind   `json:"kind"`
}

// String returns "file:line: reason".
func (p Problem) String() string {
	if p.Line == 0 { // a problem of the whole file (KindNoSession)
		return p.File + ": " + p.Reason
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ": " + p.Reason
}

// Validate checks the trace file at path and returns every problem found,
// ordered by line (problems of one line in the order checked), with the
// counts of what it read. The error is non-nil only when the file cannot be
// opened; a corrupt or truncated gzip stream is a Problem that ends the check.
//
// Unlike a Reader, Validate remembers every session id of the file (to report
// a session id that starts again after its session_end), so its memory grows
// with the number of sessions.
func Validate(path string, opts ValidateOptions) ([]Problem, Counts, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, Counts{}, err
	}
	defer f.Close()
	return ValidateReader(f, path, opts)
}

// ValidateReader is Validate on a stream; name is used in problems.
func ValidateReader(r io.Reader, name string, opts ValidateOptions) ([]Problem, Counts, error) {
	v := &validator{name: name, opts: opts, sessions: make(map[string]*vsession), seenFile: -1}
	if opts.Seen != nil {
		v.seenFile = opts.Seen.addFile(name)
	}
	src, err := newLineSource(r, name, ReadOptions{MaxLineBytes: opts.MaxLineBytes}.maxLine())
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			v.add(le.Line, le.Kind, le.Reason)
			return v.problems, v.counts, nil
		}
		return nil, Counts{}, err
	}
	defer src.close()
	v.run(src)
	v.counts.Bytes = src.bytes
	slices.SortStableFunc(v.problems, func(a, b Problem) int { return cmp.Compare(a.Line, b.Line) })
	return v.problems, v.counts, nil
}

// validator holds the state of one Validate run.
type validator struct {
	name     string
	opts     ValidateOptions
	problems []Problem
	counts   Counts
	sessions map[string]*vsession
	order    []string // session ids in order of first appearance
	ev       Event
	probs    []lineProblem
	unres    []Unresolved // scratch: what the resolver returns per event
	advice   adviceOnce   // the file's advice for a file that is not a trace
	// catalog is the first session_start meta "catalog" of the file, and
	// catalogLine its line.
	catalog     string
	catalogLine int
	// seenFile is the file's index in opts.Seen (-1: no set).
	seenFile int
}

// vsession is what Validate remembers of a session.
type vsession struct {
	first    int // line of its first event
	lastT    time.Time
	lastLine int
	ended    bool
	endLine  int
	requests map[string]int // model_request id -> line; dropped at session_end
	user     bool           // a user event was read
	// calls resolves the session's calls (ValidateOptions.Resolver; nil
	// without one, or when the session did not begin with session_start).
	calls SessionResolver
}

func (v *validator) add(line int, kind Kind, reason string) {
	v.problems = append(v.problems, Problem{File: v.name, Line: line, Reason: reason, Kind: kind})
}

func (v *validator) run(src *lineSource) {
	for {
		line, tooLong, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var le *LineError
			if errors.As(err, &le) {
				v.add(le.Line, le.Kind, le.Reason)
			} else {
				v.add(src.line+1, KindIO, err.Error())
			}
			return // the rest of the stream is unreadable; skip the EOF checks
		}
		v.counts.Lines++
		n := src.line
		if tooLong {
			v.add(n, KindLineTooLong, fmt.Sprintf("line longer than %d bytes", src.max))
			continue
		}
		if isBlank(line) {
			continue
		}
		v.line(n, line)
	}
	for _, id := range v.order {
		if s := v.sessions[id]; !s.ended {
			v.counts.Incomplete++
			v.add(s.first, KindNoSessionEnd, fmt.Sprintf("session %q has no session_end", id))
			v.noUser(id, s)
		}
	}
	if v.counts.Sessions == 0 && len(v.problems) == 0 {
		what := "the file is empty"
		if v.counts.Lines > 0 {
			what = fmt.Sprintf("its %s are blank", nouns.Count(v.counts.Lines, "line"))
		}
		v.add(0, KindNoSession, what+": no session to validate, and a run over it replays nothing; check that the export that wrote it finished")
	}
}

// noUser counts a session that ended (or the file ended) without a user
// message (Counts.NoUser): the replay takes a session to start at its
// first user message, so its first reply would be measured from nothing
// the user sent.
func (v *validator) noUser(id string, s *vsession) {
	if s.user {
		return
	}
	v.counts.NoUser++
	if len(v.counts.FirstNoUser) < MaxSkipRecords {
		v.counts.FirstNoUser = append(v.counts.FirstNoUser, noUserProblem(v.name, s.first, id))
	}
}

// noUserProblem locates session id, without a user event, at line of
// file (Counts.FirstNoUser): Validate's and the Reader's words.
func noUserProblem(file string, line int, id string) Problem {
	return Problem{File: file, Line: line, Kind: KindNoUserMessage, Reason: fmt.Sprintf("session %q has no user message", id)}
}

// line checks one non-blank line.
func (v *validator) line(n int, line []byte) {
	ev := &v.ev
	var decoded bool
	decoded, v.probs = checkLine(line, ev, v.probs[:0])
	for i := range v.probs {
		v.advice.apply(&v.probs[i], n)
		v.add(n, v.probs[i].kind, v.probs[i].reason)
	}
	if len(v.probs) > 0 {
		v.counts.Skipped++
	} else {
		v.counts.Events++
	}
	if !decoded || ev.Session == "" || !isKnownType(ev.Type) {
		return
	}
	v.session(n, ev)
}

// checkLine decodes line into ev and appends every problem the line has on
// its own (the rules of the JSON Schema). decoded reports whether ev holds
// the line's content.
func checkLine(line []byte, ev *Event, probs []lineProblem) (decoded bool, _ []lineProblem) {
	if p := decodeJSON(line, ev, nil); p != nil {
		return false, append(probs, *p)
	}
	probs = checkEventLine(line, ev, probs)
	return true, checkFields(line, probs)
}

// session checks the rules that span the events of one session.
func (v *validator) session(n int, ev *Event) {
	id := ev.Session
	s := v.sessions[id]
	switch {
	case s == nil:
		s = &vsession{first: n}
		v.sessions[id] = s
		v.order = append(v.order, id)
		v.counts.Sessions++
		s.startResolving(ev, v.opts.Resolver)
		if ev.Type != SessionStart {
			v.add(n, KindOrder, fmt.Sprintf("session %q: first event is %s, not session_start", id, ev.Type))
		} else if v.seenFile >= 0 {
			// Not confirmed by reading again: validate goes on past a
			// repeat, and a file given twice would be reread per session.
			if file, line, dup := v.opts.Seen.start(id, v.seenFile, n, false); dup {
				e := v.opts.Seen.repeated(id, v.name, v.seenFile, n, file, line)
				v.add(n, e.Kind, e.Reason)
			}
		}
	case s.ended && ev.Type == SessionStart:
		v.add(n, KindDuplicateSession, fmt.Sprintf(
			"session %q starts again after its session_end at line %d (duplicate session id)", id, s.endLine))
		*s = vsession{first: n}
		v.counts.Sessions++
		s.startResolving(ev, v.opts.Resolver)
	case s.ended:
		v.add(n, KindAfterEnd, fmt.Sprintf("session %q: %s event after its session_end at line %d", id, ev.Type, s.endLine))
		return
	case ev.Type == SessionStart:
		v.add(n, KindOrder, fmt.Sprintf("session %q: session_start is not the first event (session began at line %d)", id, s.first))
	}
	if !ev.T.IsZero() {
		if !s.lastT.IsZero() && ev.T.Before(s.lastT) {
			v.add(n, KindTimeBackwards, timeBackwards(id, ev.T, s.lastT, s.lastLine))
		}
		s.lastT, s.lastLine = ev.T, n
	}
	switch ev.Type {
	case ModelRequest:
		if prev, ok := s.requests[ev.ID]; ok {
			v.add(n, KindDuplicateRequest, fmt.Sprintf("session %q: model_request id %q already used at line %d", id, ev.ID, prev))
		} else if ev.ID != "" {
			if s.requests == nil {
				s.requests = make(map[string]int)
			}
			s.requests[ev.ID] = n
		}
	case UserMessage:
		s.user = true
	case SessionEnd:
		s.ended, s.endLine, s.requests = true, n, nil
		v.noUser(id, s)
	}
	if ev.Request != "" && ev.Type != ModelRequest {
		if _, ok := s.requests[ev.Request]; !ok {
			v.add(n, KindUnknownRequest, fmt.Sprintf("session %q: %s names request %q, which is no earlier model_request",
				id, ev.Type, ev.Request))
		}
	}
	if s.calls != nil {
		v.unres = s.calls.Event(ev, n, v.unres[:0])
		for _, u := range v.unres {
			v.add(n, u.Kind, fmt.Sprintf("session %q: %s", id, u.Reason))
		}
		if ev.Type == SessionEnd {
			s.calls = nil // validate remembers ended sessions: keep them small
		}
	} else if v.opts.Tools != nil {
		v.anyVersion(n, ev)
	}
	if ev.Type == SessionStart {
		v.sameCatalog(n, ev)
	}
}

// anyVersion checks the tools of a session's event against every version
// (ValidateOptions.Tools), for a session no resolver follows.
func (v *validator) anyVersion(n int, ev *Event) {
	id := ev.Session
	if ev.Type == ToolCall && ev.Tool != "" && ev.Server != "" && !v.opts.Tools.HasTool(ev.Server, ev.Tool) {
		reason := fmt.Sprintf("tool_call of tool %q of server %q, which no catalog knows", ev.Tool, ev.Server)
		if h, ok := v.opts.Resolver.(CallHinter); ok {
			reason = h.UnknownCall(ev.Server, ev.Tool)
		}
		v.add(n, KindUnknownTool, fmt.Sprintf("session %q: %s", id, reason))
	}
	if ev.Type == ToolSearch {
		for _, name := range ev.Returned() {
			if name != "" && !v.opts.Tools.HasTool("", name) {
				reason := fmt.Sprintf("tool_search returned tool %q, which no catalog knows", name)
				if h, ok := v.opts.Resolver.(SearchHinter); ok {
					reason = h.UnknownSearchResult(name)
				}
				v.add(n, KindUnknownTool, fmt.Sprintf("session %q: %s", id, reason))
			}
		}
	}
}

// startResolving starts resolving the session's calls at its first event
// ev, when there is a resolver and ev is a session_start.
func (s *vsession) startResolving(ev *Event, r CallResolver) {
	if r != nil && ev.Type == SessionStart {
		s.calls = r.Session()
	}
}

// sameCatalog checks that the sessions of a file that name a catalog
// (session_start meta "catalog") name the same one: commands load one
// catalog per file (CatalogFor reads the first line).
func (v *validator) sameCatalog(n int, ev *Event) {
	c := ev.Meta()[MetaCatalog]
	switch {
	case c == "":
	case v.catalogLine == 0:
		v.catalog, v.catalogLine = c, n
	case c != v.catalog:
		v.add(n, KindCatalogMismatch, fmt.Sprintf("session %q names catalog %q, but line %d names %q (one catalog per file)",
			ev.Session, c, v.catalogLine, v.catalog))
	}
}

// isKnownType reports whether t is an event type of format v1.
func isKnownType(t EventType) bool {
	switch t {
	case SessionStart, UserMessage, ModelRequest, AssistantMessage, ToolCall,
		ToolSearch, CatalogChange, DeferralChange, SessionEnd:
		return true
	}
	return false
}

// timeBackwards describes an event of session id at time t, before the
// time last of the session's event at line lastLine.
func timeBackwards(id string, t, last time.Time, lastLine int) string {
	return fmt.Sprintf("session %q: time goes backwards: %s is before %s at line %d",
		id, t.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano), lastLine)
}
