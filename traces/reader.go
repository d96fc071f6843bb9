package traces

import (
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
	// OnEvent, when set, receives each accepted event with its (open)
	// session and its 1-based line number instead of the session keeping
	// it: yielded sessions then carry their ID and File but no Events or
	// Lines, and memory stays bounded by the number of open sessions
	// whatever their length (trace stats and run read a session of a
	// million events this way). The Event itself is valid only during the
	// call; the strings and slices it holds are never reused by the reader
	// and may be kept.
	OnEvent func(s *Session, ev *Event, line int)
	// Seen, when set, remembers every session read (across the Readers
	// that share it): a session_start for an id read before, in this file
	// or an earlier one, is a line error of kind KindDuplicateSession
	// naming where the id first started; with SkipBad the whole repeated
	// session is skipped, each of its lines counted in Skipped.
	Seen *SessionSet
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
	// Implausible counts accepted lines with a count or duration beyond
	// what any real session records (plausible.go): they are kept, and
	// callers warn about them.
	Implausible int64 `json:"implausible,omitempty"`
	// FirstImplausible records the first MaxSkipRecords such lines.
	FirstImplausible []Problem `json:"first_implausible,omitempty"`
	// Backwards counts accepted events whose time is before the previous
	// timed event of their session (Validate reports them as
	// KindTimeBackwards): they are kept, and callers warn about them.
	Backwards int64 `json:"time_backwards,omitempty"`
	// FirstBackwards records the first MaxSkipRecords such lines.
	FirstBackwards []Problem `json:"first_time_backwards,omitempty"`
	// Timing counts the sessions opened by their session_start meta
	// "timing" (timing.go).
	Timing Timing `json:"timing,omitzero"`
	// Unreplayed counts accepted events of kinds the replay does not read
	// (NotReplayed: deferral_change), UnreplayedSessions the sessions
	// holding one or more: callers say so (docs/trace-format.md).
	Unreplayed         int64 `json:"unreplayed_events,omitempty"`
	UnreplayedSessions int64 `json:"unreplayed_sessions,omitempty"`
	// NoUser counts the sessions without a user event, as they close
	// (ended, or still open at the end of the file; a repeated session
	// skipped with SkipBad is not counted): a run measures first reply
	// from a session's first user message, so theirs runs from the
	// session's start to its end and is not one (callers warn;
	// docs/engine.md §5). FirstNoUser locates the first MaxSkipRecords of
	// them, at their first line (a Reader's: their session_start).
	NoUser      int64     `json:"sessions_without_user,omitempty"`
	FirstNoUser []Problem `json:"first_sessions_without_user,omitempty"`
}

// clone returns a copy that shares nothing with c.
func (c Counts) clone() Counts {
	c.SkipReasons = maps.Clone(c.SkipReasons)
	c.FirstSkips = slices.Clone(c.FirstSkips)
	c.FirstImplausible = slices.Clone(c.FirstImplausible)
	c.FirstBackwards = slices.Clone(c.FirstBackwards)
	c.FirstNoUser = slices.Clone(c.FirstNoUser)
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
// after its session_end is yielded as a second session (Validate reports
// it), unless ReadOptions.Seen is set: then it is a line error, and the
// set grows by one small entry per session (SessionSet).
//
// A Reader is not safe for concurrent use.
type Reader struct {
	name   string
	opts   ReadOptions
	src    *lineSource
	file   io.Closer
	counts Counts
	used   bool
	// sessions is the number of sessions yielded so far.
	sessions int64
	// bytes is the count of uncompressed bytes of the lines filed so far.
	bytes int64
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
	return &Reader{name: name, opts: opts, src: src}, nil
}

// Counts returns what the reader has seen so far.
func (r *Reader) Counts() Counts {
	c := r.counts.clone()
	c.Bytes, c.Sessions = r.bytes, r.sessions
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
		p := startPipeline(r.src, newFiler(r.name, r.opts), r.opts.OnEvent != nil)
		defer p.stop()
		for {
			b, ok := p.next()
			if !ok {
				return
			}
			// The counts of the batch's lines apply from its first session on.
			r.counts, r.bytes = b.counts, b.bytes
			for _, s := range b.sessions {
				r.sessions++
				if !yield(s, nil) {
					return
				}
			}
			if b.err != nil {
				if !errors.Is(b.err, io.EOF) {
					yield(nil, b.err)
				}
				return
			}
			p.recycle(b)
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
