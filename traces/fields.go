package traces

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// isEventField reports whether name is a top-level field of trace v1.
func isEventField(name string) bool {
	switch name {
	case "v", "type", "session", "t",
		"model", "system_prompt", "system_prompt_tokens", "servers", "recorded_strategy", "meta",
		"text", "text_tokens",
		"id", "request", "ttft_ms", "duration_ms", "usage",
		"call_id", "tool", "server", "args", "status", "error", "result", "result_bytes", "result_tokens",
		"args_unrecorded", "result_unrecorded",
		"query", "returned",
		"version",
		"added", "removed":
		return true
	}
	return false
}

// isExtensionField reports whether name is a producer extension ("x_" prefix),
// which readers ignore.
func isExtensionField(name string) bool { return strings.HasPrefix(name, "x_") }

// checkFields appends the problems of a line's raw structure that decoding
// into Event cannot see: unknown fields, explicit nulls, "v": 0 and the
// fields of nested objects. line must already decode without error.
func checkFields(line []byte, probs []lineProblem) []lineProblem {
	var top map[string]json.RawMessage
	if json.Unmarshal(line, &top) != nil {
		return probs
	}
	probs = checkObject("", top, isEventField, nil, probs)
	if raw, ok := top["t"]; ok {
		var t string
		if json.Unmarshal(raw, &t) == nil && !isRFC3339(t) {
			probs = append(probs, lineProblem{kind: KindBadValue,
				reason: fmt.Sprintf("field \"t\": %q is not in RFC 3339 form (YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm))", t)})
		}
	}
	if v, ok := top["status"]; ok && string(v) == `""` {
		probs = append(probs, lineProblem{kind: KindBadValue,
			reason: `field "status": unknown status "" (want ok, error, rejected or denied)`})
	}
	if v, ok := top["v"]; ok && string(v) == "0" {
		probs = append(probs, lineProblem{kind: KindUnsupportedVersion,
			reason: fmt.Sprintf("unsupported format version 0 (this reader supports %d)", Version)})
	}
	if raw, ok := top["usage"]; ok && len(raw) > 0 && raw[0] == '{' {
		var usage map[string]json.RawMessage
		if json.Unmarshal(raw, &usage) == nil {
			probs = checkObject("usage.", usage, func(k string) bool {
				return k == "input" || k == "cache_read" || k == "cache_write" || k == "output"
			}, []string{"input", "output"}, probs)
		}
	}
	for _, name := range []string{"returned", "added", "removed"} {
		if raw, ok := top[name]; ok && len(raw) > 0 && raw[0] == '[' {
			var items []json.RawMessage
			if json.Unmarshal(raw, &items) == nil && slices.ContainsFunc(items, isNull) {
				probs = append(probs, lineProblem{kind: KindBadValue,
					reason: fmt.Sprintf("field %q: null is not allowed in the list", name)})
			}
		}
	}
	if raw, ok := top["meta"]; ok && len(raw) > 0 && raw[0] == '{' {
		var meta map[string]json.RawMessage
		if json.Unmarshal(raw, &meta) == nil {
			probs = checkObject("meta.", meta, func(string) bool { return true }, nil, probs)
		}
	}
	if raw, ok := top["servers"]; ok && len(raw) > 0 && raw[0] == '[' {
		var servers []map[string]json.RawMessage
		if json.Unmarshal(raw, &servers) == nil {
			for i, s := range servers {
				probs = checkObject(fmt.Sprintf("servers[%d].", i), s, func(k string) bool {
					return k == "name" || k == "version"
				}, nil, probs)
			}
		}
	}
	return probs
}

// checkObject reports unknown and null fields of obj (in key order) and
// missing required ones; prefix names the object in reasons.
func checkObject(prefix string, obj map[string]json.RawMessage, known func(string) bool,
	required []string, probs []lineProblem) []lineProblem {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch {
		case prefix == "" && isExtensionField(k):
		case !known(k):
			probs = append(probs, lineProblem{kind: KindUnknownField,
				reason: fmt.Sprintf("unknown field %q", prefix+k)})
		case isNull(obj[k]) && !(prefix == "" && k == "args"): // checkEvent reports args
			probs = append(probs, lineProblem{kind: KindBadValue,
				reason: fmt.Sprintf("field %q: null is not allowed", prefix+k)})
		}
	}
	for _, k := range required {
		if _, ok := obj[k]; !ok {
			probs = append(probs, lineProblem{kind: KindMissingField,
				reason: fmt.Sprintf("missing required field %q", prefix+k)})
		}
	}
	return probs
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(raw, []byte("null")) }

// isRFC3339 reports whether s has the exact shape of an RFC 3339 date-time:
// YYYY-MM-DDThh:mm:ss, optional fraction, then Z or ±hh:mm. (time.Parse is
// more lenient, e.g. about one-digit hours; ranges are checked by it.)
func isRFC3339(s string) bool {
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(shape)+1 {
		return false
	}
	for i := range len(shape) {
		c := s[i]
		switch shape[i] {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case 'T':
			if c != 'T' && c != 't' {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	rest := s[len(shape):]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	switch {
	case rest == "Z" || rest == "z":
		return true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		return isDigits(rest[1:3]) && isDigits(rest[4:6])
	}
	return false
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
