package traces

import "strconv"

// Kind classifies why a line of a trace was rejected. Counts.SkipReasons is
// keyed by Kind.
type Kind string

// The kinds of line errors the reader and the validator report.
const (
	KindLineTooLong        Kind = "line_too_long"
	KindNUL                Kind = "nul_byte"
	KindInvalidUTF8        Kind = "invalid_utf8"
	KindBadJSON            Kind = "bad_json"
	KindBadValue           Kind = "bad_value"
	KindUnknownType        Kind = "unknown_type"
	KindMissingField       Kind = "missing_field"
	KindUnsupportedVersion Kind = "unsupported_version"
	KindNegative           Kind = "negative_value"
	KindSessionNotOpen     Kind = "session_not_open"
	KindDuplicateStart     Kind = "duplicate_session_start"
	KindTooManySessions    Kind = "too_many_open_sessions"
	KindCompression        Kind = "compression"
	KindIO                 Kind = "io"
	// KindImplausible is a warning, not an error: a count or duration
	// beyond any real session's (Counts.Implausible).
	KindImplausible Kind = "implausible_value"
	// The kinds below are only reported by Validate (KindTimeBackwards
	// also as a Reader's warning: Counts.Backwards; KindDuplicateSession
	// also as a Reader's error, with ReadOptions.Seen).
	KindUnknownField     Kind = "unknown_field"
	KindOrder            Kind = "order"
	KindTimeBackwards    Kind = "time_backwards"
	KindAfterEnd         Kind = "after_session_end"
	KindDuplicateSession Kind = "duplicate_session"
	KindNoSessionEnd     Kind = "no_session_end"
	KindUnknownRequest   Kind = "unknown_request"
	KindDuplicateRequest Kind = "duplicate_request"
	KindUnknownTool      Kind = "unknown_tool"
	KindCatalogMismatch  Kind = "catalog_mismatch"
	// KindNoSession: a file that holds no session (empty, or blank lines
	// only), which a run would stop on.
	KindNoSession Kind = "no_session"
	// KindNoUserMessage: a session without a user event, whose first
	// reply a run measures from no user message (docs/engine.md §5); a
	// warning (Counts.NoUser), not a problem.
	KindNoUserMessage Kind = "no_user_message"
	// KindVersionMissing: a server version no catalog holds, at the
	// session_start or catalog_change that names it and at each tool_call
	// a run replays on it (ValidateOptions.Resolver).
	KindVersionMissing Kind = "version_missing"
)

// LineError is an error at one line of a trace file. Its Error() is
// "file:line: reason".
type LineError struct {
	File   string
	Line   int
	Reason string
	// Kind classifies the error; Err is the underlying cause, when there is one.
	Kind Kind
	Err  error
}

// Error returns "file:line: reason".
func (e *LineError) Error() string {
	return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Reason
}

// Unwrap returns the underlying cause, if any.
func (e *LineError) Unwrap() error { return e.Err }

// lineProblem is a problem found in one line before its location is known;
// the reader turns it into a *LineError.
type lineProblem struct {
	kind   Kind
	reason string
	err    error
	// short, when set, is reason without its advice on what to do with a
	// file that is not a trace (notATraceAdvice): what a line says once
	// an earlier line of its file gave the same advice (adviceOnce).
	short string
	// advice is the advice reason carries beyond short (notATraceAdvice,
	// or chatAdvice for the line's chat-log shape): lines with the same
	// advice give it once per file.
	advice string
}

func (p *lineProblem) Error() string { return p.reason }

func (p *lineProblem) at(file string, line int) *LineError {
	return &LineError{File: file, Line: line, Reason: p.reason, Kind: p.kind, Err: p.err}
}
