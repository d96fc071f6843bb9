package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	fastjson "github.com/segmentio/encoding/json"
)

// decodeEvent decodes one trace line into ev (which it resets first) and
// checks everything that can be checked from the line alone: encoding, JSON,
// event type, required fields, version and value ranges. It is the only place
// lines are decoded, so the decoder can be swapped after measurement. The
// returned error, when not nil, is a *lineProblem.
func decodeEvent(line []byte, ev *Event) error { return decodeEventIn(line, ev, nil) }

// decodeEventIn is decodeEvent sharing the strings of short identifiers
// through tab (nil: none).
func decodeEventIn(line []byte, ev *Event, tab *strtab) error {
	var buf [1]lineProblem
	probs := decodeEventAll(line, ev, buf[:0], tab)
	if len(probs) == 0 {
		return nil
	}
	p := probs[0]
	return &p
}

// decodeEventAll is decodeEvent reporting every problem of the line (by
// appending to probs) instead of only the first.
func decodeEventAll(line []byte, ev *Event, probs []lineProblem, tab *strtab) []lineProblem {
	if p := decodeJSON(line, ev, tab); p != nil {
		return append(probs, *p)
	}
	return checkEventLine(line, ev, probs)
}

// checkEventLine is checkEvent on ev, decoded from line, saying when the
// line lacks "type", or has one no event has, because it is no event at
// all (foreignObject).
func checkEventLine(line []byte, ev *Event, probs []lineProblem) []lineProblem {
	start := len(probs)
	probs = checkEvent(ev, probs)
	if len(probs) > start {
		foreignObject(line, probs[start:])
	}
	return probs
}

// decodeJSON resets ev and decodes line into it, checking that line holds
// no NUL byte and is valid UTF-8 (encoding/json would silently replace
// invalid bytes). On a problem ev is left zero.
func decodeJSON(line []byte, ev *Event, tab *strtab) *lineProblem {
	*ev = Event{}
	// A line the layout decoder takes is valid UTF-8 with no NUL byte (it
	// checks every string and takes no control character): the checks
	// below are for the lines it declines.
	if decodeLayout(line, ev, tab) {
		return nil
	}
	*ev = Event{}
	if i := bytes.IndexByte(line, 0); i >= 0 {
		return &lineProblem{kind: KindNUL, reason: fmt.Sprintf("NUL byte at column %d", i+1)}
	}
	if !utf8.Valid(line) {
		return &lineProblem{kind: KindInvalidUTF8,
			reason: fmt.Sprintf("invalid UTF-8 at column %d", invalidUTF8At(line)+1)}
	}
	if bytes.HasPrefix(line, utf8BOM) {
		// encoding/json would say "invalid character 'ï' looking for
		// beginning of value", which names no byte the user can see.
		return &lineProblem{kind: KindBadJSON,
			reason: "line starts with a UTF-8 byte order mark (bytes EF BB BF), which a JSON line must not: remove it"}
	}
	if err := unmarshalGeneral(line, ev); err != nil {
		*ev = Event{}
		p := documentShape(line, jsonProblem(err))
		return &p
	}
	if d, ok := findDuplicateKey(line); ok {
		*ev = Event{}
		return &lineProblem{kind: KindBadJSON, reason: d.reason()}
	}
	return nil
}

// utf8BOM is the byte order mark some editors put at the start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

// unmarshalGeneral decodes a line the layout decoder declined (decodeJSON
// tries decodeLayout first, layout.go). ev must be zero. Two decoders are
// tried in turn: github.com/segmentio/encoding/json (decodeFast), then
// encoding/json, which decides every line the first declines: its error
// is the one reported (error messages stay those of encoding/json) and,
// should it accept the line, its result is kept.
// FuzzLayoutDecoderAgreement and FuzzDecoderAgreement check that every
// line a fast path accepts decodes to the same Event with encoding/json.
func unmarshalGeneral(line []byte, ev *Event) error {
	if decodeFast(line, ev) {
		return nil
	}
	// Through a copy, so that ev does not escape to the heap (callers keep
	// it on their stack, where filling it costs no write barriers).
	tmp := new(Event)
	err := json.Unmarshal(line, tmp)
	*ev = *tmp
	return err
}

// decodeFast decodes line into ev with github.com/segmentio/encoding/json
// (about 4× encoding/json on trace lines; docs/performance.md) and reports
// whether it accepted the line (ev is undefined when it did not). That
// decoder parses times more leniently than encoding/json, so "t" goes
// through time.Time's own UnmarshalJSON, and it has no nesting limit, so
// deeply nested lines go to encoding/json.
func decodeFast(line []byte, ev *Event) bool {
	if nestedDeeperThan(line, stdMaxDepth-1) {
		return false // encoding/json rejects very deep nesting; the fast decoder does not
	}
	fe := fastEvent{Event: new(Event)} // a copy, as in unmarshalGeneral
	if fastjson.Unmarshal(line, &fe) != nil {
		return false
	}
	*ev = *fe.Event
	ev.T = fe.T.Time
	return true
}

// stdMaxDepth is encoding/json's nesting limit: it rejects a value nested
// more than this many arrays and objects deep.
const stdMaxDepth = 10000

// nestedDeeperThan reports whether line opens more than max arrays or
// objects at once (outside strings). It does not check the JSON otherwise.
func nestedDeeperThan(line []byte, max int) bool {
	if bytes.Count(line, []byte{'{'})+bytes.Count(line, []byte{'['}) <= max {
		return false // too few openings (a fast vectorised count)
	}
	depth := 0
	inString, escaped := false, false
	for _, c := range line {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > max {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// fastEvent is Event with "t" decoded by time.Time's own UnmarshalJSON
// (the outer T shadows Event.T): the fast decoder's time parser is more
// lenient than encoding/json's.
type fastEvent struct {
	*Event
	T stdTime `json:"t"`
}

// stdTime decodes every occurrence of its value as encoding/json would.
type stdTime struct{ time.Time }

// UnmarshalJSON parses b with time.Time's UnmarshalJSON.
func (t *stdTime) UnmarshalJSON(b []byte) error { return t.Time.UnmarshalJSON(b) }

// invalidUTF8At returns the offset of the first byte of line that is not
// part of a valid UTF-8 sequence.
func invalidUTF8At(line []byte) int {
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(line)
}

// jsonProblem turns an encoding/json error into a readable reason.
func jsonProblem(err error) lineProblem {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return lineProblem{kind: KindBadJSON, err: err,
			reason: fmt.Sprintf("invalid JSON at column %d: %v", syn.Offset, err)}
	case errors.As(err, &typ):
		if typ.Field == "" {
			return lineProblem{kind: KindBadJSON, err: err,
				reason: fmt.Sprintf("invalid JSON: line is a JSON %s, not an object", typ.Value)}
		}
		return lineProblem{kind: KindBadValue, err: err,
			reason: fmt.Sprintf("field %q: cannot use JSON %s as %s", typ.Field, typ.Value, typ.Type)}
	default:
		// The only field with a custom decoder that can fail is "t".
		return lineProblem{kind: KindBadValue, err: err,
			reason: fmt.Sprintf("field \"t\": not an RFC 3339 time (%v)", err)}
	}
}

// missingTimeHint follows the reason of a line without "t": how a source
// that records no times writes a trace, as the importers do
// (docs/trace-format.md, t).
const missingTimeHint = ` (a source that records no times writes "t":"1970-01-01T00:00:00Z" on every event and ` +
	`session_start meta "timing":"synthetic", as the importers do: docs/trace-format.md, t)`

// missingReason is the reason of a line that lacks field.
func missingReason(field string) string { return "missing required field \"" + field + "\"" }

// checkEvent appends to probs every per-line rule ev breaks.
func checkEvent(ev *Event, probs []lineProblem) []lineProblem {
	missing := func(field string) {
		probs = append(probs, lineProblem{kind: KindMissingField, reason: missingReason(field)})
	}
	known := true
	switch ev.Type {
	case "":
		missing("type")
		known = false
	case SessionStart, UserMessage, ModelRequest, AssistantMessage, ToolCall,
		ToolSearch, CatalogChange, DeferralChange, SessionEnd:
	default:
		probs = append(probs, lineProblem{kind: KindUnknownType,
			reason: fmt.Sprintf("unknown event type %q", ev.Type)})
		known = false
	}
	if ev.Session == "" {
		missing("session")
	}
	if ev.T.IsZero() {
		probs = append(probs, lineProblem{kind: KindMissingField, reason: missingReason("t") + missingTimeHint})
	}
	if ev.V != 0 && ev.V != Version {
		probs = append(probs, lineProblem{kind: KindUnsupportedVersion,
			reason: fmt.Sprintf("unsupported format version %d (this reader supports %d)", ev.V, Version)})
	}
	if !known {
		return probs
	}
	switch ev.Type {
	case SessionStart:
		if ev.V == 0 {
			missing("v")
		}
		for i := range ev.Servers() {
			if ev.Servers()[i].Name == "" {
				missing("servers[" + strconv.Itoa(i) + "].name")
			}
		}
	case ModelRequest:
		if ev.ID == "" {
			missing("id")
		}
	case ToolCall:
		if ev.CallID == "" {
			missing("call_id")
		}
		if ev.Tool == "" {
			missing("tool")
		}
		if ev.Server == "" {
			missing("server")
		}
	case ToolSearch:
		if ev.Query() == "" {
			missing("query")
		}
	case CatalogChange:
		if ev.Server == "" {
			missing("server")
		}
		if ev.Version() == "" {
			missing("version")
		}
	case DeferralChange:
		if len(ev.Added()) == 0 && len(ev.Removed()) == 0 {
			missing("added\" or \"removed")
		}
	}
	if ev.Status != "" {
		switch ev.Status {
		case StatusOK, StatusError, StatusRejected, StatusDenied:
		default:
			probs = append(probs, lineProblem{kind: KindBadValue,
				reason: fmt.Sprintf("field \"status\": unknown status %q (want ok, error, rejected or denied)", ev.Status)})
		}
	}
	if len(ev.Args) > 0 && ev.Args[0] != '{' && ev.Args[0] != '"' {
		probs = append(probs, lineProblem{kind: KindBadValue,
			reason: "field \"args\": must be a JSON object or string"})
	}
	probs = checkNonNegative(ev, probs)
	return probs
}

// checkNonNegative appends a problem for each count or duration below zero.
func checkNonNegative(ev *Event, probs []lineProblem) []lineProblem {
	check := func(field string, v int64) {
		if v < 0 {
			probs = append(probs, lineProblem{kind: KindNegative,
				reason: fmt.Sprintf("field %q: negative value %d", field, v)})
		}
	}
	check("system_prompt_tokens", ev.SystemPromptTokens())
	check("text_tokens", ev.TextTokens)
	check("ttft_ms", ev.TTFTMs)
	check("duration_ms", ev.DurationMs)
	check("result_bytes", ev.ResultBytes)
	check("result_tokens", ev.ResultTokens)
	if u := ev.Usage; u != nil {
		check("usage.input", u.Input)
		check("usage.cache_read", u.CacheRead)
		check("usage.cache_write", u.CacheWrite)
		check("usage.output", u.Output)
	}
	return probs
}
