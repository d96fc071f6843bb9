package traces

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/defersim/defersim/internal/nouns"
)

// filer decodes the lines of a Reader's batches and files their events
// into sessions: the decode stage of the pipeline (pipeline.go), which owns
// it while the Reader's Sessions range runs.
type filer struct {
	name string
	opts ReadOptions
	max  int // line limit, for messages
	open map[string]*openSession
	seq  int64
	// counts are those of the lines filed so far (Sessions excepted: the
	// Reader counts the sessions it yields).
	counts Counts
	// spares are buffers of ended sessions, for new ones.
	spares []openSession
	// slab holds the events of the session at its end (tail) and of the
	// sessions before it, each run contiguous; slabLines their line
	// numbers. A session that ends at the slab's end gets a subslice of it,
	// no copy (see slabEvents).
	slab      []Event
	slabLines []int
	tail      *openSession
	// last is the session of the last event filed while it is open (its
	// entry in open), which the next line most likely names again.
	last *openSession
	// free holds ended openSessions for new sessions (at most maxSpares).
	free []*openSession
	tab  *strtab
	// onEvent holds the event handed to ReadOptions.OnEvent.
	onEvent Event
	// seenFile is the index of the file in opts.Seen (when set).
	seenFile int
	// advice gives the file's advice for a file that is not a trace once
	// among the lines --skip-bad records (Counts.FirstSkips).
	advice adviceOnce
}

// openSession is a session between its session_start and its session_end.
// Its events and line numbers go into the filer's slab while no other
// session's event comes between them (inSlab); otherwise they gather in
// buffers the filer reuses, and the session gets slices of exactly their
// size when it ends (growing its own slices instead would allocate about
// three times the memory).
type openSession struct {
	s     *Session
	seq   int64
	start int // line of its session_start
	// repeat marks a session read before (ReadOptions.Seen) whose lines
	// are skipped (SkipBad) until its session_end.
	repeat bool
	events []Event
	lines  []int
	// inSlab says its events are slab[a:a+n] (and slabLines[a:a+n]) of the
	// slab it started in: the filer's current one while it is the tail.
	inSlab    bool
	a, n      int
	slab      []Event
	slabLines []int
	// lastT is the time of its last timed event, at line lastLine.
	lastT    time.Time
	lastLine int
	// unreplayed says it holds an event of a kind the replay does not read.
	unreplayed bool
	// user says it holds a user event (else it counts in Counts.NoUser
	// when it closes).
	user bool
}

// maxSpares bounds the buffers of ended sessions a filer keeps for reuse,
// and maxSpareEvents the size of one it keeps.
const (
	maxSpares      = 16
	maxSpareEvents = 1024
)

// slabEvents is the number of events a slab holds. Every session yielded
// from a slab keeps the whole slab reachable (its events and line
// numbers: slabEvents × (the size of an Event + 8) bytes), so a caller
// that keeps one session in a thousand keeps about a slab per session;
// the reader itself holds only its current slab. A session still open
// when its slab fills moves to the next slab when it has fewer than
// slabEvents/2 events, and to the gather buffers otherwise (so a long
// session is copied once more, not once per slab).
const slabEvents = 1024

func newFiler(name string, opts ReadOptions) *filer {
	f := &filer{name: name, opts: opts, max: opts.maxLine(), open: make(map[string]*openSession), tab: newStrtab()}
	if opts.Seen != nil {
		f.seenFile = opts.Seen.addFile(name)
	}
	return f
}

// file decodes and files the lines of b, appending the sessions they end
// to b.sessions, and sets b.err to the error that stops the stream (a
// line error, unless skipped; a read error; io.EOF after the sessions
// still open, in the order they started).
func (f *filer) file(b *batch) {
	b.sessions = b.sessions[:0]
	for i, l := range b.lines {
		f.counts.Lines++
		n := b.first + i
		var lerr *LineError
		switch line := b.data[l.start:l.end]; {
		case l.tooLong:
			lerr = f.lineError(n, KindLineTooLong, fmt.Sprintf("line longer than %d bytes", f.max))
		case isBlank(line):
			continue
		default:
			lerr = f.add(line, n, b)
		}
		if lerr == nil {
			continue
		}
		if !f.opts.SkipBad || lerr.Kind == KindTooManySessions {
			b.err = lerr
			break
		}
		f.counts.skip(lerr)
	}
	if errors.Is(b.err, io.EOF) {
		f.flush(b)
	}
	b.counts = f.counts.clone()
}

// add decodes line n and files its event under its session, appending the
// session to b.sessions when the event ends it.
func (f *filer) add(line []byte, n int, b *batch) *LineError {
	if f.opts.OnEvent == nil && len(f.slab) < cap(f.slab) {
		return f.addInSlab(line, n, b)
	}
	var ev Event // on the stack: decoding into it costs no write barriers
	o, lerr := f.accept(line, &ev, n)
	if o == nil {
		return lerr
	}
	if f.opts.OnEvent != nil {
		f.onEvent = ev // a copy, so that ev stays on the stack
		f.opts.OnEvent(o.s, &f.onEvent, n)
	} else {
		f.keep(o, &ev, n)
	}
	f.filed(o, ev.Type, b)
	return nil
}

// addInSlab is add decoding line n straight into the next free slot of
// the slab, where keep would copy the event if it goes to the slab (the
// line's session is the tail, or a new one): no copy then. An event that
// goes elsewhere moves from the slot to its session's gather buffers, and
// a rejected or skipped line leaves the slot zero, as it found it.
func (f *filer) addInSlab(line []byte, n int, b *batch) *LineError {
	k := len(f.slab)
	slot := &f.slab[:k+1][k]
	o, lerr := f.accept(line, slot, n)
	if o == nil {
		*slot = Event{}
		return lerr
	}
	typ := slot.Type
	if f.toSlab(o, typ) { // k is still the slab's end (toSlab)
		f.slab, f.slabLines = f.slab[:k+1], append(f.slabLines, n)
		o.n++
	} else {
		o.events = append(o.events, *slot)
		o.lines = append(o.lines, n)
		*slot = Event{}
	}
	f.filed(o, typ, b)
	return nil
}

// accept decodes line n into ev and checks it against its session, which
// it returns (opening it for a session_start); nil when the line is
// rejected (the error) or skipped as part of a repeated session (nil).
func (f *filer) accept(line []byte, ev *Event, n int) (*openSession, *LineError) {
	if err := decodeEventIn(line, ev, f.tab); err != nil {
		var p *lineProblem
		if errors.As(err, &p) {
			f.advice.apply(p, n)
			return nil, p.at(f.name, n)
		}
		return nil, &LineError{File: f.name, Line: n, Kind: KindBadJSON, Reason: err.Error(), Err: err}
	}
	o := f.last
	if o == nil || o.s.ID != ev.Session {
		o = f.open[ev.Session]
	}
	if ev.Type == SessionStart {
		if o != nil {
			return nil, f.lineError(n, KindDuplicateStart, fmt.Sprintf(
				"session_start for session %q, which is already open since line %d", ev.Session, o.start))
		}
		if len(f.open) >= f.opts.maxOpen() {
			return nil, f.lineError(n, KindTooManySessions, fmt.Sprintf(
				"more than %s open at once (raise ReadOptions.MaxOpenSessions)", nouns.Count(f.opts.maxOpen(), "session")))
		}
		if f.opts.Seen != nil {
			if file, line, dup := f.opts.Seen.start(ev.Session, f.seenFile, n, !f.opts.SkipBad); dup {
				return nil, f.repeat(ev, n, file, line)
			}
		}
		o = f.newOpen(ev.Session)
		o.start = n
		f.open[ev.Session] = o
		f.counts.Timing.count(ev.Meta()["timing"])
	} else if o != nil && o.repeat {
		f.skipRepeat(ev, o)
		return nil, nil
	} else if o == nil {
		return nil, f.lineError(n, KindSessionNotOpen, fmt.Sprintf(
			"%s event for session %q, which is not open (no session_start before it, or it already ended)",
			ev.Type, ev.Session))
	}
	if reason := implausible(ev); reason != "" {
		f.counts.Implausible++
		if len(f.counts.FirstImplausible) < MaxSkipRecords {
			f.counts.FirstImplausible = append(f.counts.FirstImplausible,
				Problem{File: f.name, Line: n, Reason: reason, Kind: KindImplausible})
		}
	}
	if !ev.T.IsZero() {
		if ev.T.Before(o.lastT) {
			f.backwards(ev, o, n)
		}
		o.lastT, o.lastLine = ev.T, n
	}
	ev.Session = o.s.ID // share one string per session
	return o, nil
}

// filed counts the event of type typ just filed under o and closes o
// when the event ends it.
func (f *filer) filed(o *openSession, typ EventType, b *batch) {
	f.counts.Events++
	if NotReplayed(typ) {
		f.counts.Unreplayed++
		if !o.unreplayed {
			o.unreplayed = true
			f.counts.UnreplayedSessions++
		}
	}
	if typ == UserMessage {
		o.user = true
	}
	if typ == SessionEnd {
		f.drop(o)
		f.noUser(o)
		b.sessions = append(b.sessions, f.close(o))
		f.reuse(o)
	} else {
		f.last = o
		f.tab.setSession(o.s.ID)
	}
}

// repeat reports session ev.Session starting again at line n (it first
// started at line of file, -1: unknown) and, with SkipBad, opens it as a
// repeat, whose lines are skipped until its session_end.
func (f *filer) repeat(ev *Event, n, file, line int) *LineError {
	if f.opts.SkipBad {
		f.open[ev.Session] = &openSession{s: &Session{ID: ev.Session, File: f.name}, start: n, repeat: true}
	}
	return f.opts.Seen.repeated(ev.Session, f.name, f.seenFile, n, file, line)
}

// skipRepeat counts a line of the repeated session o as skipped (its
// session_start alone is recorded in FirstSkips) and closes o at its
// session_end.
func (f *filer) skipRepeat(ev *Event, o *openSession) {
	f.counts.Skipped++
	if f.counts.SkipReasons == nil {
		f.counts.SkipReasons = make(map[Kind]int64)
	}
	f.counts.SkipReasons[KindDuplicateSession]++
	if ev.Type == SessionEnd {
		f.drop(o)
	}
}

// newOpen opens the session id (its events go to the slab first: keep),
// reusing an ended session's openSession when there is one.
func (f *filer) newOpen(id string) *openSession {
	f.seq++
	s := &Session{ID: id, File: f.name}
	if k := len(f.free); k > 0 {
		o := f.free[k-1]
		f.free = f.free[:k-1]
		o.s, o.seq = s, f.seq
		return o
	}
	return &openSession{s: s, seq: f.seq}
}

// drop removes the open session o (ended or skipped) from f.open.
func (f *filer) drop(o *openSession) {
	delete(f.open, o.s.ID)
	if f.last == o {
		f.last = nil
	}
}

// reuse keeps o, closed, for a new session (newOpen).
func (f *filer) reuse(o *openSession) {
	if len(f.free) < maxSpares {
		*o = openSession{}
		f.free = append(f.free, o)
	}
}

// keep adds event ev of line n to session o: to the slab while o is its
// tail (or a new session, which becomes the tail), else to o's gather
// buffers.
func (f *filer) keep(o *openSession, ev *Event, n int) {
	if !f.toSlab(o, ev.Type) {
		o.events = append(o.events, *ev)
		o.lines = append(o.lines, n)
		return
	}
	// o.slab is f.slab's array; its length can stay behind (o's events
	// are sliced up to its capacity).
	f.slab = append(f.slab, *ev)
	f.slabLines = append(f.slabLines, n)
	o.n++
}

// toSlab reports whether the next event of o, of type typ, goes to the
// end of the slab (else to o's gather buffers), making room for it: o
// becomes the tail when typ starts it, leaves the slab when another
// session's events came after its own, and a full slab is replaced
// (newSlab). When the slab is not full, its end stays where it was.
func (f *filer) toSlab(o *openSession, typ EventType) bool {
	if typ == SessionStart && len(o.events) == 0 && !o.inSlab {
		o.inSlab, o.a, o.n = true, len(f.slab), 0
		o.slab, o.slabLines = f.slab, f.slabLines
		f.tail = o
	}
	if o.inSlab && f.tail != o {
		f.unslab(o) // another session's events came after o's (the slab's end stays)
	}
	if o.inSlab && len(f.slab) == cap(f.slab) {
		f.newSlab(o)
	}
	return o.inSlab
}

// newSlab starts a new slab, the tail session o moving its events there
// (or to its gather buffers when it has half a slab of them).
func (f *filer) newSlab(o *openSession) {
	if o.n >= slabEvents/2 {
		f.unslab(o) // the slab ends where o began: there is room again
		return
	}
	evs, lines := make([]Event, 0, slabEvents), make([]int, 0, slabEvents)
	evs = append(evs, o.slab[o.a:o.a+o.n]...)
	lines = append(lines, o.slabLines[o.a:o.a+o.n]...)
	clear(o.slab[o.a : o.a+o.n]) // the old slab keeps none of o's strings
	f.slab, f.slabLines = evs, lines
	o.a, o.slab, o.slabLines = 0, evs, lines
}

// unslab moves the events of o from its slab to gather buffers, reused
// ones when the filer has spares.
func (f *filer) unslab(o *openSession) {
	if k := len(f.spares); k > 0 {
		o.events, o.lines = f.spares[k-1].events, f.spares[k-1].lines
		f.spares = f.spares[:k-1]
	}
	o.events = append(o.events, o.slab[o.a:o.a+o.n]...)
	o.lines = append(o.lines, o.slabLines[o.a:o.a+o.n]...)
	clear(o.slab[o.a : o.a+o.n])
	if f.tail == o {
		// Its place in the slab is free again: the slab ends where o began.
		f.slab, f.slabLines = f.slab[:o.a], f.slabLines[:o.a]
		f.tail = nil
	}
	o.inSlab, o.slab, o.slabLines = false, nil, nil
}

// close gives the session its events and lines and keeps o's buffers.
func (f *filer) close(o *openSession) *Session {
	s := o.s
	switch {
	case f.opts.OnEvent != nil:
	case o.inSlab:
		end := o.a + o.n
		s.Events, s.Lines = o.slab[o.a:end:end], o.slabLines[o.a:end:end]
		if f.tail == o {
			f.tail = nil
		}
		o.inSlab, o.slab, o.slabLines = false, nil, nil
		return s // no gather buffers to keep
	default:
		s.Events = slices.Clone(o.events)
		s.Lines = slices.Clone(o.lines)
	}
	if len(f.spares) < maxSpares && cap(o.events) <= maxSpareEvents {
		clear(o.events) // keep no strings of the session alive
		f.spares = append(f.spares, openSession{events: o.events[:0], lines: o.lines[:0]})
	}
	return s
}

// backwards counts event ev at line n, whose time is before the last
// timed event of its session o.
func (f *filer) backwards(ev *Event, o *openSession, n int) {
	f.counts.Backwards++
	if len(f.counts.FirstBackwards) < MaxSkipRecords {
		f.counts.FirstBackwards = append(f.counts.FirstBackwards, Problem{File: f.name, Line: n, Kind: KindTimeBackwards,
			Reason: timeBackwards(ev.Session, ev.T, o.lastT, o.lastLine)})
	}
}

// noUser counts the closing session o when it holds no user event
// (Counts.NoUser), locating it at its session_start.
func (f *filer) noUser(o *openSession) {
	if o.user {
		return
	}
	f.counts.NoUser++
	if len(f.counts.FirstNoUser) < MaxSkipRecords {
		f.counts.FirstNoUser = append(f.counts.FirstNoUser, noUserProblem(f.name, o.start, o.s.ID))
	}
}

func (f *filer) lineError(line int, kind Kind, reason string) *LineError {
	return &LineError{File: f.name, Line: line, Kind: kind, Reason: reason}
}

// flush appends the sessions still open at the end of the stream to
// b.sessions, in the order they started.
func (f *filer) flush(b *batch) {
	rest := slices.Collect(maps.Values(f.open))
	slices.SortFunc(rest, func(a, b *openSession) int { return cmp.Compare(a.seq, b.seq) })
	clear(f.open)
	f.last = nil
	for _, o := range rest {
		if o.repeat {
			continue // skipped, not incomplete
		}
		f.counts.Incomplete++
		f.noUser(o)
		b.sessions = append(b.sessions, f.close(o))
	}
}
