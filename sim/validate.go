package sim

import (
	"encoding/json"

	"github.com/defersim/defersim/validation"
)

// Classes of malformed calls (defined by package validation, the lower layer
// both the validator and the engine share).
const (
	ClassMissingRequired = validation.ClassMissingRequired
	ClassUnknownProperty = validation.ClassUnknownProperty
	ClassType            = validation.ClassType
	ClassEnum            = validation.ClassEnum
	ClassOther           = validation.ClassOther
)

// ArgValidator decides whether arguments shaped for the schema the model
// sees satisfy the schema the server serves. It returns "" when they do,
// else one of the Class constants.
type ArgValidator interface {
	Check(seen, served json.RawMessage, args json.RawMessage) string
}
