package catalog

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Class is how disruptive a change is, ordered from least to most severe.
type Class int

// Drift classes. The order is the severity order used for a tool's overall
// class: metadata does not reach the model in the wire forms, a description
// does, a compatible schema change alters what the model may send, and a
// breaking one can make previously valid arguments invalid.
const (
	ClassNone Class = iota
	ClassMetadataOnly
	ClassDescriptionOnly
	ClassSchemaCompatible
	ClassBreaking
)

var classNames = [...]string{"none", "metadata-only", "description-only", "schema-compatible", "breaking"}

// String returns the class name used in reports and JSON.
func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return fmt.Sprintf("class(%d)", int(c))
	}
	return classNames[c]
}

// MarshalText writes the class name.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a class name.
func (c *Class) UnmarshalText(b []byte) error {
	i := slices.Index(classNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("unknown drift class %q", b)
	}
	*c = Class(i)
	return nil
}

// Change is one located difference inside a tool.
type Change struct {
	// Path is the JSON path inside the tool object, e.g.
	// "inputSchema.properties.url.type"; keys that are not plain identifiers
	// are quoted (properties["a.b"]), array elements indexed (anyOf[1]).
	Path string `json:"path"`
	// Kind names the change, e.g. "type-changed", "required-added"; Kinds
	// lists them all with their class.
	Kind  Kind  `json:"kind"`
	Class Class `json:"class"`
	// Detail is a short summary (values, sizes); never a whole text.
	Detail string `json:"detail,omitempty"`
}

// ToolChange is a tool served by both sides whose definition differs.
type ToolChange struct {
	Name string `json:"name"`
	// Class is the most severe class among Changes.
	Class Class `json:"class"`
	// Classes lists the distinct classes present, least severe first.
	Classes         []Class  `json:"classes"`
	Changes         []Change `json:"changes"`
	FromFingerprint string   `json:"from_fingerprint"`
	ToFingerprint   string   `json:"to_fingerprint"`
}

// DescriptionChanged reports whether the tool's own description changed.
func (tc ToolChange) DescriptionChanged() bool {
	return slices.ContainsFunc(tc.Changes, func(c Change) bool { return c.Path == "description" })
}

// SchemaChanged reports whether anything under inputSchema changed.
func (tc ToolChange) SchemaChanged() bool {
	return slices.ContainsFunc(tc.Changes, func(c Change) bool { return isSchemaPath(c.Path) })
}

// DiffResult is the drift from one server version to another.
type DiffResult struct {
	From string `json:"from"`
	To   string `json:"to"`
	// FromTools and ToTools are the tool counts of each side.
	FromTools int `json:"from_tools"`
	ToTools   int `json:"to_tools"`
	// Added and Removed are tool names, sorted.
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// Changed lists tools on both sides whose fingerprints differ, by name.
	Changed   []ToolChange `json:"changed"`
	Unchanged int          `json:"unchanged"`
	// Class is the most severe class of any change; removing a tool counts
	// as breaking, adding one as schema-compatible.
	Class Class `json:"class"`
	// ByClass counts changed tools by their overall class.
	ByClass map[string]int `json:"by_class"`
	// Notes says why the comparison is likely not the one meant
	// (DiffNotes); Diff leaves it empty, the diff command fills it.
	Notes []string `json:"notes,omitempty"`
	// Tokens is the diff's token cost (DiffTokens); Diff leaves it nil,
	// the diff command fills it.
	Tokens *TokenDelta `json:"tokens,omitempty"`
}

// Diff compares a (older) with b (newer). Tools are matched by name.
func Diff(a, b *Server) DiffResult {
	r := DiffResult{From: label(a), To: label(b), ByClass: map[string]int{}}
	aTools, bTools := tools(a), tools(b)
	r.FromTools, r.ToTools = len(aTools), len(bTools)
	aBy := map[string]*Tool{}
	for _, t := range aTools {
		aBy[t.Name] = t
	}
	bBy := map[string]*Tool{}
	for _, t := range bTools {
		bBy[t.Name] = t
	}
	for name := range aBy {
		if bBy[name] == nil {
			r.Removed = append(r.Removed, name)
		}
	}
	for name, bt := range bBy {
		at := aBy[name]
		if at == nil {
			r.Added = append(r.Added, name)
			continue
		}
		tc, changed := DiffTool(at, bt)
		if !changed {
			r.Unchanged++
			continue
		}
		r.Changed = append(r.Changed, tc)
		r.ByClass[tc.Class.String()]++
		r.Class = max(r.Class, tc.Class)
	}
	slices.Sort(r.Added)
	slices.Sort(r.Removed)
	slices.SortFunc(r.Changed, func(x, y ToolChange) int { return strings.Compare(x.Name, y.Name) })
	if len(r.Added) > 0 {
		r.Class = max(r.Class, ClassSchemaCompatible)
	}
	if len(r.Removed) > 0 {
		r.Class = max(r.Class, ClassBreaking)
	}
	if r.Added == nil {
		r.Added = []string{}
	}
	if r.Removed == nil {
		r.Removed = []string{}
	}
	if r.Changed == nil {
		r.Changed = []ToolChange{}
	}
	return r
}

func label(s *Server) string {
	if s == nil {
		return ""
	}
	return s.Label()
}

func tools(s *Server) []*Tool {
	if s == nil {
		return nil
	}
	return s.Tools
}

// DiffTool compares two definitions of a tool. changed is false when their
// canonical JSON is identical.
func DiffTool(a, b *Tool) (tc ToolChange, changed bool) {
	tc = ToolChange{Name: b.Name, FromFingerprint: a.Fingerprint, ToFingerprint: b.Fingerprint}
	av, aerr := toolValue(a)
	bv, berr := toolValue(b)
	if aerr != nil || berr != nil {
		// Unparseable definitions (only possible for hand-built tools):
		// compare bytes and call any difference breaking.
		if sameBytes(a, b) {
			return tc, false
		}
		tc.Changes = []Change{{Path: "", Kind: KindUnparseable, Class: ClassOf(KindUnparseable)}}
		tc.finish()
		return tc, true
	}
	if av.digest() == bv.digest() {
		return tc, false
	}
	budget := maxSteps
	w := &walker{budget: &budget, refs: map[[2]string]bool{}}
	w.tool(av, bv)
	if len(w.changes) == 0 {
		w.add("", KindChanged, "")
	}
	tc.Changes = w.changes
	tc.finish()
	return tc, true
}

// sameBytes compares the stored bytes of two tools.
func sameBytes(a, b *Tool) bool {
	if len(a.Raw) > 0 || len(b.Raw) > 0 {
		return bytes.Equal(a.Raw, b.Raw)
	}
	return a.Name == b.Name && a.Description == b.Description &&
		bytes.Equal(a.InputSchema, b.InputSchema) && bytes.Equal(a.Annotations, b.Annotations)
}

// finish sorts changes by path and kind and derives the classes.
func (tc *ToolChange) finish() {
	slices.SortStableFunc(tc.Changes, func(x, y Change) int {
		if c := strings.Compare(x.Path, y.Path); c != 0 {
			return c
		}
		return strings.Compare(string(x.Kind), string(y.Kind))
	})
	var seen [len(classNames)]bool
	for _, c := range tc.Changes {
		seen[c.Class] = true
		tc.Class = max(tc.Class, c.Class)
	}
	tc.Classes = nil
	for i, ok := range seen {
		if ok {
			tc.Classes = append(tc.Classes, Class(i))
		}
	}
}

// toolValue parses a tool's Raw, or rebuilds it from the typed fields for a
// tool built in memory without Raw.
func toolValue(t *Tool) (*value, error) {
	if len(t.Raw) > 0 {
		return parseValue(t.Raw)
	}
	obj := &value{kind: kObject}
	obj.members = append(obj.members, member{key: "name", val: &value{kind: kString, text: t.Name}})
	if t.Description != "" {
		obj.members = append(obj.members, member{key: "description", val: &value{kind: kString, text: t.Description}})
	}
	for _, f := range []struct {
		key string
		raw []byte
	}{{"inputSchema", t.InputSchema}, {"annotations", t.Annotations}} {
		if len(f.raw) == 0 {
			continue
		}
		v, err := parseValue(f.raw)
		if err != nil {
			return nil, err
		}
		obj.members = append(obj.members, member{key: f.key, val: v})
	}
	return obj, nil
}
