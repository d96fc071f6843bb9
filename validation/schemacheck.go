package validation

import (
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaIssue says why a tool's input schema cannot check calls: it does
// not compile, as Validate compiles a served schema (the same draft,
// loader and pattern rules), most often because it fails its draft's
// meta-schema (`"type": "dict"`, `"type": "float"`).
type SchemaIssue struct {
	// Pointer is the JSON pointer of the offending member in the schema
	// ("" for the whole schema, or when the failure has no place).
	Pointer string `json:"pointer"`
	// Value is the offending member's value, compact JSON (cut to
	// maxIssueValue bytes), when Pointer finds one.
	Value string `json:"value,omitempty"`
	// Reason says what is wrong there.
	Reason string `json:"reason"`
}

// maxIssueValue bounds SchemaIssue.Value.
const maxIssueValue = 60

// String is "pointer (value): reason" ("reason" without a pointer).
func (i SchemaIssue) String() string {
	switch {
	case i.Pointer == "":
		return i.Reason
	case i.Value == "":
		return i.Pointer + ": " + i.Reason
	}
	return i.Pointer + " (" + i.Value + "): " + i.Reason
}

// CheckSchema reports whether schema can check calls: ok when it compiles
// (an empty or null schema accepts anything and is ok), else the issue
// that prevents it. A served schema with an issue makes Validate return
// ClassSchemaInvalid.
func CheckSchema(schema []byte) (SchemaIssue, bool) {
	if isEmptyJSON(schema) {
		return SchemaIssue{}, true
	}
	c := &compiled{}
	c.build(schema, DefaultLimits())
	if c.schErr == nil {
		return SchemaIssue{}, true
	}
	issue := schemaIssue(c.schErr)
	if issue.Pointer != "" && c.doc != nil {
		if v, ok := (resolver{root: c.doc}).lookup("#" + issue.Pointer); ok {
			if b, err := json.Marshal(v); err == nil {
				issue.Value = string(b)
				if len(b) > maxIssueValue {
					issue.Value = strings.ToValidUTF8(string(b[:maxIssueValue]), "") + "…"
				}
			}
		}
	}
	return issue, false
}

// SchemaCheck is CheckSchema as catalog.Notes takes it (a
// catalog.SchemaCheck): the issue as "pointer: reason".
func SchemaCheck(schema []byte) (issue string, ok bool) {
	i, ok := CheckSchema(schema)
	if ok {
		return "", true
	}
	if i.Pointer == "" {
		return "the root: " + i.Reason, false
	}
	return i.String(), false
}

// english renders the validator's messages.
var english = message.NewPrinter(language.English)

// schemaIssue locates a compile error: for a schema failing its
// meta-schema, the deciding leaf (Classify's choice: the branch of an
// anyOf meant for the value) and its message; else the error's text.
func schemaIssue(err error) SchemaIssue {
	var se *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if !errors.As(err, &se) || !errors.As(se.Err, &ve) {
		// The schema's in-memory name means nothing to the user: a
		// reference into it is written from its "#".
		return SchemaIssue{Reason: strings.ReplaceAll(strings.TrimPrefix(err.Error(), "compile schema: "), schemaURL, "")}
	}
	sortCauses(ve, 0)
	f := Classify(ve)
	if leaf := findLeaf(ve, f); leaf != nil {
		if _, enum := leaf.ErrorKind.(*kind.Enum); enum && strings.HasSuffix(f.Instance, "/type") {
			// The meta-schema's list of the seven types, said shortly.
			return SchemaIssue{Pointer: f.Instance, Reason: "not a JSON Schema type"}
		}
		return SchemaIssue{Pointer: f.Instance, Reason: leaf.ErrorKind.LocalizedString(english)}
	}
	return SchemaIssue{Pointer: f.Instance, Reason: "fails its meta-schema"}
}

// sortCauses orders the causes of every node of e by where they fail (the
// instance's pointer, then the keyword's location): the validator walks an
// object's members in map order, so without it the issue named for a
// schema with two bad members would change from run to run.
func sortCauses(e *jsonschema.ValidationError, depth int) {
	if depth > maxWalk {
		return
	}
	for _, c := range e.Causes {
		sortCauses(c, depth+1)
	}
	slices.SortStableFunc(e.Causes, func(a, b *jsonschema.ValidationError) int {
		return cmp.Or(slices.Compare(a.InstanceLocation, b.InstanceLocation), cmp.Compare(a.SchemaURL, b.SchemaURL))
	})
}

// findLeaf returns the leaf of e that Classify decided on f (its instance
// and keyword), or nil.
func findLeaf(e *jsonschema.ValidationError, f Failure) *jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		if pointer(e.InstanceLocation) == f.Instance && leafKeyword(e) == f.Keyword {
			return e
		}
		return nil
	}
	for _, c := range e.Causes {
		if l := findLeaf(c, f); l != nil {
			return l
		}
	}
	return nil
}
