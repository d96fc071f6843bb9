package traces

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/bounded"
)

// corpusCase is one file of the hostile-input corpus: a small file committed
// under testdata/bad, or a large one generated into a temporary directory.
type corpusCase struct {
	name string
	// file is a name under testdata/bad; gen, when set, writes the file
	// instead and returns its path.
	file string
	gen  func(t *testing.T, dir string) string
	// wantErr is what the reader stops with ("" when it reads to the end);
	// FILE stands for the file's path.
	wantErr string
	// wantSessions is how many sessions the reader yields before that.
	wantSessions int
	// wantProblems is what Validate reports (FILE as above).
	wantProblems []string
}

// genFile writes a file of parts (strings, or funcs writing to w) to dir/name.
func genFile(t *testing.T, dir, name string, parts ...any) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			w.WriteString(p)
		case func(*bufio.Writer):
			p(w)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// repeat returns a writer of n copies of s.
func repeat(s string, n int) func(*bufio.Writer) {
	return func(w *bufio.Writer) {
		for range n {
			w.WriteString(s)
		}
	}
}

func corpusCases() []corpusCase {
	start, end := ev("session_start", "s1", 0, "")+"\n", ev("session_end", "s1", 9, "")+"\n"
	prefix := func(typ, extra string) string { // a line's start, up to an open string or value
		return strings.TrimSuffix(ev(typ, "s1", 1, extra), "}")
	}
	return []corpusCase{
		{name: "truncated gzip", file: "truncated.jsonl.gz",
			wantErr:      "FILE:3: truncated gzip stream (unexpected EOF): " + truncatedGzipAdvice("FILE"),
			wantProblems: []string{"FILE:3: truncated gzip stream (unexpected EOF): " + truncatedGzipAdvice("FILE")}},
		{name: "corrupt gzip", file: "corrupt.jsonl.gz",
			wantErr:      "FILE:1: corrupt gzip stream (flate: corrupt input before offset 34)",
			wantProblems: []string{"FILE:1: corrupt gzip stream (flate: corrupt input before offset 34)"}},
		{name: "gzip magic, then not gzip", file: "not-gzip-after-magic.jsonl.gz",
			wantErr:      "FILE:1: corrupt gzip stream (gzip: invalid header)",
			wantProblems: []string{"FILE:1: corrupt gzip stream (gzip: invalid header)"}},
		{name: "invalid UTF-8", file: "invalid-utf8.jsonl",
			wantErr:      "FILE:2: invalid UTF-8 at column 69",
			wantProblems: []string{"FILE:2: invalid UTF-8 at column 69"}},
		{name: "NUL byte", file: "nul-byte.jsonl",
			wantErr:      "FILE:2: NUL byte at column 67",
			wantProblems: []string{"FILE:2: NUL byte at column 67"}},
		{name: "duplicate session ids", file: "duplicate-session.jsonl",
			wantSessions: 2,
			wantProblems: []string{`FILE:6: session "s1" starts again after its session_end at line 5 (duplicate session id)`}},
		{name: "events out of order", file: "out-of-order.jsonl",
			wantErr: `FILE:1: user event for session "s1", which is not open (no session_start before it, or it already ended)`,
			wantProblems: []string{
				`FILE:1: session "s1": first event is user, not session_start`,
				`FILE:2: session "s1": session_start is not the first event (session began at line 1)`,
				`FILE:3: session "s1": time goes backwards: 2026-01-01T00:00:03Z is before 2026-01-01T00:00:05Z at line 2`,
				`FILE:5: session "s1": assistant event after its session_end at line 4`,
			}},
		{name: "numbers that overflow", file: "overflow-numbers.jsonl",
			wantErr: `FILE:2: field "ttft_ms": cannot use JSON number 1e400 as int64`,
			wantProblems: []string{
				`FILE:2: field "ttft_ms": cannot use JSON number 1e400 as int64`,
				`FILE:3: field "usage.input": cannot use JSON number 99999999999999999999 as int64`,
			}},
		{name: "negative durations", file: "negative-durations.jsonl",
			wantErr: `FILE:2: field "ttft_ms": negative value -1`,
			wantProblems: []string{
				`FILE:2: field "ttft_ms": negative value -1`,
				`FILE:2: field "duration_ms": negative value -250`,
				`FILE:3: field "duration_ms": negative value -3`,
			}},
		{name: "lines that are not objects", file: "not-an-object.jsonl",
			wantErr: "FILE:1: invalid JSON: line is a JSON string, not an object",
			wantProblems: []string{
				"FILE:1: invalid JSON: line is a JSON string, not an object",
				"FILE:2: invalid JSON: line is a JSON array, not an object" + arrayAdvice,
				`FILE:3: missing required field "type"`,
				`FILE:3: missing required field "session"`,
				`FILE:3: missing required field "t"` + missingTimeHint,
			}},
		// Issue 18.5: the last of two keys won, so line 2 was a session_end.
		{name: "duplicate keys", file: "duplicate-keys.jsonl",
			wantErr: `FILE:2: invalid JSON: duplicate key "type"`,
			wantProblems: []string{
				`FILE:2: invalid JSON: duplicate key "type"`,
				`FILE:3: invalid JSON: duplicate key "TYPE"`,
				`FILE:4: invalid JSON: duplicate key "input" in field "usage"`,
				`FILE:5: invalid JSON: duplicate key in field "args"`,
			}},
		{name: "unsupported version", file: "version-2.jsonl",
			wantErr:      "FILE:1: unsupported format version 2 (this reader supports 1)",
			wantProblems: []string{"FILE:1: unsupported format version 2 (this reader supports 1)"}},
		{name: "50 MB line (a valid tool result)", gen: func(t *testing.T, dir string) string {
			return genFile(t, dir, "long.jsonl", start,
				prefix("tool_call", `"call_id":"c1","tool":"read_file","server":"files","result":"`), repeat("0123456789", 5<<20), "\"}\n", end)
		}, wantSessions: 1},
		{name: "50 MB line cut inside a string", gen: func(t *testing.T, dir string) string {
			return genFile(t, dir, "long-cut.jsonl", start, prefix("user", `"text":"`), repeat("0123456789", 5<<20), "\n", end)
		},
			wantErr:      "FILE:2: invalid JSON at column 52428865: unexpected end of JSON input",
			wantProblems: []string{"FILE:2: invalid JSON at column 52428865: unexpected end of JSON input"}},
		{name: "70 MB line over the default limit", gen: func(t *testing.T, dir string) string {
			return genFile(t, dir, "over.jsonl", start, prefix("user", `"text":"`), repeat("0123456789", 7<<20), "\"}\n", end)
		},
			wantErr:      "FILE:2: line longer than 67108864 bytes",
			wantProblems: []string{"FILE:2: line longer than 67108864 bytes"}},
		{name: "args nested 100,000 levels", gen: func(t *testing.T, dir string) string {
			return genFile(t, dir, "deep.jsonl", start,
				prefix("tool_call", `"call_id":"c1","tool":"t","server":"s","args":{"a":`), repeat("[", 100000), repeat("]", 100000), "}}\n", end)
		},
			wantErr:      "FILE:2: invalid JSON at column 10112: invalid character '[' exceeded max depth",
			wantProblems: []string{"FILE:2: invalid JSON at column 10112: invalid character '[' exceeded max depth"}},
		{name: "args nested 10 million levels (20 MB)", gen: func(t *testing.T, dir string) string {
			return genFile(t, dir, "deeper.jsonl", start,
				prefix("tool_call", `"call_id":"c1","tool":"t","server":"s","args":{"a":`), repeat("[", 10_000_000), repeat("]", 10_000_000), "}}\n", end)
		},
			wantErr:      "FILE:2: invalid JSON at column 10112: invalid character '[' exceeded max depth",
			wantProblems: []string{"FILE:2: invalid JSON at column 10112: invalid character '[' exceeded max depth"}},
		{name: "meta nested 100,000 levels", gen: func(t *testing.T, dir string) string {
			return genFile(t, dir, "deep-meta.jsonl",
				strings.TrimSuffix(ev("session_start", "s1", 0, `"meta":`), "}"), repeat(`{"a":`, 100000), "1", repeat("}", 100000), "}\n", end)
		},
			wantErr:      "FILE:1: invalid JSON at column 50075: invalid character '{' exceeded max depth",
			wantProblems: []string{"FILE:1: invalid JSON at column 50075: invalid character '{' exceeded max depth", `FILE:2: session "s1": first event is session_end, not session_start`}},
		{name: "20,000 sessions never ended", gen: func(t *testing.T, dir string) string {
			return genFile(t, dir, "open.jsonl", func(w *bufio.Writer) {
				for i := range 20000 {
					fmt.Fprintln(w, ev("session_start", fmt.Sprintf("s%05d", i), 0, ""))
				}
			})
		},
			wantErr:      "FILE:10001: more than 10000 sessions open at once (raise ReadOptions.MaxOpenSessions)",
			wantProblems: noEnds(20000)},
	}
}

// noEnds lists Validate's problems for n sessions s00000… that never end.
func noEnds(n int) []string {
	out := make([]string, n)
	for i := range n {
		out[i] = fmt.Sprintf(`FILE:%d: session "s%05d" has no session_end`, i+1, i)
	}
	return out
}

// TestBadInputCorpus runs the reader and Validate on every file of the
// hostile-input corpus: each must give its exact error (file and line), never
// panic, finish, and keep the heap within 4× the file size + 64 MiB.
func TestBadInputCorpus(t *testing.T) {
	for _, tc := range corpusCases() {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("testdata", "bad", tc.file)
			if tc.gen != nil {
				if testing.Short() {
					t.Skip("generates a large file")
				}
				path = tc.gen(t, t.TempDir())
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			lim := bounded.For(st.Size())
			subst := func(s string) string { return strings.ReplaceAll(s, "FILE", path) }

			var sessions int
			res, err := bounded.Run(t, lim, func() error {
				r, err := Open(path, ReadOptions{})
				if err != nil {
					return err
				}
				defer r.Close()
				for s, err := range r.Sessions() {
					if err != nil {
						return err
					}
					sessions++
					_ = s
				}
				return nil
			})
			if got, want := errString(err), subst(tc.wantErr); got != want {
				t.Errorf("reader error:\n got %q\nwant %q", got, want)
			}
			if sessions != tc.wantSessions {
				t.Errorf("reader yielded %d sessions, want %d", sessions, tc.wantSessions)
			}
			t.Logf("%d bytes: reader peak heap growth %d KiB", st.Size(), res.PeakHeapGrowth>>10)

			var probs []Problem
			res, err = bounded.Run(t, lim, func() error {
				var err error
				probs, _, err = Validate(path, ValidateOptions{})
				return err
			})
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			t.Logf("Validate peak heap growth %d KiB", res.PeakHeapGrowth>>10)
			var got []string
			for _, p := range probs {
				got = append(got, p.String())
			}
			var want []string
			for _, p := range tc.wantProblems {
				want = append(want, subst(p))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				if len(diff) > 4000 {
					diff = diff[:4000] + "…"
				}
				t.Errorf("Validate problems (-want +got):\n%s", diff)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestDeepLineDoesNotCrash pins that a 20 MB line of ten million nested
// '[' in "args" is rejected at the 10,001st level like encoding/json rejects
// it. The corpus found that the fast decoder (segmentio/encoding) recursed
// once per level and overflowed the goroutine stack: a fatal error that
// kills the process, which no recover can catch.
func TestDeepLineDoesNotCrash(t *testing.T) {
	line := []byte(strings.TrimSuffix(ev("tool_call", "s1", 1, `"call_id":"c1","tool":"t","server":"s","args":{"a":`), "}") +
		strings.Repeat("[", 10_000_000) + strings.Repeat("]", 10_000_000) + "}}")
	var e Event
	err := decodeEvent(line, &e)
	const want = "invalid JSON at column 10112: invalid character '[' exceeded max depth"
	if err == nil || err.Error() != want {
		t.Fatalf("decodeEvent = %v, want %q", err, want)
	}
}
