package traces

import (
	"bytes"
	"slices"
	"testing"
)

// TestReaderCountsSessionsWithoutUser pins that the Reader (not only
// Validate) counts the sessions holding no user event as they close —
// ended, or still open at the end of the file — at their session_start,
// in both read modes, and not a repeated session skipped with SkipBad:
// a run read such sessions without a word and measured their first reply
// from no user message (63 s p95 on tau-bench's airline sessions with the
// user lines removed, 2.5 s on the whole trace).
func TestReaderCountsSessionsWithoutUser(t *testing.T) {
	noUser := func(s string) []string {
		return []string{
			ev("session_start", s, 0, `"model":"m"`),
			ev("model_request", s, 1, `"id":"r1"`),
			ev("session_end", s, 2, ""),
		}
	}
	// Two sessions interleaved: a's user event comes between b's lines.
	interleaved := []string{
		ev("session_start", "a", 0, `"model":"m"`),
		ev("session_start", "b", 0, `"model":"m"`),
		ev("model_request", "b", 1, `"id":"r1"`),
		ev("user", "a", 1, `"text":"hi"`),
		ev("session_end", "b", 2, ""),
		ev("session_end", "a", 2, ""),
	}
	for _, tc := range []struct {
		name      string
		data      []byte
		seen      bool // ReadOptions.Seen with SkipBad
		wantCount int64
		wantFirst []string
	}{
		{"every session has a user message", lines(okSession("s1", 0)...), false, 0, nil},
		{"an ended session without one", lines(append(okSession("s1", 0), noUser("s2")...)...), false, 1,
			[]string{`f.jsonl:6: session "s2" has no user message`}},
		{"an incomplete session without one", lines(append(noUser("s2"), ev("session_start", "s3", 3, `"model":"m"`))...), false, 2,
			[]string{`f.jsonl:1: session "s2" has no user message`, `f.jsonl:4: session "s3" has no user message`}},
		{"an incomplete session with one", lines(okSession("s1", 0)[:2]...), false, 0, nil},
		{"interleaved sessions", lines(interleaved...), false, 1, []string{`f.jsonl:2: session "b" has no user message`}},
		{"a repeated session skipped", lines(append(okSession("s1", 0), noUser("s1")...)...), true, 0, nil},
		{"a repeated session skipped, then one without", lines(slices.Concat(noUser("s1"), noUser("s1"), noUser("s2"))...), true, 2,
			[]string{`f.jsonl:1: session "s1" has no user message`, `f.jsonl:7: session "s2" has no user message`}},
	} {
		for _, mode := range []struct {
			name    string
			onEvent func(*Session, *Event, int)
		}{{"sessions", nil}, {"events", func(*Session, *Event, int) {}}} {
			t.Run(tc.name+"/"+mode.name, func(t *testing.T) {
				opts := ReadOptions{OnEvent: mode.onEvent}
				if tc.seen {
					opts.Seen, opts.SkipBad = NewSessionSet(), true
				}
				r, err := NewReader(bytes.NewReader(tc.data), "f.jsonl", opts)
				if err != nil {
					t.Fatal(err)
				}
				for _, err := range r.Sessions() {
					if err != nil {
						t.Fatal(err)
					}
				}
				c := r.Counts()
				var first []string
				for _, p := range c.FirstNoUser {
					if p.Kind != KindNoUserMessage {
						t.Errorf("%s has kind %s", p, p.Kind)
					}
					first = append(first, p.String())
				}
				if c.NoUser != tc.wantCount || !slices.Equal(first, tc.wantFirst) {
					t.Errorf("NoUser %d %q, want %d %q", c.NoUser, first, tc.wantCount, tc.wantFirst)
				}
				if tc.seen && c.Skipped == 0 {
					t.Errorf("the repeated session was not skipped: %+v", c)
				}
			})
		}
	}
}
