package importers

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// firstSession is the first session imported with an id: the input it
// came from and a digest of its events as the importer gave them.
type firstSession struct {
	input string
	sum   [sha256.Size]byte
}

// uniqueID renames a session whose id an earlier session already used
// (#2, #3, …), unless the two are the same session: the same events as
// the importer derived them, read again from an input given twice, a file
// holding a record twice or overlapping exports. That is an error naming
// the id and both inputs, since the trace would hold the session twice
// under two ids, which no later reader could tell (trace-format.md,
// duplicate_session, checks ids only).
func (p *pipeline) uniqueID(s *ingest.Session) error {
	sum, err := eventsDigest(s)
	if err != nil {
		return err
	}
	p.ids[s.ID]++
	if p.ids[s.ID] == 1 {
		p.firsts[s.ID] = firstSession{input: p.input, sum: sum}
		return nil
	}
	if first := p.firsts[s.ID]; first.sum == sum {
		return fmt.Errorf("session %q from %s repeats the session of that id from %s, event for event: %s "+
			"Import each session once; nothing was written", s.ID, p.input, first.input, sameCause(first.input, p.input))
	}
	id := fmt.Sprintf("%s#%d", s.ID, p.ids[s.ID])
	for p.ids[id] > 0 {
		id += "'"
	}
	p.ids[id] = 1
	s.ID = id
	for i := range s.Events {
		s.Events[i].Session = id
	}
	p.renamed++
	return nil
}

// sameCause guesses why one session came twice from inputs first and
// then.
func sameCause(first, then string) string {
	if first == then {
		return "an input given twice, or a record repeated inside it?"
	}
	return "overlapping inputs, or a copy of one?"
}

// eventsDigest is the SHA-256 of the session's events as JSON (their
// session field is its id, which two sessions compared share), leaving out
// session_start meta "source_file": a copy of an input under another name
// holds the same sessions.
func eventsDigest(s *ingest.Session) ([sha256.Size]byte, error) {
	events := s.Events
	if len(events) > 0 {
		if _, ok := events[0].Meta()["source_file"]; ok {
			// A copy of the session_start with fields of its own: a copy
			// of the Event alone shares them with the session's.
			st, fields := events[0], *events[0].StartFields
			fields.Meta = maps.Clone(fields.Meta)
			delete(fields.Meta, "source_file")
			st.StartFields = &fields
			events = append([]traces.Event{st}, events[1:]...)
		}
	}
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(events); err != nil {
		return [sha256.Size]byte{}, fmt.Errorf("session %q: %w", s.ID, err)
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum, nil
}
