package validation

import (
	"errors"
	"strings"

	"github.com/defersim/defersim/sim"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Failure is the deciding error of a failed validation.
type Failure struct {
	// Class is one of the sim.Class constants.
	Class string
	// Instance is the JSON pointer of the offending value in the shaped
	// arguments ("" for the root).
	Instance string
	// Keyword is the schema location of the failing keyword, relative to
	// the served schema ("#/properties/path/type").
	Keyword string
}

// classPriority orders the classes: when several leaves of the error tree
// fail, the earliest class in this list decides. A missing required
// property rejects a call whatever else is wrong; an unknown property is
// next most telling about drift (the served schema closed or lost a
// property); then a type mismatch, then a value outside an enum/const.
var classPriority = []string{sim.ClassMissingRequired, sim.ClassUnknownProperty, sim.ClassType, sim.ClassEnum, sim.ClassOther}

func rank(class string) int {
	for i, c := range classPriority {
		if c == class {
			return i
		}
	}
	return len(classPriority)
}

// Classify walks a validation error tree and returns its deciding leaf:
// among all leaves (errors without causes) the one of the highest-priority
// class, the first in the validator's order on ties. Leaves map to classes
// as follows:
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
// Container errors (the root, allOf, anyOf, oneOf without a match, $ref)
// only group their causes. An error that is not a *jsonschema.ValidationError
// is "other".
func Classify(err error) Failure {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return Failure{Class: sim.ClassOther}
	}
	best := Failure{Class: ""}
	walk(ve, 0, &best)
	if best.Class == "" {
		best = Failure{Class: sim.ClassOther, Instance: pointer(ve.InstanceLocation), Keyword: keyword(ve.SchemaURL)}
	}
	return best
}

// maxWalk bounds the error-tree recursion (trees are as deep as the
// schema, which Limits bounds already).
const maxWalk = 512

func walk(e *jsonschema.ValidationError, depth int, best *Failure) {
	if e == nil || depth > maxWalk {
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			walk(c, depth+1, best)
		}
		return
	}
	class := leafClass(e)
	if best.Class == "" || rank(class) < rank(best.Class) {
		*best = Failure{Class: class, Instance: pointer(e.InstanceLocation), Keyword: keyword(e.SchemaURL)}
	}
}

func leafClass(e *jsonschema.ValidationError) string {
	switch e.ErrorKind.(type) {
	case *kind.Required, *kind.DependentRequired, *kind.Dependency:
		return sim.ClassMissingRequired
	case *kind.AdditionalProperties:
		return sim.ClassUnknownProperty
	case *kind.FalseSchema:
		kw := keyword(e.SchemaURL)
		parent, last := lastTwo(kw)
		if last == "additionalProperties" || last == "unevaluatedProperties" || parent == "properties" {
			return sim.ClassUnknownProperty
		}
		return sim.ClassOther
	case *kind.Type:
		return sim.ClassType
	case *kind.Enum, *kind.Const:
		return sim.ClassEnum
	default:
		return sim.ClassOther
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
		sb.WriteString(strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return sb.String()
}
