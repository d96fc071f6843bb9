package traces

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// A JSON object with a key twice is ambiguous: decoders keep the last
// value, so `{"type":"user",…,"type":"session_end"}` would be read as a
// session_end. The trace format, like the catalog loader, rejects it.
// findDuplicateKey walks a line that has already decoded (so it is valid
// JSON) once, without allocating for ordinary lines: it skips strings with
// bytes.IndexByte and compares each key with the earlier keys of its object.
// Keys of the event and of the objects decoded into its fields (usage,
// servers[i]) are compared as encoding/json matches field names (after
// unescaping, ignoring case); keys inside content (args, meta, …) exactly.

// dupKey describes a duplicate key: its name (unescaped), and the event
// field it lies in ("" at the top level).
type dupKey struct {
	key, field string
}

// reason is the line's problem. A key of the event or of usage or servers
// is a field name and is quoted; a key inside content (args, meta, …) is
// content and is not (docs/reliability.md, "Error messages").
func (d dupKey) reason() string {
	switch d.field {
	case "":
		return fmt.Sprintf("invalid JSON: duplicate key %q", d.key)
	case "usage", "servers":
		return fmt.Sprintf("invalid JSON: duplicate key %q in field %q", d.key, d.field)
	}
	return fmt.Sprintf("invalid JSON: duplicate key in field %q", d.field)
}

// maxKeyStack bounds the keys remembered without allocating; an object
// with more keys gets a map.
const maxKeyStack = 32

// keyScanner walks a line's containers; keys of the open objects are
// kept (as slices of the line) to compare new keys with.
type keyScanner struct {
	keys  [maxKeyStack]rawKey // keys of the open objects, innermost last
	nkeys int
	stack []container // open containers, innermost last
	field []byte      // the last key of the top-level object
}

// rawKey is a key as written, line[off:off+n]; plain says it is ASCII
// without escapes (so it equals another plain key only if it has the
// same length).
type rawKey struct {
	off, n uint32
	plain  bool
}

func (k rawKey) of(line []byte) []byte { return line[k.off : k.off+k.n] }

// container is an open object or array.
type container struct {
	array bool
	fold  bool  // objects: compare keys ignoring case (decoded into a struct)
	start int32 // objects: where their keys start in keys
	// seen has bit h%64 set for the hash h of every key of the object: a
	// key whose bit is clear is new without comparing it with the others.
	seen uint64
	set  map[string]bool
}

// findDuplicateKey returns the first key that appears twice in one object
// of line, which must be valid JSON.
func findDuplicateKey(line []byte) (dupKey, bool) {
	if bytes.Count(line, []byte{':'}) < 2 {
		return dupKey{}, false // fewer than two keys in the whole line
	}
	var stack [8]container
	s := keyScanner{stack: stack[:0]}
	expectKey := false // after '{', or ',' in an object
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			end := stringEnd(line, i)
			if expectKey {
				if d, dup := s.addKey(line, i+1, end); dup {
					return d, true
				}
				expectKey = false
			}
			i = end
		case '{':
			fold := len(s.stack) == 0
			if f := string(s.field); f == "usage" && len(s.stack) == 1 || f == "servers" && len(s.stack) == 2 {
				fold = true
			}
			s.stack = append(s.stack, container{start: int32(s.nkeys), fold: fold})
			expectKey = true
		case '[':
			s.stack = append(s.stack, container{array: true})
		case '}', ']':
			if n := len(s.stack); n > 0 {
				if !s.stack[n-1].array {
					s.nkeys = int(s.stack[n-1].start)
				}
				s.stack = s.stack[:n-1]
			}
		case ',':
			expectKey = len(s.stack) > 0 && !s.stack[len(s.stack)-1].array
		}
	}
	return dupKey{}, false
}

// addKey records raw (a key as written, without quotes) in the innermost
// object and reports whether the object already had it.
func (s *keyScanner) addKey(line []byte, off, end int) (dupKey, bool) {
	raw := line[off:end]
	o := &s.stack[len(s.stack)-1]
	if len(s.stack) == 1 {
		s.field = raw
	}
	if o.set == nil {
		h, plain := keyHash(raw, o.fold)
		k := rawKey{off: uint32(off), n: uint32(end - off), plain: plain}
		bit := uint64(1) << (h & 63)
		if o.seen&bit != 0 {
			for _, prev := range s.keys[o.start:s.nkeys] {
				if sameKey(line, prev, k, o.fold) {
					return s.dup(raw), true
				}
			}
		}
		o.seen |= bit
		if s.nkeys < maxKeyStack {
			s.keys[s.nkeys] = k
			s.nkeys++
			return dupKey{}, false
		}
		// Too many keys to compare pairwise: this object gets a map.
		o.set = map[string]bool{}
		for _, prev := range s.keys[o.start:s.nkeys] {
			o.set[keyOf(prev.of(line), o.fold)] = true
		}
	}
	k := keyOf(raw, o.fold)
	if o.set[k] {
		return s.dup(raw), true
	}
	o.set[k] = true
	return dupKey{}, false
}

// dup describes a duplicate of raw in the innermost object.
func (s *keyScanner) dup(raw []byte) dupKey {
	if len(s.stack) == 1 {
		return dupKey{key: unescapeKey(raw)}
	}
	return dupKey{key: unescapeKey(raw), field: unescapeKey(s.field)}
}

// keyHash hashes a key so that keys sameKey calls equal hash alike, and
// says whether it is plain (ASCII without escapes).
func keyHash(b []byte, fold bool) (uint64, bool) {
	h := uint64(14695981039346656037)
	for _, c := range b {
		if c == '\\' || c >= utf8.RuneSelf {
			return keyHashSlow(b, fold), false
		}
		if fold && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h ^ h>>32, true
}

// keyHashSlow hashes a key with escapes or non-ASCII bytes by its
// unescaped (and, when fold, lower-cased) form.
func keyHashSlow(b []byte, fold bool) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range []byte(keyOf(b, fold)) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h ^ h>>32
}

// sameKey compares two keys of line as written: exactly, or as
// encoding/json matches field names (case-insensitively, after unescaping).
func sameKey(line []byte, a, b rawKey, fold bool) bool {
	if a.plain && b.plain {
		if a.n != b.n {
			return false
		}
		if fold {
			return bytes.EqualFold(a.of(line), b.of(line))
		}
		return bytes.Equal(a.of(line), b.of(line))
	}
	return keyOf(a.of(line), fold) == keyOf(b.of(line), fold)
}

// keyOf is the unescaped key, lower-cased when fold.
func keyOf(raw []byte, fold bool) string {
	k := unescapeKey(raw)
	if fold {
		return string(bytes.ToLower([]byte(k)))
	}
	return k
}

// unescapeKey decodes a key's JSON escapes.
func unescapeKey(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	if json.Unmarshal(q, &s) != nil || !utf8.ValidString(s) {
		return string(raw)
	}
	return s
}

// stringEnd returns the index of the quote closing the string that opens
// at line[i].
func stringEnd(line []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(line[j:], '"')
		if k < 0 {
			return len(line) - 1
		}
		j += k
		// Count the backslashes before the quote: an odd number escapes it.
		n := 0
		for b := j - 1; b > i && line[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		j++
	}
}
