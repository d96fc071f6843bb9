package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzDecodeEvent checks that decoding never panics, that an accepted line
// survives a Writer round trip unchanged, and that every line the per-line
// checks accept also passes the JSON Schema.
func FuzzDecodeEvent(f *testing.F) {
	for _, l := range okSession("s1", 0) {
		f.Add([]byte(l))
	}
	f.Add([]byte(ev("tool_search", "s", 1, `"query":"select:a","returned":["a"]`)))
	f.Add([]byte(ev("deferral_change", "s", 1, `"added":["a"],"removed":["b"]`)))
	f.Add([]byte(`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text":"\u00e9\ud800"}`))
	f.Add([]byte(`{"type":"user"`))
	f.Add([]byte("\xff\x00"))
	sch := compileSchema(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		var ev Event
		err := decodeEvent(line, &ev)
		if err != nil {
			var p *lineProblem
			if !errors.As(err, &p) || p.reason == "" || p.kind == "" {
				t.Fatalf("error %v is not a described *lineProblem", err)
			}
			return
		}
		var buf bytes.Buffer
		w := NewWriter(&buf, false)
		if err := w.Write(&ev); err != nil {
			t.Fatalf("write accepted event: %v", err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var again Event
		if err := decodeEvent(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), &again); err != nil {
			t.Fatalf("re-decode of %s: %v", buf.String(), err)
		}
		norm := func(e Event) Event {
			if len(e.Args) > 0 {
				var c bytes.Buffer
				if err := json.Compact(&c, e.Args); err != nil {
					t.Fatal(err)
				}
				e.Args = c.Bytes()
			}
			// A line with only empty session_start or change fields
			// ("servers":[]) has them allocated; written, it has none.
			if e.StartFields != nil && cmp.Equal(*e.StartFields, StartFields{}, cmpopts.EquateEmpty()) {
				e.StartFields = nil
			}
			if e.ChangeFields != nil && cmp.Equal(*e.ChangeFields, ChangeFields{}, cmpopts.EquateEmpty()) {
				e.ChangeFields = nil
			}
			return e
		}
		// The Writer omits empty lists and maps, which then decode as nil:
		// the round trip keeps their content, not that difference
		// (testdata/fuzz/FuzzDecodeEvent/71ca40f4ce882b1d, "servers":[]).
		if diff := cmp.Diff(norm(ev), norm(again), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip changed the event (-first +second):\n%s", diff)
		}
		if lineAccepted(line) && !schemaAccepts(sch, line) {
			t.Fatalf("line checks accept a line the schema rejects: %q", line)
		}
	})
}

// FuzzReader checks that reading any input never panics, that every error
// is a *LineError, and that the counts agree with what was yielded; inputs
// of even length are read with ReadOptions.Seen, which must yield each
// session id once.
func FuzzReader(f *testing.F) {
	f.Add(lines(okSession("s1", 0)...), false)
	f.Add(lines(append(okSession("a", 0), okSession("b", 1)...)...), true)
	f.Add(lines(ev("session_start", "a", 0, ""), ev("session_start", "b", 0, ""), ev("session_end", "a", 1, ""), "{bad"), true)
	gz, offs := gzipFlushed(f, lines(okSession("s1", 0)...))
	f.Add(gz, false)
	f.Add(gz[:offs[0]-3], true)
	f.Add([]byte{0x1f, 0x8b}, false)
	f.Add([]byte(strings.Repeat("x", 300)+"\n"+ev("user", "a", 0, "")), true)
	twice := lines(slices.Concat(okSession("a", 0), okSession("b", 1), okSession("a", 2))...)
	f.Add(twice, true)
	f.Add(twice[:len(twice)-1], false)
	f.Fuzz(func(t *testing.T, data []byte, skipBad bool) {
		opts := ReadOptions{SkipBad: skipBad, MaxLineBytes: 256, MaxOpenSessions: 4}
		ids := map[string]bool{}
		if len(data)%2 == 0 {
			opts.Seen = NewSessionSet()
			opts.Seen.Reread = func(int) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		}
		r, err := NewReader(bytes.NewReader(data), "fuzz", opts)
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("NewReader error %T: %v", err, err)
			}
			return
		}
		var sessions, events int64
		for s, err := range r.Sessions() {
			if err != nil {
				var le *LineError
				if !errors.As(err, &le) || le.Line < 1 || le.Reason == "" {
					t.Fatalf("error %T %v is not a located *LineError", err, err)
				}
				if !strings.HasPrefix(err.Error(), "fuzz:") {
					t.Fatalf("error %q does not name the file", err)
				}
				break
			}
			sessions++
			events += int64(len(s.Events))
			if opts.Seen != nil && ids[s.ID] {
				t.Fatalf("session %q yielded twice with ReadOptions.Seen", s.ID)
			}
			ids[s.ID] = true
			if len(s.Events) == 0 || s.Events[0].Type != SessionStart || len(s.Lines) != len(s.Events) {
				t.Fatalf("malformed session %+v", s)
			}
			for i := range s.Events {
				if s.Events[i].Session != s.ID {
					t.Fatalf("event of session %q in session %q", s.Events[i].Session, s.ID)
				}
				if i > 0 && s.Lines[i] <= s.Lines[i-1] {
					t.Fatalf("lines out of order: %v", s.Lines)
				}
			}
		}
		c := r.Counts()
		if c.Sessions != sessions || c.Events < events || c.Skipped > c.Lines || c.Bytes < 0 {
			t.Fatalf("counts %+v disagree with %d sessions, %d events yielded", c, sessions, events)
		}
		if !skipBad && c.Skipped != 0 {
			t.Fatalf("skipped %d lines without SkipBad", c.Skipped)
		}
	})
}
