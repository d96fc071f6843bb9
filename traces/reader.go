package traces

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"slices"
)

// Defaults of ReadOptions.
const (
	// DefaultMaxLineBytes bounds the length of one line (64 MiB).
	DefaultMaxLineBytes = 64 << 20
	// DefaultMaxOpenSessions bounds the sessions open at once in one file.
	DefaultMaxOpenSessions = 10000
	// MaxSkipRecords is how many skipped lines Counts.FirstSkips keeps.
	MaxSkipRecords = 100
)

// ReadOptions tune a Reader. The zero value gives the defaults.
type ReadOptions struct {
	// MaxLineBytes bounds one line, newline excluded (<= 0: DefaultMaxLineBytes).
	// A longer line is an error "file:line: line longer than N bytes"; it is
	// never held in memory beyond the bound.
	MaxLineBytes int
	// MaxOpenSessions bounds how many sessions may be open (started and not
	// ended) at once (<= 0: DefaultMaxOpenSessions). Going over it is an error
	// even with SkipBad.
	MaxOpenSessions int
	// SkipBad skips malformed lines, counting them in Counts, instead of
	// stopping at the first one.
	SkipBad bool
}

func (o ReadOptions) maxLine() int {
	if o.MaxLineBytes <= 0 {
		return DefaultMaxLineBytes
	}
	return o.MaxLineBytes
}

func (o ReadOptions) maxOpen() int {
	if o.MaxOpenSessions <= 0 {
		return DefaultMaxOpenSessions
	}
	return o.MaxOpenSessions
}

// Counts tallies what a Reader (or Validate) saw.
type Counts struct {
	// Lines is the number of lines read, blank and skipped ones included.
	Lines int64 `json:"lines"`
	// Bytes is the number of uncompressed bytes read.
	Bytes int64 `json:"bytes"`
	// Events is the number of events decoded and accepted.
	Events int64 `json:"events"`
	// Sessions is the number of sessions yielded (Validate: distinct sessions seen).
	Sessions int64 `json:"sessions"`
	// Skipped is the number of malformed lines skipped (Validate: lines with
	// a problem of their own).
	Skipped int64 `json:"skipped"`
	// Incomplete is the number of sessions that had no session_end at EOF.
	Incomplete int64 `json:"incomplete"`
	// SkipReasons counts skipped lines by kind of problem.
	SkipReasons map[Kind]int64 `json:"skip_reasons,omitempty"`
	// FirstSkips records the first MaxSkipRecords skipped lines and why.
	FirstSkips []Problem `json:"first_skips,omitempty"`
}

// clone returns a copy that shares nothing with c.
func (c Counts) clone() Counts {
	c.SkipReasons = maps.Clone(c.SkipReasons)
	c.FirstSkips = slices.Clone(c.FirstSkips)
	return c
}

func (c *Counts) skip(e *LineError) {
	c.Skipped++
	if c.SkipReasons == nil {
		c.SkipReasons = make(map[Kind]int64)
	}
	c.SkipReasons[e.Kind]++
	if len(c.FirstSkips) < MaxSkipRecords {
		c.FirstSkips = append(c.FirstSkips, Problem{File: e.File, Line: e.Line, Reason: e.Reason, Kind: e.Kind})
	}
}

// Reader streams the sessions of one trace file (plain or gzip JSONL).
//
// Sessions may interleave: the reader keeps each open session in memory until
// its session_end and yields it then, so sessions come out in the order of
// their session_end lines; sessions still open at EOF follow, in the order of
// their session_start lines. Memory is bounded by the open sessions
// (ReadOptions.MaxOpenSessions) and one line (ReadOptions.MaxLineBytes). The
// reader does not remember ended sessions, so a session id that starts again
// after its session_end is yielded as a second session (Validate reports it).
//
// A Reader is not safe for concurrent use.
type Reader struct {
	name   string
	opts   ReadOptions
	src    *lineSource
	file   io.Closer
	counts Counts
	open   map[string]*openSession
	seq    int64
	used   bool
	// bytes is the count of uncompressed bytes of the lines filed so far.
	bytes int64
	// spares are buffers of ended sessions, for new ones.
	spares []openSession
}

// openSession is a session between its session_start and its session_end.
// Its events and line numbers gather in buffers the reader reuses; the
// session gets slices of exactly their size when it is yielded (growing
// its own slices instead would allocate about three times the memory).
type openSession struct {
	s      *Session
	seq    int64
	events []Event
	lines  []int
}

// Open opens the trace file at path. Call Close when done.
func Open(path string, opts ReadOptions) (*Reader, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, path, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	return r, nil
}

// NewReader returns a Reader on r; name is used in error messages. A gzip
// stream is detected by its magic bytes. A corrupt gzip header is a *LineError.
func NewReader(r io.Reader, name string, opts ReadOptions) (*Reader, error) {
	src, err := newLineSource(r, name, opts.maxLine())
	if err != nil {
		return nil, err
	}
	return &Reader{name: name, opts: opts, src: src, open: make(map[string]*openSession)}, nil
}

// Counts returns what the reader has seen so far.
func (r *Reader) Counts() Counts {
	c := r.counts.clone()
	c.Bytes = r.bytes
	return c
}

// Close releases the reader and, when it was made by Open, closes the file.
// It may be called more than once.
func (r *Reader) Close() error {
	err := r.src.close()
	if r.file != nil {
		if cerr := r.file.Close(); err == nil {
			err = cerr
		}
		r.file = nil
	}
	return err
}

// Sessions yields each complete session once (see Reader for the order). On
// an error it yields (nil, err) and stops; errors about the content of a
// line are *LineError. With SkipBad, malformed lines are skipped instead, but
// a read error (corrupt or truncated gzip) or too many open sessions still
// stops. Sessions may be ranged over only once. Decompression and decoding
// run on goroutines of their own (pipeline.go) while the range runs; they
// have stopped when it returns.
func (r *Reader) Sessions() iter.Seq2[*Session, error] {
	return func(yield func(*Session, error) bool) {
		if r.used {
			yield(nil, errors.New("traces: Sessions called twice on one Reader"))
			return
		}
		r.used = true
		p := startPipeline(r.src)
		defer p.stop()
		for b := range p.out {
			ok, end := r.fileBatch(b, yield)
			r.bytes = b.bytes
			err := b.err
			p.recycle(b)
			if !ok {
				return
			}
			if end {
				if errors.Is(err, io.EOF) {
					r.flush(yield)
				} else {
					yield(nil, err)
				}
				return
			}
		}
	}
}

// fileBatch files the events of a decoded batch, yielding the sessions
// they end. ok is false when the range must stop (the consumer stopped or
// an error was yielded); end reports the last batch of the stream.
func (r *Reader) fileBatch(b *batch, yield func(*Session, error) bool) (ok, end bool) {
	for i, l := range b.lines {
		r.counts.Lines++
		n := b.first + i
		var s *Session
		var lerr *LineError
		switch {
		case l.tooLong:
			lerr = &LineError{File: r.name, Line: n, Kind: KindLineTooLong,
				Reason: fmt.Sprintf("line longer than %d bytes", r.src.max)}
		case b.blank[i]:
			continue
		case b.probs[i] != nil:
			lerr = b.probs[i].at(r.name, n)
		default:
			s, lerr = r.add(&b.events[i], n)
		}
		if lerr != nil {
			if !r.opts.SkipBad || lerr.Kind == KindTooManySessions {
				yield(nil, lerr)
				return false, true
			}
			r.counts.skip(lerr)
			continue
		}
		if s != nil {
			r.counts.Sessions++
			if !yield(s, nil) {
				return false, true
			}
		}
	}
	return true, b.err != nil
}

// add files ev, the decoded event of line n, under its session. It returns
// the session when the event ended it.
func (r *Reader) add(ev *Event, n int) (*Session, *LineError) {
	o := r.open[ev.Session]
	if ev.Type == SessionStart {
		if o != nil {
			return nil, r.lineError(n, KindDuplicateStart, fmt.Sprintf(
				"session_start for session %q, which is already open since line %d", ev.Session, o.lines[0]))
		}
		if len(r.open) >= r.opts.maxOpen() {
			return nil, r.lineError(n, KindTooManySessions, fmt.Sprintf(
				"more than %d sessions open at once (raise ReadOptions.MaxOpenSessions)", r.opts.maxOpen()))
		}
		o = r.newOpen(ev.Session)
		r.open[ev.Session] = o
	} else if o == nil {
		return nil, r.lineError(n, KindSessionNotOpen, fmt.Sprintf(
			"%s event for session %q, which is not open (no session_start before it, or it already ended)",
			ev.Type, ev.Session))
	}
	s := o.s
	ev.Session = s.ID // share one string per session
	o.events = append(o.events, *ev)
	o.lines = append(o.lines, n)
	r.counts.Events++
	if ev.Type != SessionEnd {
		return nil, nil
	}
	delete(r.open, s.ID)
	return r.close(o), nil
}

// maxSpares bounds the buffers of ended sessions a reader keeps for reuse,
// and maxSpareEvents the size of one it keeps.
const (
	maxSpares      = 64
	maxSpareEvents = 4096
)

// newOpen opens the session id with reused buffers.
func (r *Reader) newOpen(id string) *openSession {
	r.seq++
	o := &openSession{s: &Session{ID: id, File: r.name}, seq: r.seq}
	if k := len(r.spares); k > 0 {
		o.events, o.lines = r.spares[k-1].events, r.spares[k-1].lines
		r.spares = r.spares[:k-1]
	}
	return o
}

// close gives the session its events and lines and keeps o's buffers.
func (r *Reader) close(o *openSession) *Session {
	s := o.s
	s.Events = slices.Clone(o.events)
	s.Lines = slices.Clone(o.lines)
	if len(r.spares) < maxSpares && cap(o.events) <= maxSpareEvents {
		clear(o.events) // keep no strings of the session alive
		r.spares = append(r.spares, openSession{events: o.events[:0], lines: o.lines[:0]})
	}
	return s
}

func (r *Reader) lineError(line int, kind Kind, reason string) *LineError {
	return &LineError{File: r.name, Line: line, Kind: kind, Reason: reason}
}

// flush yields the sessions still open at EOF in the order they started.
func (r *Reader) flush(yield func(*Session, error) bool) {
	rest := slices.Collect(maps.Values(r.open))
	slices.SortFunc(rest, func(a, b *openSession) int { return cmp.Compare(a.seq, b.seq) })
	clear(r.open)
	for _, o := range rest {
		r.counts.Sessions++
		r.counts.Incomplete++
		if !yield(r.close(o), nil) {
			return
		}
	}
}

// isBlank reports whether line holds only JSON whitespace.
func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// ReadAll reads every session of the file at path with the default options.
// It is meant for tests and small files: it holds the whole trace in memory.
func ReadAll(path string) ([]*Session, Counts, error) {
	r, err := Open(path, ReadOptions{})
	if err != nil {
		return nil, Counts{}, err
	}
	defer r.Close()
	var out []*Session
	for s, err := range r.Sessions() {
		if err != nil {
			return out, r.Counts(), err
		}
		out = append(out, s)
	}
	return out, r.Counts(), nil
}

// openFile opens a trace file for reading, refusing directories.
func openFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open trace: %w", err)
	}
	st, err := f.Stat()
	if err == nil && st.IsDir() {
		err = fmt.Errorf("%s is a directory", path)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open trace: %w", err)
	}
	return f, nil
}
