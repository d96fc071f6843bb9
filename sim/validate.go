package sim

import "encoding/json"

// Classes of malformed calls.
const (
	ClassMissingRequired = "missing_required"
	ClassUnknownProperty = "unknown_property"
	ClassType            = "type"
	ClassEnum            = "enum"
	ClassOther           = "other"
)

// ArgValidator decides whether arguments shaped for the schema the model
// sees satisfy the schema the server serves. It returns "" when they do,
// else one of the Class constants.
type ArgValidator interface {
	Check(seen, served json.RawMessage, args json.RawMessage) string
}
