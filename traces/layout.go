package traces

import (
	"encoding/json"
	"hash/maphash"
	"strings"
)

// decodeLayout is the fast path of decodeJSON: a decoder written for
// the layout of trace lines (one flat object of known keys, a few small
// nested objects and arrays, args kept raw). It reports whether it took
// the line; when it does, ev holds exactly what encoding/json would decode
// (FuzzLayoutDecoderAgreement checks this). It declines — and the general
// decoders then decide, and explain any error — whatever it does not
// handle itself:
//
//   - anything that is not valid JSON, and values of the wrong JSON type;
//   - a key that is repeated (at the top level, in usage, in a server
//     entry or in meta): so every line it takes has no duplicate key in
//     the objects it decodes, and a duplicate-key check only needs to look
//     at declined lines and at skipped values (args, x_ extensions);
//   - keys with escapes, non-ASCII bytes, or upper-case letters that fold
//     to a known key (encoding/json matches keys without regard to case);
//   - strings with an escaped UTF-16 surrogate, integers of more than 18
//     digits, times not of the form YYYY-MM-DDThh:mm:ss[.f]Z (those go
//     through time.Time's own parser first), null inside lists and maps,
//     and nesting deeper than maxSkipDepth.
//
// ev must be zero on entry; it is undefined when decodeLayout declines.
func decodeLayout(b []byte, ev *Event, tab *strtab) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	ks := &keyStack{b: b}
	top := ks.open()
	var seen uint64
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipWS(b, i+1) == len(b)
	}
	for {
		koff := i + 1
		key, j := scanKey(b, i)
		if j < 0 {
			return false
		}
		if j = skipWS(b, j); j >= len(b) || b[j] != ':' {
			return false
		}
		i = skipWS(b, j+1)
		if i >= len(b) {
			return false
		}
		f := topField(key)
		switch {
		case f >= 0:
			if seen&(1<<f) != 0 {
				return false
			}
			seen |= 1 << f
			i = decodeTopField(b, i, f, ev, tab, ks)
		case foldsTo(key, topField):
			return false
		default: // an extension: skipped, but not twice
			if !ks.add(&top, koff, koff+len(key), true) {
				return false
			}
			i = skipValue(b, i, 0, ks)
		}
		if i < 0 {
			return false
		}
		if i = skipWS(b, i); i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return skipWS(b, i+1) == len(b)
		}
		if b[i] != ',' {
			return false
		}
		i = skipWS(b, i+1)
	}
}

// The top-level keys decodeLayout decodes, one bit each in its seen set.
const (
	fV = iota
	fType
	fSession
	fT
	fModel
	fSystemPrompt
	fSystemPromptTokens
	fServers
	fRecordedStrategy
	fMeta
	fText
	fTextTokens
	fID
	fRequest
	fTTFTMs
	fDurationMs
	fUsage
	fCallID
	fTool
	fServer
	fArgs
	fStatus
	fError
	fResult
	fResultBytes
	fResultTokens
	fArgsUnrecorded
	fResultUnrecorded
	fQuery
	fReturned
	fVersion
	fAdded
	fRemoved
)

// topField returns the field bit of a top-level key, or -1.
func topField(key []byte) int {
	switch string(key) {
	case "v":
		return fV
	case "type":
		return fType
	case "session":
		return fSession
	case "t":
		return fT
	case "model":
		return fModel
	case "system_prompt":
		return fSystemPrompt
	case "system_prompt_tokens":
		return fSystemPromptTokens
	case "servers":
		return fServers
	case "recorded_strategy":
		return fRecordedStrategy
	case "meta":
		return fMeta
	case "text":
		return fText
	case "text_tokens":
		return fTextTokens
	case "id":
		return fID
	case "request":
		return fRequest
	case "ttft_ms":
		return fTTFTMs
	case "duration_ms":
		return fDurationMs
	case "usage":
		return fUsage
	case "call_id":
		return fCallID
	case "tool":
		return fTool
	case "server":
		return fServer
	case "args":
		return fArgs
	case "status":
		return fStatus
	case "error":
		return fError
	case "result":
		return fResult
	case "result_bytes":
		return fResultBytes
	case "result_tokens":
		return fResultTokens
	case "args_unrecorded":
		return fArgsUnrecorded
	case "result_unrecorded":
		return fResultUnrecorded
	case "query":
		return fQuery
	case "returned":
		return fReturned
	case "version":
		return fVersion
	case "added":
		return fAdded
	case "removed":
		return fRemoved
	}
	return -1
}

// decodeTopField decodes the value at b[i] into the field f of ev.
func decodeTopField(b []byte, i, f int, ev *Event, tab *strtab, ks *keyStack) int {
	switch f {
	case fV:
		var v int64
		i = decodeInt(b, i, &v)
		ev.V = int(v)
		return i
	case fType:
		return decodeEnum(b, i, (*string)(&ev.Type), eventTypeNames)
	case fStatus:
		return decodeEnum(b, i, &ev.Status, statusNames)
	case fT:
		return decodeTime(b, i, &ev.T, tab.minutes())
	case fSession:
		if end := tab.sameSession(b, i); end > 0 {
			ev.Session = tab.session
			return end
		}
	case fServers:
		return decodeServers(b, i, &ev.EnsureStart().Servers, tab, ks)
	case fMeta:
		return decodeMeta(b, i, &ev.EnsureStart().Meta)
	case fUsage:
		return decodeUsage(b, i, &ev.Usage, ks)
	case fArgs:
		end := skipValue(b, i, 0, ks)
		if end > 0 {
			ev.Args = append(json.RawMessage(nil), b[i:end]...)
		}
		return end
	case fArgsUnrecorded:
		return decodeBool(b, i, &ev.EnsureChange().ArgsUnrecorded)
	case fResultUnrecorded:
		return decodeBool(b, i, &ev.EnsureChange().ResultUnrecorded)
	case fReturned:
		return decodeStrings(b, i, &ev.EnsureChange().Returned, tab)
	case fAdded:
		return decodeStrings(b, i, &ev.EnsureChange().Added, tab)
	case fRemoved:
		return decodeStrings(b, i, &ev.EnsureChange().Removed, tab)
	}
	if p := intField(ev, f); p != nil {
		return decodeInt(b, i, p)
	}
	switch f {
	case fText, fSystemPrompt, fResult, fError, fQuery:
		tab = nil // free text: rarely repeated
	}
	return decodeString(b, i, stringField(ev, f), tab)
}

func intField(ev *Event, f int) *int64 {
	switch f {
	case fSystemPromptTokens:
		return &ev.EnsureStart().SystemPromptTokens
	case fTextTokens:
		return &ev.TextTokens
	case fTTFTMs:
		return &ev.TTFTMs
	case fDurationMs:
		return &ev.DurationMs
	case fResultBytes:
		return &ev.ResultBytes
	case fResultTokens:
		return &ev.ResultTokens
	}
	return nil
}

func stringField(ev *Event, f int) *string {
	switch f {
	case fSession:
		return &ev.Session
	case fModel:
		return &ev.EnsureStart().Model
	case fSystemPrompt:
		return &ev.EnsureStart().SystemPrompt
	case fRecordedStrategy:
		return &ev.EnsureStart().RecordedStrategy
	case fText:
		return &ev.Text
	case fID:
		return &ev.ID
	case fRequest:
		return &ev.Request
	case fCallID:
		return &ev.CallID
	case fTool:
		return &ev.Tool
	case fServer:
		return &ev.Server
	case fError:
		return &ev.Error
	case fResult:
		return &ev.Result
	case fQuery:
		return &ev.EnsureChange().Query
	case fVersion:
		return &ev.EnsureChange().Version
	}
	panic("traces: no string field for key bit") // topField and this list go together
}

// eventTypeNames and statusNames are the values decodeEnum shares instead
// of allocating a string per line.
var (
	eventTypeNames = func() []string {
		out := make([]string, len(KnownEventTypes))
		for i, t := range KnownEventTypes {
			out[i] = string(t)
		}
		return out
	}()
	statusNames = []string{StatusOK, StatusError, StatusRejected, StatusDenied}
)

// scanKey scans an object key at b[i] and returns its bytes and the offset
// after it; -1 for a key the fast path does not handle (escapes, non-ASCII
// bytes) or invalid JSON.
func scanKey(b []byte, i int) ([]byte, int) {
	if i >= len(b) || b[i] != '"' {
		return nil, -1
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, -1
		}
	}
	return nil, -1
}

// foldsTo reports whether key, which is not one of the keys known to
// field, matches one of them without regard to ASCII case — as
// encoding/json would match it.
func foldsTo(key []byte, field func([]byte) int) bool {
	var buf [32]byte
	if len(key) > len(buf) {
		return false // longer than every known key
	}
	upper := false
	for i, c := range key {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
			upper = true
		}
		buf[i] = c
	}
	return upper && field(buf[:len(key)]) >= 0
}

// decodeString decodes the JSON string (or null, leaving *dst) at b[i],
// through tab when it is not nil.
func decodeString(b []byte, i int, dst *string, tab *strtab) int {
	if i < len(b) && b[i] == 'n' {
		return skipLiteral(b, i, "null")
	}
	end, escaped := scanString(b, i)
	if end < 0 {
		return -1
	}
	body := b[i+1 : end-1]
	if !escaped {
		*dst = tab.str(body)
		return end
	}
	var sb strings.Builder
	sb.Grow(len(body))
	if !unescape(&sb, body) {
		return -1
	}
	*dst = sb.String()
	return end
}

// decodeEnum is decodeString sharing the string of a known value.
func decodeEnum(b []byte, i int, dst *string, known []string) int {
	end, escaped := scanString(b, i)
	if end > 0 && !escaped {
		body := b[i+1 : end-1]
		for _, k := range known {
			if string(body) == k {
				*dst = k
				return end
			}
		}
	}
	return decodeString(b, i, dst, nil)
}

// decodeBool decodes the literal true or false at b[i] into dst; it
// declines (-1) any other value.
func decodeBool(b []byte, i int, dst *bool) int {
	switch {
	case len(b)-i >= 4 && string(b[i:i+4]) == "true":
		*dst = true
		return i + 4
	case len(b)-i >= 5 && string(b[i:i+5]) == "false":
		*dst = false
		return i + 5
	}
	return -1
}

// strtab shares the strings of short values that repeat from line to line
// (session ids, request and call ids, tool and server names): one string
// each instead of one per line. It is a direct-mapped cache (a value
// replaces the one in its slot), so it is bounded and costs a hash and a
// comparison per value; it also keeps the last servers list decoded, which
// session_start lines repeat.
type strtab struct {
	seed  maphash.Seed
	slots [strtabSlots]string
	// servers is the raw JSON of the last "servers" list and its value.
	serversRaw []byte
	servers    []ServerRef
	// session is the id of the session the reader filed an event under
	// last (setSession), which the next line most likely names again: its
	// value is then this string, found without hashing or scanning.
	session string
	// times remembers the minute of the last "t" decoded.
	times minuteCache
}

const (
	strtabMaxLen = 48   // longer values are not shared
	strtabSlots  = 4096 // a power of two
)

func newStrtab() *strtab { return &strtab{seed: maphash.MakeSeed()} }

// str returns b as a string, shared when t holds it (t may be nil).
func (t *strtab) str(b []byte) string {
	if t == nil || len(b) > strtabMaxLen {
		return string(b)
	}
	slot := &t.slots[maphash.Bytes(t.seed, b)&(strtabSlots-1)]
	if *slot == string(b) {
		return *slot
	}
	s := string(b)
	*slot = s
	return s
}

// setSession makes id the session sameSession looks for, unless its JSON
// form could differ from its bytes (a quote, a backslash, a control
// character or a byte above 0x7F in it): then none.
func (t *strtab) setSession(id string) {
	if t.session == id {
		return
	}
	t.session = ""
	for k := range len(id) {
		if c := id[k]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return
		}
	}
	t.session = id
}

// sameSession returns the offset after the JSON string at b[i] when it
// is t.session written without escapes, else -1 (t may be nil).
func (t *strtab) sameSession(b []byte, i int) int {
	if t == nil || t.session == "" {
		return -1
	}
	end := i + len(t.session) + 2
	if end > len(b) || b[i] != '"' || b[end-1] != '"' || string(b[i+1:end-1]) != t.session {
		return -1
	}
	return end
}

// minutes returns t's cache of the last time's minute (nil when t is).
func (t *strtab) minutes() *minuteCache {
	if t == nil {
		return nil
	}
	return &t.times
}
