package validation

// Classes of malformed calls: the vocabulary a validator answers in and the
// engine counts in. The engine re-exports them (ClassType, …).
const (
	ClassMissingRequired = "missing_required"
	ClassUnknownProperty = "unknown_property"
	ClassType            = "type"
	ClassEnum            = "enum"
	ClassOther           = "other"
)
