// Package sniff says which import format an input looks like, from each
// format's own distinguishing structure (rules.go). An import that fails
// on an input, or finds no session in it, adds what it found to the error
// ("…; it looks like claude-code (…); use --from claude-code"). The rules
// are conservative: an input that matches no rule, or the rules of two
// formats, looks like none, since a wrong hint is worse than none. Trace
// (trace.go) says whether an input is already a defersim trace, which no
// import takes. See docs/importers.md.
package sniff

import (
	"bytes"
	"encoding/json"

	"github.com/defersim/defersim/traces/importers/ingest"
)

// maxRecords bounds how many records (JSON values of the file, elements of
// a top-level array) the rules look at.
const maxRecords = 1000

// Sniff returns the import format data (decompressed) looks like and why
// (the structure found), or "", "" when it looks like none or like more
// than one.
func Sniff(data []byte) (format, why string) {
	found := map[string]string{}
	var order []string
	for _, r := range records(data) {
		for _, rule := range rules {
			if w := rule.match(r); w != "" {
				if _, ok := found[rule.format]; !ok {
					found[rule.format] = w
					order = append(order, rule.format)
				}
			}
		}
	}
	if len(order) != 1 {
		return "", ""
	}
	return order[0], found[order[0]]
}

// File sniffs the input at path (decompressed when gzip); an input that
// cannot be read looks like none.
func File(path string) (format, why string) {
	data, err := ingest.ReadFile(path)
	if err != nil {
		return "", ""
	}
	return Sniff(data)
}

// record is one unit the rules look at: an object, or a bare array of
// messages (objects with a "role").
type record struct {
	obj  map[string]json.RawMessage
	msgs []json.RawMessage
}

// records splits data into the records the rules look at: each JSON value
// of the file up to the first that does not parse (one for a JSON file,
// one per line for JSON Lines); a value that is an array is one record
// when its first element is a message, else each element is one.
func records(data []byte) []record {
	var out []record
	data = bytes.TrimPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(data))
	for len(out) < maxRecords {
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		switch ingest.FirstByte(v) {
		case '{':
			if obj := object(v); obj != nil {
				out = append(out, record{obj: obj})
			}
		case '[':
			var elems []json.RawMessage
			if json.Unmarshal(v, &elems) != nil || len(elems) == 0 {
				continue
			}
			if isMessage(elems[0]) {
				out = append(out, record{msgs: elems})
				continue
			}
			for _, e := range elems {
				if len(out) == maxRecords {
					break
				}
				if obj := object(e); obj != nil {
					out = append(out, record{obj: obj})
				}
			}
		}
	}
	return out
}

// object decodes raw as a JSON object; anything else gives nil.
func object(raw json.RawMessage) map[string]json.RawMessage {
	if ingest.FirstByte(raw) != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

func isMessage(raw json.RawMessage) bool {
	_, ok := object(raw)["role"]
	return ok
}
