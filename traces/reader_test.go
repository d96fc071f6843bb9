package traces

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sessionSummary is "id:event-count" for each session, in yield order.
func sessionSummary(sessions []*Session) []string {
	var out []string
	for _, s := range sessions {
		out = append(out, s.ID+":"+strings.Repeat("e", len(s.Events)))
	}
	return out
}

func TestReaderInterleaving(t *testing.T) {
	tests := []struct {
		name           string
		data           []byte
		want           []string // id and one "e" per event, in yield order
		wantIncomplete int64
		wantLines      [][]int
	}{
		{
			name: "sequential",
			data: lines(ev("session_start", "a", 0, ""), ev("session_end", "a", 1, ""),
				ev("session_start", "b", 0, ""), ev("session_end", "b", 1, "")),
			want:      []string{"a:ee", "b:ee"},
			wantLines: [][]int{{1, 2}, {3, 4}},
		},
		{
			name: "interleaved, yielded in session_end order",
			data: lines(ev("session_start", "a", 0, ""), ev("session_start", "b", 0, ""),
				ev("user", "a", 1, ""), ev("user", "b", 1, ""), ev("session_end", "b", 2, ""),
				ev("user", "a", 2, ""), ev("session_end", "a", 3, "")),
			want:      []string{"b:eee", "a:eeee"},
			wantLines: [][]int{{2, 4, 5}, {1, 3, 6, 7}},
		},
		{
			name: "open at EOF, yielded in session_start order",
			data: lines(ev("session_start", "c", 0, ""), ev("session_start", "a", 0, ""),
				ev("session_start", "b", 0, ""), ev("user", "a", 1, ""), ev("session_end", "b", 1, ""), ev("user", "c", 1, "")),
			want:           []string{"b:ee", "c:ee", "a:ee"},
			wantIncomplete: 2,
			wantLines:      [][]int{{3, 5}, {1, 6}, {2, 4}},
		},
		{
			name: "an id reused after its end is a second session",
			data: lines(ev("session_start", "a", 0, ""), ev("session_end", "a", 1, ""),
				ev("session_start", "a", 2, ""), ev("user", "a", 3, "")),
			want:           []string{"a:ee", "a:ee"},
			wantIncomplete: 1,
			wantLines:      [][]int{{1, 2}, {3, 4}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, counts, err := readSessions(t, tc.data, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, sessionSummary(got)); diff != "" {
				t.Errorf("sessions (-want +got):\n%s", diff)
			}
			var gotLines [][]int
			for _, s := range got {
				gotLines = append(gotLines, s.Lines)
			}
			if diff := cmp.Diff(tc.wantLines, gotLines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if counts.Incomplete != tc.wantIncomplete || counts.Sessions != int64(len(tc.want)) {
				t.Errorf("counts = %+v, want %d incomplete of %d", counts, tc.wantIncomplete, len(tc.want))
			}
			for _, s := range got {
				if (s.End() == nil) != (s.Events[len(s.Events)-1].Type != SessionEnd) {
					t.Errorf("session %s: End() disagrees with its last event", s.ID)
				}
			}
		})
	}
}

// TestReaderInterleavedGenerated reads the same generated sessions written
// one after another and interleaved in groups, plain and gzip.
func TestReaderInterleavedGenerated(t *testing.T) {
	sessions := genSessions(7, 30)
	want := normalize(t, sessions)
	for _, compress := range []bool{false, true} {
		for _, group := range []int{1, 3, 30} {
			data := encodeSessions(t, sessions, compress, group)
			got, _, err := readSessions(t, data, ReadOptions{MaxOpenSessions: max(group, 1)})
			if err != nil {
				t.Fatalf("gzip=%v group=%d: %v", compress, group, err)
			}
			// Sessions end in the order their last events were written; within a
			// group that is the order of lengths, so compare by id.
			byID := map[string]*Session{}
			for _, s := range normalize(t, got) {
				byID[s.ID] = s
			}
			for _, w := range want {
				if diff := cmp.Diff(w, byID[w.ID]); diff != "" {
					t.Fatalf("gzip=%v group=%d session %s (-want +got):\n%s", compress, group, w.ID, diff)
				}
			}
		}
	}
}

func TestReaderSkipBad(t *testing.T) {
	data := lines(
		ev("session_start", "a", 0, ""),
		`{"type":"user","session":"a"`,                     // bad JSON
		ev("user", "a", 1, "\"text\":\"\xff\""),            // invalid UTF-8
		ev("thought", "a", 2, ""),                          // unknown type
		strings.Repeat("z", 500),                           // too long
		ev("user", "zz", 3, ""),                            // session not open
		ev("tool_call", "a", 4, `"tool":"t","server":"s"`), // missing call_id
		ev("user", "a", 5, `"text":"fine"`),
		ev("session_end", "a", 6, ""),
		"",
		"   ",
	)
	got, counts, err := readSessions(t, data, ReadOptions{SkipBad: true, MaxLineBytes: 400})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a:eee"}, sessionSummary(got)); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 8, 9}, got[0].Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	want := Counts{
		Lines: 11, Bytes: int64(len(data)), Events: 3, Sessions: 1, Skipped: 6,
		SkipReasons: map[Kind]int64{KindBadJSON: 1, KindInvalidUTF8: 1, KindUnknownType: 1,
			KindLineTooLong: 1, KindSessionNotOpen: 1, KindMissingField: 1},
		FirstSkips: []Problem{
			{File: "mem.jsonl", Line: 2, Kind: KindBadJSON, Reason: "invalid JSON at column 28: unexpected end of JSON input"},
			{File: "mem.jsonl", Line: 3, Kind: KindInvalidUTF8, Reason: "invalid UTF-8 at column 65"},
			{File: "mem.jsonl", Line: 4, Kind: KindUnknownType, Reason: `unknown event type "thought"`},
			{File: "mem.jsonl", Line: 5, Kind: KindLineTooLong, Reason: "line longer than 400 bytes"},
			{File: "mem.jsonl", Line: 6, Kind: KindSessionNotOpen, Reason: `user event for session "zz", which is not open (no session_start before it, or it already ended)`},
			{File: "mem.jsonl", Line: 7, Kind: KindMissingField, Reason: `missing required field "call_id"`},
		},
		Timing: Timing{Unmarked: 1},
	}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

func TestReaderSkipBadKeepsFirstRecords(t *testing.T) {
	var ls []string
	for range MaxSkipRecords + 50 {
		ls = append(ls, "not json")
	}
	_, counts, err := readSessions(t, lines(ls...), ReadOptions{SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	if counts.Skipped != MaxSkipRecords+50 || len(counts.FirstSkips) != MaxSkipRecords ||
		counts.SkipReasons[KindBadJSON] != MaxSkipRecords+50 {
		t.Errorf("skipped %d, kept %d records, reasons %v", counts.Skipped, len(counts.FirstSkips), counts.SkipReasons)
	}
}

func TestReaderSkipBadStillStopsOnFatal(t *testing.T) {
	data := lines(ev("session_start", "a", 0, ""), ev("session_start", "b", 0, ""))
	_, _, err := readSessions(t, data, ReadOptions{SkipBad: true, MaxOpenSessions: 1})
	want := "mem.jsonl:2: more than 1 session open at once (raise ReadOptions.MaxOpenSessions)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	gz, offs := gzipFlushed(t, lines(okSession("s", 0)...))
	_, _, err = readSessions(t, gz[:offs[0]], ReadOptions{SkipBad: true})
	want = "mem.jsonl:6: truncated gzip stream (unexpected EOF): " + truncatedGzipAdvice("mem.jsonl")
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// TestReaderLongLineDefault reads a 20 MB line under the default limit and
// then skips one over a smaller limit, reading on after it.
func TestReaderLongLineDefault(t *testing.T) {
	result := strings.Repeat("r", 20<<20)
	long := ev("tool_call", "s1", 3, `"call_id":"c1","tool":"read_file","server":"files","result":"`+result+`"`)
	data := lines(ev("session_start", "s1", 0, ""), long, ev("session_end", "s1", 4, ""))
	got, _, err := readSessions(t, data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Events) != 3 || got[0].Events[1].Result != result {
		t.Fatalf("20 MB line not read back intact")
	}
	got, counts, err := readSessions(t, data, ReadOptions{MaxLineBytes: 1 << 20, SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Events) != 2 || counts.SkipReasons[KindLineTooLong] != 1 {
		t.Fatalf("got %v, counts %+v; want the long line skipped", sessionSummary(got), counts)
	}
}

// TestReaderLineLimitBoundary checks lines of exactly the limit, and one
// byte over, across the read buffer size.
func TestReaderLineLimitBoundary(t *testing.T) {
	for _, limit := range []int{100, bufSize - 1, bufSize, bufSize + 1, 3 * bufSize} {
		pad := func(n int) string {
			base := ev("user", "s", 1, `"text":"`)
			return base + strings.Repeat("p", n-len(base)-2) + `"}`
		}
		for _, n := range []int{limit, limit + 1} {
			data := lines(ev("session_start", "s", 0, ""), pad(n), ev("session_end", "s", 2, ""))
			_, _, err := readSessions(t, data, ReadOptions{MaxLineBytes: limit})
			if (err != nil) != (n > limit) {
				t.Errorf("limit %d, line of %d bytes: err = %v", limit, n, err)
			}
		}
	}
}

func TestOpenDetectsGzipByContent(t *testing.T) {
	dir := t.TempDir()
	plain := lines(okSession("s1", 0)...)
	files := map[string][]byte{
		"gzip-named-plain.jsonl": mustGzip(t, plain),
		"plain-named-gzip.gz":    plain,
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sessions, counts, err := ReadAll(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(sessions) != 1 || counts.Events != 5 || counts.Bytes != int64(len(plain)) || sessions[0].File != path {
			t.Errorf("%s: %d sessions, counts %+v", name, len(sessions), counts)
		}
	}
	if _, _, err := ReadAll(filepath.Join(dir, "absent.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadAll of a missing file: err = %v, want not-exist", err)
	}
}

func TestSessionsOnlyOnce(t *testing.T) {
	r, err := NewReader(bytes.NewReader(lines(okSession("s", 0)...)), "mem", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	for _, err := range r.Sessions() {
		if err == nil {
			t.Error("second Sessions() yielded no error")
		}
	}
	if n != 1 {
		t.Errorf("read %d sessions, want 1", n)
	}
}

func TestSessionsStopEarly(t *testing.T) {
	data := encodeSessions(t, genSessions(3, 5), false, 1)
	r, err := NewReader(bytes.NewReader(data), "mem", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for s, err := range r.Sessions() {
		if err != nil || s.ID != "sess-00000" {
			t.Fatalf("first session %v, %v", s, err)
		}
		break
	}
	if c := r.Counts(); c.Sessions != 1 {
		t.Errorf("after break: %d sessions counted, want 1", c.Sessions)
	}
}
