package traces

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readShared reads files in turn with one SessionSet (Reread reads them
// again), returning the ids yielded, the counts of each file and the
// error that stopped the read.
func readShared(t *testing.T, skipBad bool, files map[string][]byte, order ...string) (ids []string, counts []Counts, err error) {
	t.Helper()
	seen := NewSessionSet()
	seen.Reread = func(i int) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(files[order[i]])), nil }
	for _, name := range order {
		r, rerr := NewReader(bytes.NewReader(files[name]), name, ReadOptions{SkipBad: skipBad, Seen: seen})
		if rerr != nil {
			t.Fatal(rerr)
		}
		for s, serr := range r.Sessions() {
			if serr != nil {
				return ids, append(counts, r.Counts()), serr
			}
			ids = append(ids, s.ID)
		}
		counts = append(counts, r.Counts())
	}
	return ids, counts, nil
}

// TestReaderSeenRefusesRepeatedSession pins that with ReadOptions.Seen a
// session id starting again after it was read — in the same file, after
// another session, or in a later file (the same file given twice) — stops
// the read at that line, naming where it first started; with SkipBad the
// whole repeated session is skipped and each of its lines counted
// (duplicate_session), its session_start alone recorded in FirstSkips.
func TestReaderSeenRefusesRepeatedSession(t *testing.T) {
	a, b := okSession("a", 0), okSession("b", 10)
	for _, tc := range []struct {
		name    string
		files   map[string][]byte
		order   []string
		wantErr string
		// With SkipBad: the ids yielded, the lines skipped and the first skip.
		wantIDs  []string
		wantSkip int64
		wantAt   []string // one per repeated session: its session_start
	}{
		{
			name:     "the file twice over, in one file",
			files:    map[string][]byte{"x.jsonl": lines(slices.Concat(a, b, a, b)...)},
			order:    []string{"x.jsonl"},
			wantErr:  `x.jsonl:11: session "a" starts again: already read at x.jsonl:1 (duplicate session id)` + dupAdvice,
			wantIDs:  []string{"a", "b"},
			wantSkip: 10,
			wantAt:   []string{"x.jsonl:11", "x.jsonl:16"},
		},
		{
			name:     "reused after another session",
			files:    map[string][]byte{"x.jsonl": lines(slices.Concat(a, b, okSession("a", 20))...)},
			order:    []string{"x.jsonl"},
			wantErr:  `x.jsonl:11: session "a" starts again: already read at x.jsonl:1 (duplicate session id)` + dupAdvice,
			wantIDs:  []string{"a", "b"},
			wantSkip: 5,
			wantAt:   []string{"x.jsonl:11"},
		},
		{
			name:     "one file given twice",
			files:    map[string][]byte{"x.jsonl": lines(slices.Concat(a, b)...)},
			order:    []string{"x.jsonl", "x.jsonl"},
			wantErr:  `x.jsonl:1: session "a" starts again: already read at x.jsonl:1 (duplicate session id: is the file given twice?)`,
			wantIDs:  []string{"a", "b"},
			wantSkip: 10,
			wantAt:   []string{"x.jsonl:1", "x.jsonl:6"},
		},
		{
			name: "two files sharing a session, interleaved in the second",
			files: map[string][]byte{"x.jsonl": lines(a...),
				"y.jsonl": lines(b[0], a[0], b[1], a[1], a[2], a[3], a[4], b[2], b[3], b[4])},
			order:    []string{"x.jsonl", "y.jsonl"},
			wantErr:  `y.jsonl:2: session "a" starts again: already read at x.jsonl:1 (duplicate session id)` + dupAdvice,
			wantIDs:  []string{"a", "b"},
			wantSkip: 5,
			wantAt:   []string{"y.jsonl:2"},
		},
		{
			name: "repeat still open at the end of the file",
			files: map[string][]byte{"x.jsonl": lines(a...),
				"y.jsonl": lines(a[0], a[1])},
			order:    []string{"x.jsonl", "y.jsonl"},
			wantErr:  `y.jsonl:1: session "a" starts again: already read at x.jsonl:1 (duplicate session id)` + dupAdvice,
			wantIDs:  []string{"a"},
			wantSkip: 2,
			wantAt:   []string{"y.jsonl:1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readShared(t, false, tc.files, tc.order...)
			var le *LineError
			if !errors.As(err, &le) || le.Kind != KindDuplicateSession || err.Error() != tc.wantErr {
				t.Fatalf("error = %v, want %s", err, tc.wantErr)
			}
			ids, counts, err := readShared(t, true, tc.files, tc.order...)
			if err != nil {
				t.Fatalf("with SkipBad: %v", err)
			}
			if !slices.Equal(ids, tc.wantIDs) {
				t.Errorf("with SkipBad, sessions %v, want %v", ids, tc.wantIDs)
			}
			var skipped, reason, incomplete int64
			var first []Problem
			for _, c := range counts {
				skipped += c.Skipped
				reason += c.SkipReasons[KindDuplicateSession]
				incomplete += c.Incomplete
				first = append(first, c.FirstSkips...)
			}
			if skipped != tc.wantSkip || reason != tc.wantSkip || incomplete != 0 {
				t.Errorf("with SkipBad, %d lines skipped (%d as duplicate_session), %d incomplete; want %d, %d, 0",
					skipped, reason, incomplete, tc.wantSkip, tc.wantSkip)
			}
			var at []string
			for _, p := range first {
				at = append(at, fmt.Sprintf("%s:%d", p.File, p.Line))
			}
			if !slices.Equal(at, tc.wantAt) {
				t.Errorf("with SkipBad, first skips at %v, want %v", at, tc.wantAt)
			}
		})
	}
}

// TestReaderWithoutSeenYieldsRepeats pins that without ReadOptions.Seen
// the reader still yields a reused id as a second session (it remembers
// nothing of ended sessions; trace validate reports the reuse).
func TestReaderWithoutSeenYieldsRepeats(t *testing.T) {
	a := okSession("a", 0)
	r, err := NewReader(bytes.NewReader(lines(slices.Concat(a, a)...)), "x.jsonl", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	if !slices.Equal(ids, []string{"a", "a"}) {
		t.Errorf("sessions %v, want a twice", ids)
	}
}

// TestSessionSetConfirmsByRereading pins that a hash match is confirmed
// by reading the first place again when the reader stops at it: another
// id there (a hash collision, forced here) is no repeat, and the set
// keeps the first place; without a way to reread, the hash decides.
func TestSessionSetConfirmsByRereading(t *testing.T) {
	data := lines(okSession("a", 0)...)
	for _, tc := range []struct {
		name    string
		reread  bool
		confirm bool
		id      string
		wantDup bool
	}{
		{"same id, reread", true, true, "a", true},
		{"colliding id, reread", true, true, "z", false},
		{"colliding id, no reread", false, true, "z", true},
		{"colliding id, skipping", true, false, "z", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSessionSet()
			s.addFile("x.jsonl")
			if tc.reread {
				s.Reread = func(int) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
			}
			s.at[sessionHash(tc.id)] = 0<<lineBits | 1 // as if tc.id had the hash of "a", at x.jsonl:1
			file, line, dup := s.start(tc.id, 0, 9, tc.confirm)
			if dup != tc.wantDup || (dup && (file != 0 || line != 1)) {
				t.Errorf("start = %d, %d, %v; want dup %v at 0, 1", file, line, dup, tc.wantDup)
			}
			if diff := cmp.Diff(map[uint64]uint64{sessionHash(tc.id): 1}, s.at); diff != "" {
				t.Errorf("set changed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateSeenAcrossFiles pins that validations sharing
// ValidateOptions.Seen report a session that started in an earlier file,
// as a Reader does, besides the repeat within a file they always report.
func TestValidateSeenAcrossFiles(t *testing.T) {
	a, b := okSession("a", 0), okSession("b", 10)
	seen := NewSessionSet()
	var got []string
	for _, f := range []struct {
		name string
		data []byte
	}{{"x.jsonl", lines(slices.Concat(a, b)...)}, {"y.jsonl", lines(slices.Concat(okSession("c", 20), b)...)}} {
		probs, _, err := ValidateReader(bytes.NewReader(f.data), f.name, ValidateOptions{Seen: seen})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probs {
			got = append(got, p.String())
		}
	}
	want := []string{`y.jsonl:6: session "b" starts again: already read at x.jsonl:6 (duplicate session id)` + dupAdvice}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// dupAdvice is what a repeated session id's reason says after
// "(duplicate session id)" when the file is not given twice. It pins
// that the reason says what to do in either case the repeat can be: it
// stopped at "(duplicate session id)", and a session log concatenated
// from two exports left the reader to guess --skip-bad or new ids.
const dupAdvice = "; the same session read twice (overlapping exports, a file concatenated with itself) is skipped with --skip-bad, " +
	"two sessions that share an id need distinct ids"
