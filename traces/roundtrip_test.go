package traces

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// compactArgs returns a copy of sessions whose args are compacted (the
// writer compacts raw JSON), with File and Lines cleared.
func normalize(tb testing.TB, sessions []*Session) []*Session {
	tb.Helper()
	out := make([]*Session, len(sessions))
	for i, s := range sessions {
		c := &Session{ID: s.ID, Events: append([]Event(nil), s.Events...)}
		for k := range c.Events {
			if a := c.Events[k].Args; len(a) > 0 {
				var b bytes.Buffer
				if err := json.Compact(&b, a); err != nil {
					tb.Fatal(err)
				}
				c.Events[k].Args = b.Bytes()
			}
		}
		out[i] = c
	}
	return out
}

func readSessions(tb testing.TB, data []byte, opts ReadOptions) ([]*Session, Counts, error) {
	tb.Helper()
	r, err := NewReader(bytes.NewReader(data), "mem.jsonl", opts)
	if err != nil {
		return nil, Counts{}, err
	}
	defer r.Close()
	var out []*Session
	for s, err := range r.Sessions() {
		if err != nil {
			return out, r.Counts(), err
		}
		out = append(out, s)
	}
	return out, r.Counts(), nil
}

func TestWriterReaderRoundTrip(t *testing.T) {
	want := genSessions(1, 40)
	nEvents := 0
	for _, s := range want {
		nEvents += len(s.Events)
	}
	for _, compress := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", compress), func(t *testing.T) {
			data := encodeSessions(t, want, compress, 1)
			got, counts, err := readSessions(t, data, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(normalize(t, want), normalize(t, got)); diff != "" {
				t.Fatalf("sessions differ after a round trip (-want +got):\n%s", diff)
			}
			if counts.Events != int64(nEvents) || counts.Lines != int64(nEvents) || counts.Sessions != 40 {
				t.Errorf("counts = %+v, want %d events and lines, 40 sessions", counts, nEvents)
			}
			// Lines locate each event.
			line := 0
			for _, s := range got {
				for i := range s.Events {
					line++
					if s.Lines[i] != line || s.File != "mem.jsonl" {
						t.Fatalf("session %s event %d at %s:%d, want line %d", s.ID, i, s.File, s.Lines[i], line)
					}
				}
			}
		})
	}
}
