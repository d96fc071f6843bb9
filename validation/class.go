package validation

// Classes of malformed calls: the vocabulary a validator answers in and the
// engine counts in. The engine re-exports them (ClassType, …).
const (
	ClassMissingRequired = "missing_required"
	ClassUnknownProperty = "unknown_property"
	ClassType            = "type"
	ClassEnum            = "enum"
	ClassOther           = "other"
	// ClassIgnoredArgument is not a failure of the served schema: the call
	// passes it, but carries an argument the served schema does not define
	// (a renamed or removed property of an object it leaves open), which
	// the server ignores — a silent failure rather than a rejected call.
	ClassIgnoredArgument = "ignored_argument"
)
