package importers

import (
	"testing"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// TestEventsDigestKeepsSourceFile pins a bug of the move of session_start's
// fields behind a pointer (traces.StartFields): eventsDigest drops
// "source_file" from a copy of the session_start, and a copy of an Event
// shares its StartFields, so the key went from the session itself and the
// imported trace lost it.
func TestEventsDigestKeepsSourceFile(t *testing.T) {
	s := &ingest.Session{Session: traces.Session{ID: "s", Events: []traces.Event{
		{Type: traces.SessionStart, Session: "s", StartFields: &traces.StartFields{Meta: map[string]string{"source_file": "a.json", "k": "v"}}},
		{Type: traces.SessionEnd, Session: "s"},
	}}}
	sum, err := eventsDigest(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Events[0].Meta(); len(got) != 2 || got["source_file"] != "a.json" {
		t.Errorf("the session's meta after eventsDigest is %v, want source_file and k", got)
	}
	s.Events[0].StartFields.Meta["source_file"] = "b.json" // another name: the same digest
	if again, err := eventsDigest(s); err != nil || again != sum {
		t.Errorf("digest under another source_file differs (err %v)", err)
	}
}
