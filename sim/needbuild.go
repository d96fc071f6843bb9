package sim

import "github.com/defersim/defersim/traces"

// NeedBuilder builds one session's need from its events as they are read
// (traces.ReadOptions.OnEvent), so that a session is never held as events:
// it keeps only what a need keeps (the strings, arguments and counts of its
// steps and calls), and the need equals ExtractNeed's of the whole session.
//
// Whether the session has model_request events decides how assistant text
// outside a request is read, so the events before the first model_request
// are held until one comes (they are few in a recorded session) or the
// session ends; a session without any model_request is held whole, as
// events, until its end.
type NeedBuilder struct {
	b    needBuffers
	n    Need
	held []heldEvent // events before the first model_request
	// decided says the first model_request was seen (explicit steps).
	decided bool
	// synthetic says the session_start marks its times as placeholders.
	synthetic bool
}

// heldEvent is an event waiting for the session's step mode.
type heldEvent struct {
	ev   traces.Event
	line int
}

// NewNeedBuilder starts the need of session id.
func NewNeedBuilder(id string) *NeedBuilder {
	return &NeedBuilder{n: Need{SessionID: id}}
}

// Add takes the session's next event, read from the given line (0 if
// unknown). The builder keeps ev's strings and slices (which the trace
// reader never reuses) but not ev itself.
func (nb *NeedBuilder) Add(ev *traces.Event, line int) {
	if ev.Type == traces.SessionStart && ev.Meta["timing"] == "synthetic" {
		nb.synthetic = true
	}
	if nb.decided {
		nb.b.add(&nb.n, ev, line)
		return
	}
	if ev.Type != traces.ModelRequest {
		nb.held = append(nb.held, heldEvent{*ev, line})
		return
	}
	nb.decided = true
	nb.replayHeld(true)
	nb.b.add(&nb.n, ev, line)
}

// replayHeld starts the extraction and adds the held events.
func (nb *NeedBuilder) replayHeld(explicit bool) {
	nb.b.begin(&nb.n, nb.n.SessionID, explicit, nb.synthetic)
	for i := range nb.held {
		nb.b.add(&nb.n, &nb.held[i].ev, nb.held[i].line)
	}
	clear(nb.held)
	nb.held = nil
}

// Need returns the session's need once its last event was added. The
// builder must not be used afterwards.
func (nb *NeedBuilder) Need() *Need {
	if !nb.decided {
		nb.replayHeld(false)
	}
	nb.b.finish(&nb.n)
	n := &nb.n
	nb.b = needBuffers{} // the need owns its memory now
	return n
}
