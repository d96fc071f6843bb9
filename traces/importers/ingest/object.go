package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Object is one JSON object of a source document, consumed member by member.
// Members left when the importer is done are reported as unmapped by Rest.
type Object struct {
	// Pos locates the object for error messages, with indices
	// ("simulations[3].messages[5]").
	Pos string
	// Field names the object generically for the report ("simulations[].messages[]").
	Field string
	m     map[string]json.RawMessage
}

// NewObject decodes raw as an object located at pos (errors) and field (report).
func NewObject(pos, field string, raw json.RawMessage) (*Object, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: want a JSON object: %w", posOrTop(pos), err)
	}
	if m == nil {
		return nil, fmt.Errorf("%s: want a JSON object, got null", posOrTop(pos))
	}
	return &Object{Pos: pos, Field: field, m: m}, nil
}

func posOrTop(pos string) string {
	if pos == "" {
		return "top level"
	}
	return pos
}

// Errorf returns an error located at the object.
func (o *Object) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s", posOrTop(o.Pos), fmt.Sprintf(format, args...))
}

func (o *Object) child(key string) (pos, field string) {
	pos, field = key, key
	if o.Pos != "" {
		pos = o.Pos + "." + key
	}
	if o.Field != "" {
		field = o.Field + "." + key
	}
	return pos, field
}

// Has reports whether the object has a non-null member key (taken or not).
func (o *Object) Has(key string) bool {
	v, ok := o.m[key]
	return ok && !IsNull(v)
}

// Peek returns member key without consuming it (nil when absent or null).
func (o *Object) Peek(key string) json.RawMessage {
	v := o.m[key]
	if IsNull(v) {
		return nil
	}
	return v
}

// PeekString returns member key as a string without consuming it ("" when
// absent, null or not a string).
func (o *Object) PeekString(key string) string {
	var s string
	if v := o.Peek(key); v != nil && json.Unmarshal(v, &s) == nil {
		return s
	}
	return ""
}

// PeekBool returns member key as a bool without consuming it (false when
// absent, null or not a bool).
func (o *Object) PeekBool(key string) bool {
	var b bool
	if v := o.Peek(key); v != nil && json.Unmarshal(v, &b) == nil {
		return b
	}
	return false
}

// Take consumes member key and returns it (nil when absent or null).
func (o *Object) Take(key string) json.RawMessage {
	v := o.m[key]
	delete(o.m, key)
	if IsNull(v) {
		return nil
	}
	return v
}

// Skip consumes members whose content the importer expresses otherwise
// (an index that only repeats the order, a copy of another field).
func (o *Object) Skip(keys ...string) {
	for _, k := range keys {
		delete(o.m, k)
	}
}

// TakeString consumes a string member ("" when absent or null).
func (o *Object) TakeString(key string) (string, error) {
	v := o.Take(key)
	if v == nil {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		p, _ := o.child(key)
		return "", fmt.Errorf("%s: want a string", p)
	}
	return s, nil
}

// TakeInt consumes an integer member, also accepting integral floats and
// decimal strings (OTLP writes 64-bit integers as strings). ok is false when
// the member is absent or null.
func (o *Object) TakeInt(key string) (n int64, ok bool, err error) {
	v := o.Take(key)
	if v == nil {
		return 0, false, nil
	}
	n, err = ParseInt(v)
	if err != nil {
		p, _ := o.child(key)
		return 0, false, fmt.Errorf("%s: %w", p, err)
	}
	return n, true, nil
}

// ParseInt reads an integer from a JSON number or a string holding one.
func ParseInt(v json.RawMessage) (int64, error) {
	t := bytes.TrimSpace(v)
	if len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return 0, errors.New("want an integer")
		}
		t = []byte(s)
	}
	if n, err := strconv.ParseInt(string(t), 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(string(t), 64)
	if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) || f > math.MaxInt64 || f < math.MinInt64 {
		return 0, errors.New("want an integer")
	}
	return int64(f), nil
}

// TakeFloat consumes a number member. ok is false when absent or null.
func (o *Object) TakeFloat(key string) (f float64, ok bool, err error) {
	v := o.Take(key)
	if v == nil {
		return 0, false, nil
	}
	if err := json.Unmarshal(v, &f); err != nil {
		p, _ := o.child(key)
		return 0, false, fmt.Errorf("%s: want a number", p)
	}
	return f, true, nil
}

// TakeBool consumes a boolean member. ok is false when absent or null.
func (o *Object) TakeBool(key string) (b bool, ok bool, err error) {
	v := o.Take(key)
	if v == nil {
		return false, false, nil
	}
	if err := json.Unmarshal(v, &b); err != nil {
		p, _ := o.child(key)
		return false, false, fmt.Errorf("%s: want a boolean", p)
	}
	return b, true, nil
}

// TakeObject consumes an object member (nil when absent or null).
func (o *Object) TakeObject(key string) (*Object, error) {
	v := o.Take(key)
	if v == nil {
		return nil, nil
	}
	pos, field := o.child(key)
	return NewObject(pos, field, v)
}

// TakeArray consumes an array member (nil when absent or null).
func (o *Object) TakeArray(key string) ([]json.RawMessage, error) {
	v := o.Take(key)
	if v == nil {
		return nil, nil
	}
	var a []json.RawMessage
	if err := json.Unmarshal(v, &a); err != nil {
		p, _ := o.child(key)
		return nil, fmt.Errorf("%s: want an array", p)
	}
	return a, nil
}

// Elem returns element i of array member key as an object located under o.
func (o *Object) Elem(key string, i int, raw json.RawMessage) (*Object, error) {
	pos, field := o.child(key)
	return NewObject(fmt.Sprintf("%s[%d]", pos, i), field+"[]", raw)
}

// Keys returns the members not yet consumed, sorted.
func (o *Object) Keys() []string {
	keys := make([]string, 0, len(o.m))
	for k := range o.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Rest reports every member not consumed and not empty as unmapped (or, for
// credential-bearing members and credentials nested inside unmapped ones, as
// dropped credentials), and consumes it.
func (o *Object) Rest(rep *Report) {
	for _, k := range o.Keys() {
		v := o.m[k]
		delete(o.m, k)
		if IsEmpty(v) {
			continue
		}
		_, field := o.child(k)
		if IsCredentialKey(k) || IsCredentialBlock(k) {
			rep.DropCredential(field)
			continue
		}
		rep.Unmap(field)
		ScanCredentials(field, v, rep)
	}
}

// IsNull reports whether raw is absent or JSON null.
func IsNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// IsEmpty reports whether raw carries no information: absent, null, "", [] or {}.
func IsEmpty(raw json.RawMessage) bool {
	if IsNull(raw) {
		return true
	}
	t := bytes.TrimSpace(raw)
	switch string(t) {
	case `""`, "[]", "{}":
		return true
	}
	if t[0] == '[' || t[0] == '{' {
		var c bytes.Buffer
		if json.Compact(&c, t) == nil {
			s := c.String()
			return s == "[]" || s == "{}"
		}
	}
	return false
}

// Compact returns raw without insignificant white space, or raw itself when
// it is not valid JSON.
func Compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return json.RawMessage(b.Bytes())
}
