// Package traces defines defersim's trace format v1 (JSONL, one event per
// line, optionally gzip-compressed), a streaming reader and writer, and
// validation. See docs/trace-format.md for the format specification.
package traces

import (
	"encoding/json"
	"time"
)

// Version is the trace format version this package reads and writes.
const Version = 1

// EventType names the kind of one trace line.
type EventType string

// The event types of trace format v1.
const (
	// SessionStart opens a session: id, time, model, system prompt, connected servers.
	SessionStart EventType = "session_start"
	// UserMessage is a user turn.
	UserMessage EventType = "user"
	// ModelRequest is one request to the model, with timings and usage when recorded.
	ModelRequest EventType = "model_request"
	// AssistantMessage is text the model produced (visible to the user).
	AssistantMessage EventType = "assistant"
	// ToolCall is a call the model made, with its raw arguments and result.
	ToolCall EventType = "tool_call"
	// ToolSearch is a tool_search call made by the recording runtime.
	ToolSearch EventType = "tool_search"
	// CatalogChange says a server is now at another version.
	CatalogChange EventType = "catalog_change"
	// DeferralChange records the recording runtime's deferred set changing.
	DeferralChange EventType = "deferral_change"
	// SessionEnd closes a session.
	SessionEnd EventType = "session_end"
)

// KnownEventTypes lists every event type of format v1, in documentation order.
var KnownEventTypes = []EventType{SessionStart, UserMessage, ModelRequest, AssistantMessage,
	ToolCall, ToolSearch, CatalogChange, DeferralChange, SessionEnd}

// ServerRef names one MCP server and the catalog version a session uses.
type ServerRef struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Usage is the token usage a provider reported for one model request.
// Input is the uncached input; the total prompt is Input+CacheRead+CacheWrite.
type Usage struct {
	Input      int64 `json:"input"`
	CacheRead  int64 `json:"cache_read,omitempty"`
	CacheWrite int64 `json:"cache_write,omitempty"`
	Output     int64 `json:"output"`
}

// Event is one line of a trace. Which fields are meaningful depends on Type;
// docs/trace-format.md lists them per type. Fields absent from a line are zero.
//
// The fields of session_start (StartFields) and of tool_search,
// catalog_change and deferral_change (ChangeFields) are behind pointers, nil
// when the line has none of their keys, so that the other events are
// smaller. Read them through the methods of the same names (ev.Model(),
// ev.Servers(): the zero value when the pointer is nil), and write them
// through EnsureStart and EnsureChange. A copy of an Event shares these
// pointers: give the copy its own (ev.StartFields = &fieldsCopy) before
// changing its fields. The JSON form is unchanged: the fields are written
// and read at the top level, where they were.
type Event struct {
	// V is the format version; required on session_start, optional elsewhere.
	V       int       `json:"v,omitempty"`
	Type    EventType `json:"type"`
	Session string    `json:"session"`
	// T is the event's wall-clock time (RFC 3339). For model_request it is the
	// request start; for tool_call the call start.
	T time.Time `json:"t"`

	// session_start (nil when the line has none of these keys).
	*StartFields

	// user, assistant: text, or only its size when the text was not kept.
	Text       string `json:"text,omitempty"`
	TextTokens int64  `json:"text_tokens,omitempty"`

	// model_request; assistant, tool_call and tool_search carry the id of the
	// request that produced them in Request.
	ID         string `json:"id,omitempty"`
	Request    string `json:"request,omitempty"`
	TTFTMs     int64  `json:"ttft_ms,omitempty"`
	DurationMs int64  `json:"duration_ms,omitempty"`
	Usage      *Usage `json:"usage,omitempty"`

	// tool_call
	CallID       string          `json:"call_id,omitempty"`
	Tool         string          `json:"tool,omitempty"`
	Server       string          `json:"server,omitempty"`
	Args         json.RawMessage `json:"args,omitempty"`
	Status       string          `json:"status,omitempty"` // ok | error | rejected | denied
	Error        string          `json:"error,omitempty"`
	Result       string          `json:"result,omitempty"`
	ResultBytes  int64           `json:"result_bytes,omitempty"`
	ResultTokens int64           `json:"result_tokens,omitempty"`

	// tool_search, catalog_change, deferral_change (nil when the line has
	// none of these keys).
	*ChangeFields
}

// StartFields are the fields of session_start lines. They are behind a
// pointer in Event, which the other event types (most of a trace's lines)
// leave nil: an Event is 80 bytes smaller.
type StartFields struct {
	Model              string      `json:"model,omitempty"`
	SystemPrompt       string      `json:"system_prompt,omitempty"`
	SystemPromptTokens int64       `json:"system_prompt_tokens,omitempty"`
	Servers            []ServerRef `json:"servers,omitempty"`
	// RecordedStrategy names the deferral rule the recording runtime used
	// ("eager" when every schema was sent), when known (RecordedDeferred).
	RecordedStrategy string            `json:"recorded_strategy,omitempty"`
	Meta             map[string]string `json:"meta,omitempty"`
}

// ChangeFields are the fields of tool_search, catalog_change and
// deferral_change lines, and tool_call's rare args_unrecorded and
// result_unrecorded, behind a pointer in Event as StartFields are.
type ChangeFields struct {
	// tool_search
	Query    string   `json:"query,omitempty"`
	Returned []string `json:"returned,omitempty"`

	// catalog_change: Server is now at Version.
	Version string `json:"version,omitempty"`

	// deferral_change
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`

	// tool_call: the source did not record the call's arguments (an
	// export without content capture): Args is absent for want of a
	// record, not because the call had none, and the replay validates no
	// such call (docs/trace-format.md). Here, behind the pointer, since
	// few calls carry it: an Event stays as small.
	ArgsUnrecorded bool `json:"args_unrecorded,omitempty"`
	// tool_call: the source did not record the call's result (an export
	// without content capture): no result, result_bytes or result_tokens
	// for want of a record, not because the result was empty, and the
	// replay counts such a call (docs/trace-format.md).
	ResultUnrecorded bool `json:"result_unrecorded,omitempty"`
}

// Call statuses recorded on tool_call events.
const (
	StatusOK       = "ok"
	StatusError    = "error"
	StatusRejected = "rejected" // the runtime refused the call (e.g. tool not loaded)
	StatusDenied   = "denied"   // a permission check refused the call
)

// Session is one decoded session: its events in file order, plus where they came from.
type Session struct {
	ID     string
	Events []Event
	// File and Lines locate each event in its source (Lines[i] is the 1-based
	// line number of Events[i]).
	File  string
	Lines []int
}

// Start returns the session_start event, or nil when the session has none.
func (s *Session) Start() *Event {
	for i := range s.Events {
		if s.Events[i].Type == SessionStart {
			return &s.Events[i]
		}
	}
	return nil
}

// End returns the session_end event, or nil when the session has none (it was
// still open at the end of its file).
func (s *Session) End() *Event {
	if n := len(s.Events); n > 0 && s.Events[n-1].Type == SessionEnd {
		return &s.Events[n-1]
	}
	return nil
}
