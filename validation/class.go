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
	// ClassSchemaInvalid is not a failure of the call either: the served
	// schema cannot check it (it is not JSON, breaks a limit, or does not
	// compile: most often it fails its meta-schema, CheckSchema). The
	// catalog is what is broken, so the engine does not count the call as
	// malformed.
	ClassSchemaInvalid = "schema_invalid"
)
