package toolschema

import (
	"encoding/json"
	"sort"
)

// Fidelity says how faithfully a schema source reproduces the tool
// definitions the recording model saw.
type Fidelity string

const (
	// Exact: the definitions as the source records them ("" in a Set).
	Exact Fidelity = ""
	// Approximate: definitions derived or taken from elsewhere: rebuilt
	// from documentation, a simplified listing, another version of the
	// same tools. Names are right; descriptions, types and details may
	// differ from what the model saw.
	Approximate Fidelity = "approximate"
	// Missing: the source shows the tool was offered but records no
	// schema; the catalog holds its name (and description when known)
	// with the stand-in input schema {"type":"object"}.
	Missing Fidelity = "missing"
)

// Members of a tool's _meta that carry its fidelity in a written catalog.
const (
	MetaFidelity = "defersim/schema"
	MetaNote     = "defersim/schema_note"
)

// Mark returns t with its fidelity (and a note saying why) in _meta, other
// _meta members kept. An exact fidelity leaves t unchanged.
func Mark(t Tool, f Fidelity, note string) Tool {
	if f == Exact {
		return t
	}
	m := map[string]json.RawMessage{}
	if len(t.Meta) > 0 {
		if err := json.Unmarshal(t.Meta, &m); err != nil || m == nil {
			m = map[string]json.RawMessage{}
		}
	}
	m[MetaFidelity], _ = json.Marshal(string(f))
	if note != "" {
		m[MetaNote], _ = json.Marshal(note)
	} else {
		delete(m, MetaNote)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		b = append(b, kb...)
		b = append(b, ':')
		b = append(b, m[k]...)
	}
	t.Meta = append(b, '}')
	return t
}

// FidelityOf returns the fidelity a tool's _meta records (Exact when none)
// and its note.
func FidelityOf(t *Tool) (Fidelity, string) {
	if len(t.Meta) == 0 {
		return Exact, ""
	}
	var m struct {
		F string `json:"defersim/schema"`
		N string `json:"defersim/schema_note"`
	}
	if json.Unmarshal(t.Meta, &m) != nil {
		return Exact, ""
	}
	return Fidelity(m.F), m.N
}

// Placeholder returns the catalog entry of a tool the source shows but
// gives no schema for: its name, its description when known, the stand-in
// input schema, marked Missing with note.
func Placeholder(name, description, note string) Tool {
	return Mark(Tool{Name: name, Description: description, InputSchema: emptySchema}, Missing, note)
}
