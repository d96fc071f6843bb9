package validation

import (
	"errors"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Failure is the deciding error of a failed validation.
type Failure struct {
	// Class is one of the Class constants.
	Class string
	// Instance is the JSON pointer of the offending value in the shaped
	// arguments ("" for the root).
	Instance string
	// Keyword is the location of the failing keyword in the served schema
	// ("#/properties/path/type").
	Keyword string
}

// classPriority orders the classes: when several leaves of the error tree
// fail, the earliest class in this list decides. A missing required
// property rejects a call whatever else is wrong; an unknown property is
// next most telling about drift (the served schema closed or lost a
// property); then a type mismatch, then a value outside an enum/const.
var classPriority = []string{ClassMissingRequired, ClassUnknownProperty, ClassType, ClassEnum, ClassOther}

func rank(class string) int {
	for i, c := range classPriority {
		if c == class {
			return i
		}
	}
	return len(classPriority)
}

// Classify walks a validation error tree and returns its deciding leaf.
// Leaves (errors without causes) map to classes as follows:
//
//	required, dependentRequired, dependencies   → missing_required
//	additionalProperties (false)                → unknown_property
//	false schema under additionalProperties,
//	unevaluatedProperties or properties/<name>  → unknown_property
//	type                                        → type
//	enum, const                                 → enum
//	anything else (format, pattern, bounds,
//	oneOf matching twice, not, $ref cycle, …)   → other
//
// Where several leaves fail together (allOf, several keywords, several
// properties) the highest-priority class decides (classPriority), the first
// in the validator's order on ties. Where alternatives all fail (anyOf,
// oneOf) the branch the value came closest to matching decides: a branch
// for the value's kind (one whose deciding failure is not a type mismatch
// on the value itself), then the one with the fewest failing leaves, then
// the higher-priority class, then the first. An error that is not a *jsonschema.ValidationError is "other".
func Classify(err error) Failure {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return Failure{Class: ClassOther}
	}
	f, _ := decide(ve, 0)
	if f.Class == "" {
		f = Failure{Class: ClassOther, Instance: pointer(ve.InstanceLocation), Keyword: keyword(ve.SchemaURL)}
	}
	return f
}

// maxWalk bounds the error-tree recursion (trees are as deep as the
// schema, which Limits bounds already).
const maxWalk = 512

// decide returns the deciding failure under e and how many leaves fail
// under it.
func decide(e *jsonschema.ValidationError, depth int) (Failure, int) {
	if e == nil || depth > maxWalk {
		return Failure{}, 0
	}
	if len(e.Causes) == 0 {
		return Failure{Class: leafClass(e), Instance: pointer(e.InstanceLocation), Keyword: leafKeyword(e)}, 1
	}
	_, alternatives := e.ErrorKind.(*kind.AnyOf)
	if _, ok := e.ErrorKind.(*kind.OneOf); ok {
		alternatives = true
	}
	self := pointer(e.InstanceLocation)
	var best Failure
	bestN, total := 0, 0
	bestWrongKind := false
	for _, c := range e.Causes {
		f, n := decide(c, depth+1)
		total += n
		if f.Class == "" {
			continue
		}
		better := best.Class == "" || rank(f.Class) < rank(best.Class)
		if alternatives {
			// A branch for another kind of value (its type fails on the
			// value itself) is the last resort.
			wrongKind := f.Class == ClassType && f.Instance == self
			switch {
			case best.Class == "" || wrongKind != bestWrongKind:
				better = best.Class == "" || !wrongKind
			case n != bestN:
				better = n < bestN
			}
			if better {
				bestWrongKind = wrongKind
			}
		}
		if better {
			best, bestN = f, n
		}
	}
	if alternatives {
		return best, bestN
	}
	return best, total
}

// leafKeyword is the location of a leaf's failing keyword in its schema.
func leafKeyword(e *jsonschema.ValidationError) string {
	kw := keyword(e.SchemaURL)
	if p := e.ErrorKind.KeywordPath(); len(p) > 0 {
		kw += "/" + strings.Join(p, "/")
	}
	return kw
}

func leafClass(e *jsonschema.ValidationError) string {
	switch e.ErrorKind.(type) {
	case *kind.Required, *kind.DependentRequired, *kind.Dependency:
		return ClassMissingRequired
	case *kind.AdditionalProperties:
		return ClassUnknownProperty
	case *kind.FalseSchema:
		kw := keyword(e.SchemaURL)
		parent, last := lastTwo(kw)
		if last == "additionalProperties" || last == "unevaluatedProperties" || parent == "properties" {
			return ClassUnknownProperty
		}
		return ClassOther
	case *kind.Type:
		return ClassType
	case *kind.Enum, *kind.Const:
		return ClassEnum
	default:
		return ClassOther
	}
}

// keyword returns the fragment of a schema URL ("#/properties/a/type").
func keyword(url string) string {
	if i := strings.IndexByte(url, '#'); i >= 0 {
		return url[i:]
	}
	return "#"
}

func lastTwo(kw string) (parent, last string) {
	parts := strings.Split(kw, "/")
	if n := len(parts); n >= 2 {
		return parts[n-2], parts[n-1]
	}
	return "", ""
}

// pointer renders an instance location as a JSON pointer.
func pointer(loc []string) string {
	var sb strings.Builder
	for _, p := range loc {
		sb.WriteByte('/')
		sb.WriteString(escapePointer(p))
	}
	return sb.String()
}
