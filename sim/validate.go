package sim

import (
	"encoding/json"
	"sync"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/validation"
)

// ArgValidator decides whether arguments shaped for the schema the model
// sees satisfy the schema the server serves. It returns "" when they do,
// else one of the classes of package validation (ClassMissingRequired, …).
type ArgValidator interface {
	Check(seen, served json.RawMessage, args json.RawMessage) string
}

// RenamingValidator is an ArgValidator that can be told which properties
// of the seen schema the served one renamed (validation.Validator is one):
// the model seeing the old schema sends the old name.
type RenamingValidator interface {
	ArgValidator
	CheckRenamed(seen, served, args json.RawMessage, renames []validation.Rename) string
}

// renameMemo holds the renames between two tool definitions, by their ids.
type renameMemo struct {
	m sync.Map // [2]int32 → []validation.Rename
}

// renames returns the properties served renamed from seen
// (catalog.PropertyRenames), computed once per pair of definitions.
func (e *Engine) renames(seen, served *Tool) []validation.Rename {
	key := [2]int32{seen.id, served.id}
	if v, ok := e.renameMemo.m.Load(key); ok {
		return v.([]validation.Rename)
	}
	var out []validation.Rename
	for _, r := range catalog.PropertyRenames(
		&catalog.Tool{Name: seen.name, Description: seen.desc, InputSchema: seen.schema},
		&catalog.Tool{Name: served.name, Description: served.desc, InputSchema: served.schema}) {
		out = append(out, validation.Rename{Parent: r.Parent, Old: r.From, New: r.To})
	}
	e.renameMemo.m.Store(key, out)
	return out
}
