package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// notATraceAdvice is what a reason for a line shaped like a file of
// another kind goes on with: what a trace line is and what to do instead.
const notATraceAdvice = "a trace holds one JSON event object per line (docs/trace-format.md). " +
	"To replay sessions recorded in another format, convert them: defersim trace import --from FORMAT IN -o trace.jsonl.gz " +
	"(docs/importers.md; defersim trace import --help lists the formats); a file of tool schemas is a catalog (--catalogs, or trace import --tools)"

// documentShape rewrites p, the JSON problem of line, when the line has
// the shape of a file that is not a trace: the opening line of a JSON
// document written over several lines (pretty-printed: "{" or "[" alone,
// or a line ending inside an object or array it opened), or a JSON array
// on one line. Such a file used to stop a run with "invalid JSON at
// column 1: unexpected end of JSON input", which says neither. Other
// problems are returned unchanged.
func documentShape(line []byte, p lineProblem) lineProblem {
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(p.err, &typ) && typ.Field == "" && typ.Value == "array":
		p.reason += ", as in a file that is one JSON array (of sessions, messages or tools), not one event per line; " + notATraceAdvice
	case opensDocument(line):
		open := "object"
		if bytes.TrimSpace(line)[0] == '[' {
			open = "array"
		}
		p.reason = "not one event per line: the line opens a JSON " + open + " and ends before closing it, " +
			"as a line of a JSON document written over several lines (pretty-printed) does; " + notATraceAdvice
	}
	return p
}

// opensDocument says whether line is the start of a JSON object or array
// that goes on past the line, broken where a pretty-printer breaks lines:
// after an opening bracket, a comma or a colon. A line cut inside a string
// or a number (a truncated file) is not one.
func opensDocument(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	switch t[len(t)-1] {
	case '{', '[', ',', ':':
	default:
		return false
	}
	var v json.RawMessage
	err := json.NewDecoder(bytes.NewReader(t)).Decode(&v)
	return errors.Is(err, io.ErrUnexpectedEOF)
}
