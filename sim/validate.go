package sim

import "encoding/json"

// ArgValidator decides whether arguments shaped for the schema the model
// sees satisfy the schema the server serves. It returns "" when they do,
// else one of the classes of package validation (ClassMissingRequired, …).
type ArgValidator interface {
	Check(seen, served json.RawMessage, args json.RawMessage) string
}
