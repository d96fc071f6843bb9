package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
)

// notATraceAdvice is what a reason for a line shaped like a file of
// another kind goes on with: what a trace line is and what to do instead.
const notATraceAdvice = "a trace holds one JSON event object per line (docs/trace-format.md). " +
	"To replay sessions recorded in another format, convert them: " + importHint + "FORMAT IN -o trace.jsonl.gz " +
	"(docs/importers.md; defersim trace import --help lists the formats); a file of tool schemas is a catalog (--catalogs, or trace import --tools)"

// importHint starts the command every advice on a file that is not a
// trace gives (notATraceAdvice, chatAdvice): AdvisedAt finds the advice by
// it.
const importHint = "defersim trace import --from "

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
		p.short, p.advice = p.reason, notATraceAdvice
		p.reason += ", as in a file that is one JSON array (of sessions, messages or tools), not one event per line; " + notATraceAdvice
	case opensDocument(line):
		open := "object"
		if bytes.TrimSpace(line)[0] == '[' {
			open = "array"
		}
		p.short = "not one event per line: the line opens a JSON " + open + " and ends before closing it"
		p.advice = notATraceAdvice
		p.reason = p.short + ", as a line of a JSON document written over several lines (pretty-printed) does; " + notATraceAdvice
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

// maxForeignKeys is how many of a foreign object's keys its reason names.
const maxForeignKeys = 5

// foreignObject rewrites the "missing required field type" problem among
// probs, those of line, a JSON object, when the line has no key of the
// event format at all: a whole document of another format on one line
// ({"tools": […]}) or a line of another JSONL format. Such a line said
// only that "type" was missing, as if it were an event with a typo. An
// event that lacks "type" but has other fields of the format keeps the
// plain reason, unless the line is one of a chat-completions log (chatLog:
// its "model" is a field of the format too): then the missing type, or
// the unknown one of an Anthropic response ("type": "message"), says so
// and names the importer.
func foreignObject(line []byte, probs []lineProblem) {
	i := slices.IndexFunc(probs, func(p lineProblem) bool {
		return p.kind == KindMissingField && p.reason == missingReason("type") || p.kind == KindUnknownType
	})
	if i < 0 {
		return
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(line, &top) != nil || len(top) == 0 {
		return
	}
	if c, ok := chatLog(line, top); ok {
		p := &probs[i]
		p.short = p.reason + ": the line is " + c.what + ", not a trace event"
		p.advice = chatAdvice(c)
		p.reason = p.short + "; " + p.advice
		return
	}
	if probs[i].kind == KindUnknownType {
		return
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		if isEventField(k) {
			return
		}
		keys = append(keys, strconv.Quote(k))
	}
	slices.Sort(keys)
	more := ""
	if len(keys) > maxForeignKeys {
		more = ", … (" + strconv.Itoa(len(keys)) + " in all)"
		keys = keys[:maxForeignKeys]
	}
	p := &probs[i]
	p.short = p.reason + ": the line has none of the fields of a trace event"
	p.advice = notATraceAdvice
	p.reason = p.short + " (its fields: " + strings.Join(keys, ", ") + more +
		"), as a line of a file of another format has; " + notATraceAdvice
}

// adviceOnce gives each advice on what to do with a file that is not a
// trace once per file: whole at the first line whose reason carries it,
// and as the short reason pointing at that line on every later line with
// the same advice, so that a pretty-printed document of 441 lines does not
// repeat it on each line that opens an object. A line whose advice differs
// (a file mixing chat-log shapes: an OpenAI response, then an Anthropic
// one, each with its own importer) gives its own whole, once. Every line
// keeps its problem (file:line, kind and counts are unchanged).
type adviceOnce struct {
	lines map[string]int // advice → the line that gave it
}

// apply shortens p, a problem of line n, when an earlier line gave the
// advice p carries.
func (a *adviceOnce) apply(p *lineProblem, n int) {
	if p.short == "" {
		return
	}
	at, ok := a.lines[p.advice]
	switch {
	case !ok:
		if a.lines == nil {
			a.lines = map[string]int{}
		}
		a.lines[p.advice] = n
	case at != n:
		p.reason = p.short + " (see line " + strconv.Itoa(at) + ")"
	}
}

// AdvisedAt returns the line of the first of probs whose reason says that
// its file looks like a file of another kind and what to do instead (0:
// none), for a summary to point at when the file's other problems have
// scrolled it away.
func AdvisedAt(probs []Problem) int {
	for _, p := range probs {
		if strings.Contains(p.Reason, importHint) {
			return p.Line
		}
	}
	return 0
}
