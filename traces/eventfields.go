package traces

// The fields of StartFields and ChangeFields are read through these
// methods, which return the zero value when the event has no such fields
// (the pointer is nil), so that reading a field an event type does not
// carry never panics. They shadow the promoted fields of the same names:
// ev.Model does not compile where it would read through a nil pointer;
// write through EnsureStart and EnsureChange, or ev.StartFields.Model
// where the pointer is known to be set.

// EnsureStart returns e's session_start fields, allocating them when e has none.
func (e *Event) EnsureStart() *StartFields {
	if e.StartFields == nil {
		e.StartFields = &StartFields{}
	}
	return e.StartFields
}

// EnsureChange returns e's tool_search / catalog_change / deferral_change
// fields, allocating them when e has none.
func (e *Event) EnsureChange() *ChangeFields {
	if e.ChangeFields == nil {
		e.ChangeFields = &ChangeFields{}
	}
	return e.ChangeFields
}

// Model is the model of a session_start ("" when none).
func (e *Event) Model() string {
	if e.StartFields == nil {
		return ""
	}
	return e.StartFields.Model
}

// SystemPrompt is the system prompt of a session_start.
func (e *Event) SystemPrompt() string {
	if e.StartFields == nil {
		return ""
	}
	return e.StartFields.SystemPrompt
}

// SystemPromptTokens is the system prompt's size of a session_start.
func (e *Event) SystemPromptTokens() int64 {
	if e.StartFields == nil {
		return 0
	}
	return e.StartFields.SystemPromptTokens
}

// Servers are the connected servers of a session_start.
func (e *Event) Servers() []ServerRef {
	if e.StartFields == nil {
		return nil
	}
	return e.StartFields.Servers
}

// RecordedStrategy is the recording runtime's deferral rule of a session_start.
func (e *Event) RecordedStrategy() string {
	if e.StartFields == nil {
		return ""
	}
	return e.StartFields.RecordedStrategy
}

// Meta is the metadata of a session_start (nil when none).
func (e *Event) Meta() map[string]string {
	if e.StartFields == nil {
		return nil
	}
	return e.StartFields.Meta
}

// ArgsUnrecorded says a tool_call's arguments were not recorded.
func (e *Event) ArgsUnrecorded() bool {
	return e.ChangeFields != nil && e.ChangeFields.ArgsUnrecorded
}

// ResultUnrecorded says a tool_call's result was not recorded.
func (e *Event) ResultUnrecorded() bool {
	return e.ChangeFields != nil && e.ChangeFields.ResultUnrecorded
}

// Query is the query of a tool_search.
func (e *Event) Query() string {
	if e.ChangeFields == nil {
		return ""
	}
	return e.ChangeFields.Query
}

// Returned are the tools a tool_search returned.
func (e *Event) Returned() []string {
	if e.ChangeFields == nil {
		return nil
	}
	return e.ChangeFields.Returned
}

// Version is the server version of a catalog_change.
func (e *Event) Version() string {
	if e.ChangeFields == nil {
		return ""
	}
	return e.ChangeFields.Version
}

// Added are the tools a deferral_change added to the deferred set.
func (e *Event) Added() []string {
	if e.ChangeFields == nil {
		return nil
	}
	return e.ChangeFields.Added
}

// Removed are the tools a deferral_change removed from the deferred set.
func (e *Event) Removed() []string {
	if e.ChangeFields == nil {
		return nil
	}
	return e.ChangeFields.Removed
}
