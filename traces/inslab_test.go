package traces

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestInSlabDecodingMatchesSlowPath pins decoding straight into the slab
// (filer.addInSlab): every session the Reader yields holds exactly the
// events the slow path gives — the same lines filed through OnEvent, which
// decodes on the stack and copies — each equal to its line decoded alone,
// with the same counts, for interleaved sessions, sessions that span slab
// boundaries or outgrow half a slab, and lines rejected or skipped
// between a session's events with SkipBad (decoded into the slab's next
// slot before being rejected, so they must leave nothing behind).
func TestInSlabDecodingMatchesSlowPath(t *testing.T) {
	// A plan lists lines: "id" is an event of session id (its first line
	// its session_start, its last its session_end), "!kind id" a bad line.
	bad := func(kind, id string) string { return "!" + kind + " " + id }
	cases := []struct {
		name string
		plan []string
	}{
		{"interleaved", slices.Concat(seqIDs("a", 3), alternateIDs("a", "b", 40), seqIDs("c", 5), alternateIDs("c", "b", 3), seqIDs("a", 2))},
		{"across slab boundaries", slices.Concat(seqIDs("a", slabEvents-3), seqIDs("b", 10), seqIDs("c", 2*slabEvents+5), seqIDs("d", 4))},
		{"half a slab at a boundary", slices.Concat(seqIDs("a", slabEvents-10), seqIDs("b", slabEvents/2+20), seqIDs("c", 3))},
		{"rejected lines between a session's events", slices.Concat(seqIDs("a", 4),
			[]string{bad("json", "a"), "a", bad("status", "a"), bad("status", "a"), "a", bad("notopen", "z"),
				bad("restart", "a"), "a", bad("negative", "a")}, seqIDs("a", 3), seqIDs("b", 2),
			[]string{bad("status", "b"), "b"}, alternateIDs("b", "c", 3), []string{bad("status", "c"), "c", "b"})},
		{"rejected lines at a slab's end", slices.Concat(seqIDs("a", slabEvents-2),
			[]string{bad("status", "a"), "a", bad("status", "a"), bad("json", "a"), "a", "a", bad("status", "a"), "a"}, seqIDs("b", 3))},
		{"repeated session skipped", slices.Concat(seqIDs("a", 3), seqIDs("b", 3), []string{"a2", "a2", "a2"}, seqIDs("c", 2))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := planLines(tc.plan)
			ids := map[string]int{}
			for _, id := range tc.plan {
				if !strings.HasPrefix(id, "!") {
					ids[strings.TrimSuffix(id, "2")]++
				}
			}
			read := func(onEvent func(*Session, *Event, int)) ([]*Session, Counts) {
				return readText(t, text, ReadOptions{SkipBad: true, OnEvent: onEvent, Seen: NewSessionSet()})
			}
			slow := map[*Session][]Event{}
			slowLines := map[*Session][]int{}
			slowSessions, slowCounts := read(func(s *Session, e *Event, n int) {
				slow[s] = append(slow[s], *e)
				slowLines[s] = append(slowLines[s], n)
			})
			got, counts := read(nil)
			if !reflect.DeepEqual(counts, slowCounts) {
				t.Errorf("counts %+v, slow path %+v", counts, slowCounts)
			}
			if counts.Skipped == 0 && strings.Contains(tc.name, "rejected") {
				t.Fatal("no line was skipped: the case tests nothing")
			}
			if len(got) != len(slowSessions) || len(got) != len(ids) {
				t.Fatalf("%d sessions, slow path %d, plan %d", len(got), len(slowSessions), len(ids))
			}
			lines := strings.Split(text, "\n")
			for k, s := range got {
				ss := slowSessions[k]
				if s.ID != ss.ID || !slices.Equal(s.Lines, slowLines[ss]) {
					t.Fatalf("session %d: %s lines %v, slow path %s lines %v", k, s.ID, s.Lines, ss.ID, slowLines[ss])
				}
				if !reflect.DeepEqual(s.Events, slow[ss]) {
					t.Fatalf("session %s: events differ from the slow path", s.ID)
				}
				for i, e := range s.Events {
					var alone Event
					if err := decodeEvent([]byte(lines[s.Lines[i]-1]), &alone); err != nil {
						t.Fatalf("line %d: %v", s.Lines[i], err)
					}
					if !reflect.DeepEqual(e, alone) {
						t.Fatalf("session %s, line %d: %+v, decoded alone %+v", s.ID, s.Lines[i], e, alone)
					}
				}
			}
		})
	}
}

// TestInSlabRejectedLineLeavesNoTrace pins that a line decoded into the
// slab's next free slot and then rejected or skipped (addInSlab) leaves
// the slot zero: the slab beyond its end holds no event, so it keeps no
// strings of rejected lines alive and the next event finds a zero slot.
func TestInSlabRejectedLineLeavesNoTrace(t *testing.T) {
	plan := slices.Concat([]string{"a", "a", "!status a", "b", "!json b", "!notopen z", "!restart b",
		"!negative b", "a", "a2", "a2", "b", "!status b"}, []string{"b"})
	data := []byte(planLines(plan))
	f := newFiler("mem", ReadOptions{SkipBad: true, Seen: NewSessionSet()})
	inSlab := 0
	for n, line := range strings.SplitAfter(string(data), "\n") {
		if line == "" {
			continue
		}
		start := len(f.slab)
		usable := f.opts.OnEvent == nil && start < cap(f.slab)
		b := &batch{data: []byte(line), lines: []lineSpan{{start: 0, end: len(line) - 1}}, first: n + 1}
		f.file(b)
		if b.err != nil {
			t.Fatalf("line %d: %v", n+1, b.err)
		}
		if usable {
			inSlab++
		}
		for k, e := range f.slab[len(f.slab):cap(f.slab)] {
			if !reflect.ValueOf(e).IsZero() {
				t.Fatalf("after line %d (%s): slot %d past the slab's end holds %+v", n+1, plan[n], len(f.slab)+k, e)
			}
		}
	}
	if f.counts.Skipped != 8 {
		t.Errorf("skipped %d lines, want 8", f.counts.Skipped)
	}
	if inSlab < len(plan)-1 {
		t.Errorf("%d of %d lines were decoded into the slab: the test does not reach addInSlab", inSlab, len(plan))
	}
}

// planLines writes the trace lines of a plan (TestInSlabDecodingMatchesSlowPath):
// "id" is an event of session id — its first line a session_start, its
// last a session_end, the others user lines numbered by line — and
// "!kind id" a bad line of that kind: "json" (invalid JSON), "status" (an
// unknown status, rejected after decoding), "negative" (a negative
// count), "notopen" (an event of a session not open) and "restart" (a
// session_start for an open session). A session named "x2" is a second
// session with id "x", started after x ended.
func planLines(plan []string) string {
	first, last := map[string]int{}, map[string]int{}
	for i, id := range plan {
		if _, ok := first[id]; !ok {
			first[id] = i
		}
		last[id] = i
	}
	var b strings.Builder
	for i, p := range plan {
		text := fmt.Sprintf(`"text":"line %d %s"`, i+1, strings.Repeat("x", i%7))
		if kind, id, ok := strings.Cut(strings.TrimPrefix(p, "!"), " "); ok && p[0] == '!' {
			switch kind {
			case "json":
				b.WriteString(`{"type":"user","session":"` + id + `","t":` + "\n")
				continue
			case "status":
				b.WriteString(ev("tool_call", id, 3, `"call_id":"c","tool":"t","server":"s","status":"weird","result":"kept?"`))
			case "negative":
				b.WriteString(ev("user", id, 3, `"text_tokens":-4,`+text))
			case "notopen":
				b.WriteString(ev("user", id, 3, text))
			case "restart":
				b.WriteString(ev("session_start", id, 3, `"model":"m",`+text))
			default:
				panic("planLines: unknown bad line " + kind)
			}
			b.WriteString("\n")
			continue
		}
		typ := "user"
		switch i {
		case first[p]:
			typ = "session_start"
		case last[p]:
			typ = "session_end"
		}
		b.WriteString(ev(typ, strings.TrimSuffix(p, "2"), i%60, text) + "\n")
	}
	return b.String()
}
