package traces

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFilerSlabSessions pins the filing of events into slabs: every
// session gets exactly its own events and line numbers in file order,
// whether its events stay contiguous in a slab, cross from one slab to the
// next, outgrow half a slab, or have another session's events come between
// them (interleaved sessions leave the slab for the gather buffers); and
// appending to one session's events cannot overwrite another's (a slab's
// sessions get slices that end at their capacity).
func TestFilerSlabSessions(t *testing.T) {
	// A plan lists, per line, the session the line belongs to; a session's
	// first line is its session_start and, unless it is listed in open,
	// its last its session_end.
	var many []string
	for i := range 30 {
		many = append(many, seqIDs(fmt.Sprintf("m%d", i), 100)...)
	}
	cases := []struct {
		name string
		plan []string
		open []string // sessions without a session_end
	}{
		{"sequential", slices.Concat(seqIDs("a", 5), seqIDs("b", 1), seqIDs("c", 7)), nil},
		{"across slabs", many, nil},
		{"half a slab at a boundary", slices.Concat(seqIDs("a", slabEvents-10), seqIDs("b", slabEvents/2+20), seqIDs("c", 3)), nil},
		{"longer than slabs", slices.Concat(seqIDs("a", 3), seqIDs("long", 3*slabEvents+5), seqIDs("b", 4)), nil},
		{"interleaved", slices.Concat(seqIDs("a", 2), alternateIDs("a", "b", 50), seqIDs("b", 3), seqIDs("c", 2)), nil},
		{"resumed after a full slab", slices.Concat(seqIDs("a", 10), seqIDs("b", slabEvents+30), seqIDs("a", 5), seqIDs("c", 2)), nil},
		{"open at the end", slices.Concat(seqIDs("a", 4), alternateIDs("b", "c", 3), seqIDs("d", 2)), []string{"b", "d"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			first, last := map[string]int{}, map[string]int{}
			for i, id := range tc.plan {
				if _, ok := first[id]; !ok {
					first[id] = i
				}
				last[id] = i
			}
			want := map[string][]int{}
			var b strings.Builder
			for i, id := range tc.plan {
				typ := "user"
				switch {
				case first[id] == i:
					typ = "session_start"
				case last[id] == i && !slices.Contains(tc.open, id):
					typ = "session_end"
				}
				b.WriteString(ev(typ, id, 0, fmt.Sprintf(`"text":"line %d"`, i+1)) + "\n")
				want[id] = append(want[id], i+1)
			}
			got, _ := readText(t, b.String(), ReadOptions{})
			if len(got) != len(want) {
				t.Fatalf("read %d sessions, want %d", len(got), len(want))
			}
			for _, s := range got {
				if !slices.Equal(s.Lines, want[s.ID]) {
					t.Errorf("session %s: lines %v, want %v", s.ID, s.Lines, want[s.ID])
				}
				for i, e := range s.Events {
					if e.Session != s.ID || e.Text != fmt.Sprintf("line %d", s.Lines[i]) {
						t.Errorf("session %s, event %d: session %q, text %q (line %d)", s.ID, i, e.Session, e.Text, s.Lines[i])
						break
					}
				}
			}
			// Appending to every session's events leaves the others' intact.
			for _, s := range got {
				s.Events = append(s.Events, Event{Session: "appended"})
			}
			for _, s := range got {
				for _, e := range s.Events[:len(s.Events)-1] {
					if e.Session != s.ID {
						t.Fatalf("session %s holds an event of %q after appends", s.ID, e.Session)
					}
				}
			}
		})
	}
}

// seqIDs is n lines of session id, in a plan of lines by session.
func seqIDs(id string, n int) []string { return slices.Repeat([]string{id}, n) }

// alternateIDs is n lines of session a, each followed by one of b.
func alternateIDs(a, b string, n int) []string {
	var out []string
	for range n {
		out = append(out, a, b)
	}
	return out
}

// readText reads every session of text with opts, failing t on an error.
func readText(t *testing.T, text string, opts ReadOptions) ([]*Session, Counts) {
	t.Helper()
	r, err := NewReader(strings.NewReader(text), "mem", opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []*Session
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	return got, r.Counts()
}
