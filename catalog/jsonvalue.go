package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/jsonpos"
)

// MaxDepth is the deepest nesting of JSON arrays and objects the package
// accepts in a tool definition. Deeper input is rejected with an error rather
// than risking unbounded recursion.
const MaxDepth = 512

// ErrTooDeep reports JSON nested deeper than MaxDepth.
var ErrTooDeep = errors.New("JSON nested too deeply")

// kind is the type of a parsed JSON value.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

// member is one key/value pair of a JSON object, in source order.
type member struct {
	key string
	val *value
}

// value is a parsed JSON value that keeps numbers exactly as written and
// object members in source order.
type value struct {
	kind    kind
	boolean bool
	text    string // number literal or decoded string
	items   []*value
	members []member
	// index finds the members of a large parsed object by key (get);
	// nil for small objects and for values built in code, which get
	// scans.
	index map[string]*value
	// sum caches digest(); hasSum says it is set.
	sum    [sha256.Size]byte
	hasSum bool
}

// parseValue parses exactly one JSON value from raw. Duplicate object keys
// are an error.
func parseValue(raw []byte) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parseNext(dec, 0)
	if err != nil {
		return nil, at(dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, at(dec, errors.New("unexpected data after the JSON value"))
		}
		return nil, at(dec, err)
	}
	return v, nil
}

// posError is a parse error with the byte offset in the input it was met
// at, for a message that points an editor at the place (jsonPlace).
type posError struct {
	err error
	off int64
}

func (e *posError) Error() string { return e.err.Error() }
func (e *posError) Unwrap() error { return e.err }

// at wraps err with where dec met it: a syntax error's own offset, else
// the decoder's input offset.
func at(dec *json.Decoder, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // the input ended inside a value
	}
	if off, ok := jsonpos.Offset(err); ok {
		return &posError{err: err, off: off}
	}
	return &posError{err: err, off: dec.InputOffset()}
}

// jsonPlace says where in data a parse error of parseValue or parseValues
// was met ("" for any other error): a file cut short says so, with its
// size; any other error its line, column and byte offset.
func jsonPlace(data []byte, err error) string {
	var pe *posError
	if !errors.As(err, &pe) {
		return ""
	}
	if errors.Is(err, io.ErrUnexpectedEOF) && len(bytes.TrimSpace(data)) == 0 {
		return fmt.Sprintf(" (the file holds no JSON value: %d bytes, none but white space)", len(data))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Sprintf(" (the file ends inside a JSON value, after %d bytes: it is cut short, or a bracket or quote is not closed)", len(data))
	}
	line, col := jsonpos.LineCol(data, pe.off)
	return fmt.Sprintf(" (line %d, column %d, byte offset %d)", line, col, pe.off)
}

// parseValues parses every JSON value of raw, one after another (JSON Lines,
// or values separated by any whitespace). Duplicate object keys are an error.
func parseValues(raw []byte) ([]*value, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []*value
	for {
		if len(out) > 0 && !dec.More() {
			if _, err := dec.Token(); err != io.EOF {
				if err == nil {
					return nil, at(dec, errors.New("unexpected data after the JSON value"))
				}
				return nil, at(dec, err)
			}
			return out, nil
		}
		v, err := parseNext(dec, 0)
		if err != nil {
			return nil, at(dec, err)
		}
		out = append(out, v)
	}
}

func parseNext(dec *json.Decoder, depth int) (*value, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return parseTok(dec, tok, depth)
}

func parseTok(dec *json.Decoder, tok json.Token, depth int) (*value, error) {
	switch t := tok.(type) {
	case nil:
		return &value{kind: kNull}, nil
	case bool:
		return &value{kind: kBool, boolean: t}, nil
	case json.Number:
		return &value{kind: kNumber, text: string(t)}, nil
	case string:
		return &value{kind: kString, text: t}, nil
	case json.Delim:
		if depth >= MaxDepth {
			return nil, fmt.Errorf("%w (more than %d levels)", ErrTooDeep, MaxDepth)
		}
		switch t {
		case '[':
			v := &value{kind: kArray}
			for dec.More() {
				item, err := parseNext(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, err
			}
			return v, nil
		case '{':
			v := &value{kind: kObject}
			seen := map[string]*value{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %T, not a string", kt)
				}
				if _, dup := seen[key]; dup {
					return nil, fmt.Errorf("duplicate key %q", key)
				}
				val, err := parseNext(dec, depth+1)
				if err != nil {
					return nil, err
				}
				seen[key] = val
				v.members = append(v.members, member{key: key, val: val})
			}
			if _, err := dec.Token(); err != nil { // '}'
				return nil, err
			}
			if len(v.members) > indexMembers {
				v.index = seen
			}
			return v, nil
		}
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// indexMembers is the size above which a parsed object keeps its members
// by key: comparing two objects member by member (a schema's properties)
// is then linear, not quadratic, in their size.
const indexMembers = 16

// get returns the member called key of an object, or nil.
func (v *value) get(key string) *value {
	if v == nil || v.kind != kObject {
		return nil
	}
	if v.index != nil {
		return v.index[key]
	}
	for _, m := range v.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// sortedMembers returns the object's members sorted by key (bytewise).
func (v *value) sortedMembers() []member {
	ms := slices.Clone(v.members)
	slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
	return ms
}

// appendCanonical appends the canonical form of v: object keys sorted
// bytewise, no insignificant whitespace, numbers as written, strings with
// minimal escaping.
func (v *value) appendCanonical(dst []byte) []byte {
	switch v.kind {
	case kNull:
		return append(dst, "null"...)
	case kBool:
		if v.boolean {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case kNumber:
		return append(dst, v.text...)
	case kString:
		return appendString(dst, v.text)
	case kArray:
		dst = append(dst, '[')
		for i, it := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = it.appendCanonical(dst)
		}
		return append(dst, ']')
	default:
		dst = append(dst, '{')
		for i, m := range v.sortedMembers() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, m.key)
			dst = append(dst, ':')
			dst = m.val.appendCanonical(dst)
		}
		return append(dst, '}')
	}
}

// canonical returns the canonical bytes of v.
func (v *value) canonical() []byte { return v.appendCanonical(nil) }

// digest returns a SHA-256 that identifies v's canonical form: two values
// have equal digests exactly when their canonical bytes are equal (barring
// hash collisions). It is computed once per value from the children's
// digests, so comparing every subtree of a schema costs linear time and
// constant memory per value. A value tree must not be used from several
// goroutines at once.
func (v *value) digest() [sha256.Size]byte {
	if v.hasSum {
		return v.sum
	}
	h := sha256.New()
	var lenBuf [8]byte
	writeText := func(s string) {
		binary.BigEndian.PutUint64(lenBuf[:], uint64(len(s)))
		h.Write(lenBuf[:])
		h.Write([]byte(s))
	}
	h.Write([]byte{byte(v.kind)})
	switch v.kind {
	case kBool:
		if v.boolean {
			h.Write([]byte{1})
		} else {
			h.Write([]byte{0})
		}
	case kNumber, kString:
		writeText(v.text)
	case kArray:
		binary.BigEndian.PutUint64(lenBuf[:], uint64(len(v.items)))
		h.Write(lenBuf[:])
		for _, it := range v.items {
			d := it.digest()
			h.Write(d[:])
		}
	case kObject:
		ms := v.sortedMembers()
		binary.BigEndian.PutUint64(lenBuf[:], uint64(len(ms)))
		h.Write(lenBuf[:])
		for _, m := range ms {
			writeText(m.key)
			d := m.val.digest()
			h.Write(d[:])
		}
	}
	h.Sum(v.sum[:0])
	v.hasSum = true
	return v.sum
}

// appendCompact appends v compactly with members in source order.
func (v *value) appendCompact(dst []byte) []byte {
	if v.kind != kObject {
		if v.kind != kArray {
			return v.appendCanonical(dst)
		}
		dst = append(dst, '[')
		for i, it := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = it.appendCompact(dst)
		}
		return append(dst, ']')
	}
	dst = append(dst, '{')
	for i, m := range v.members {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, m.key)
		dst = append(dst, ':')
		dst = m.val.appendCompact(dst)
	}
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Only '"', '\\' and control
// characters are escaped (\b \f \n \r \t, else \u00XX); everything else,
// including '<', '>', '&' and non-ASCII text, is written as UTF-8. s is valid
// UTF-8 (the decoder replaces invalid bytes with U+FFFD).
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
