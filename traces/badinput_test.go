package traces

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ev builds one trace line of type typ in session s at second sec, with
// extra JSON members (without braces) appended.
func ev(typ, s string, sec int, extra string) string {
	v := ""
	if typ == "session_start" {
		v = `"v":1,`
	}
	line := fmt.Sprintf(`{%s"type":%q,"session":%q,"t":"2026-01-01T00:00:%02dZ"`, v, typ, s, sec)
	if extra != "" {
		line += "," + extra
	}
	return line + "}"
}

// lines joins trace lines, each ending with a newline.
func lines(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// okSession is a small valid session.
func okSession(s string, sec int) []string {
	return []string{
		ev("session_start", s, sec, `"model":"m"`),
		ev("user", s, sec+1, `"text":"hello"`),
		ev("model_request", s, sec+2, `"id":"r1","usage":{"input":10,"output":5}`),
		ev("tool_call", s, sec+3, `"request":"r1","call_id":"c1","tool":"read_file","server":"files","args":{"path":"a"},"status":"ok"`),
		ev("session_end", s, sec+4, ""),
	}
}

// gzipFlushed compresses parts, flushing after each so that every part is
// decodable on its own; it returns the stream and the offset after each part.
func gzipFlushed(tb testing.TB, parts ...[]byte) ([]byte, []int) {
	tb.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	var offs []int
	for _, p := range parts {
		if _, err := zw.Write(p); err != nil {
			tb.Fatal(err)
		}
		if err := zw.Flush(); err != nil {
			tb.Fatal(err)
		}
		offs = append(offs, buf.Len())
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), offs
}

type badCase struct {
	name string
	data []byte
	opts ReadOptions
	// wantErr is the reader's error without SkipBad ("" when it reads cleanly).
	wantErr string
	// wantProblems is what Validate reports.
	wantProblems []string
}

func badCases(tb testing.TB) []badCase {
	tb.Helper()
	good := lines(okSession("s1", 0)...)
	// A gzip stream of the good session in two parts: lines 1-2, then 3-5.
	head := lines(okSession("s1", 0)[:2]...)
	tail := good[len(head):]
	gz, offs := gzipFlushed(tb, head, tail)
	truncated := gz[:offs[0]]
	corruptMid := append(append([]byte(nil), gz[:offs[0]]...), 0x07, 0x00, 0x00, 0x00)
	badCRC := append([]byte(nil), gz...)
	badCRC[len(badCRC)-8] ^= 0xff // first byte of the CRC-32 trailer
	badHeader := append([]byte{0x1f, 0x8b, 0x63}, gz[3:]...)
	trailing := append(append([]byte(nil), gz...), []byte("this is not a gzip member at all\n")...)
	longLine := ev("tool_call", "s1", 3, `"call_id":"c1","tool":"read_file","server":"files","result":"`+
		strings.Repeat("x", 20<<20)+`"`)

	return []badCase{
		{name: "valid", data: good},
		// An empty file was "valid: 0 sessions, 0 problems", while a run over
		// it stops: validate says so, of the whole file (no line number).
		{name: "empty file", data: nil,
			wantProblems: []string{"mem.jsonl: the file is empty: no session to validate, and a run over it replays nothing; check that the export that wrote it finished"}},
		{name: "blank lines only", data: []byte("\n\r\n\n"),
			wantProblems: []string{"mem.jsonl: its 3 lines are blank: no session to validate, and a run over it replays nothing; check that the export that wrote it finished"}},
		{name: "blank lines and CRLF", data: []byte(strings.Join(okSession("s1", 0), "\r\n\n") + "\r\n")},
		{
			name:         "broken line in the middle",
			data:         lines(ev("session_start", "s1", 0, ""), `{"type":"user","session":"s1","t":"2026-01-01T`, ev("session_end", "s1", 2, "")),
			wantErr:      "mem.jsonl:2: invalid JSON at column 46: unexpected end of JSON input",
			wantProblems: []string{"mem.jsonl:2: invalid JSON at column 46: unexpected end of JSON input"},
		},
		{
			name:    "trailing garbage after the object",
			data:    lines(ev("session_start", "s1", 0, "")+` xyz`, ev("session_end", "s1", 2, "")),
			wantErr: "mem.jsonl:1: invalid JSON at column 74: invalid character 'x' after top-level value",
			wantProblems: []string{
				"mem.jsonl:1: invalid JSON at column 74: invalid character 'x' after top-level value",
				`mem.jsonl:2: session "s1": first event is session_end, not session_start`,
			},
		},
		{
			// A UTF-8 byte order mark (a Windows editor's) used to read
			// "invalid character 'ï' looking for beginning of value".
			name:    "UTF-8 byte order mark",
			data:    append([]byte("\xef\xbb\xbf"), good...),
			wantErr: "mem.jsonl:1: line starts with a UTF-8 byte order mark (bytes EF BB BF), which a JSON line must not: remove it",
			wantProblems: []string{
				"mem.jsonl:1: line starts with a UTF-8 byte order mark (bytes EF BB BF), which a JSON line must not: remove it",
				`mem.jsonl:2: session "s1": first event is user, not session_start`,
			},
		},
		{
			name:         "line is not an object",
			data:         lines(`[1,2,3]`),
			wantErr:      "mem.jsonl:1: invalid JSON: line is a JSON array, not an object" + arrayAdvice,
			wantProblems: []string{"mem.jsonl:1: invalid JSON: line is a JSON array, not an object" + arrayAdvice},
		},
		{
			name:         "invalid UTF-8",
			data:         lines(ev("session_start", "s1", 0, ""), ev("user", "s1", 1, "\"text\":\"caf\xe9\""), ev("session_end", "s1", 2, "")),
			wantErr:      "mem.jsonl:2: invalid UTF-8 at column 69",
			wantProblems: []string{"mem.jsonl:2: invalid UTF-8 at column 69"},
		},
		{
			name:         "NUL byte",
			data:         lines(ev("session_start", "s1", 0, ""), "\x00"+ev("user", "s1", 1, ""), ev("session_end", "s1", 2, "")),
			wantErr:      "mem.jsonl:2: NUL byte at column 1",
			wantProblems: []string{"mem.jsonl:2: NUL byte at column 1"},
		},
		{
			name:         "unknown event type",
			data:         lines(ev("session_start", "s1", 0, ""), ev("thought", "s1", 1, ""), ev("session_end", "s1", 2, "")),
			wantErr:      `mem.jsonl:2: unknown event type "thought"`,
			wantProblems: []string{`mem.jsonl:2: unknown event type "thought"`},
		},
		{
			name:    "missing type, session and t",
			data:    lines(ev("session_start", "s1", 0, ""), `{"text":"hi"}`, ev("session_end", "s1", 2, "")),
			wantErr: `mem.jsonl:2: missing required field "type"`,
			wantProblems: []string{
				`mem.jsonl:2: missing required field "type"`,
				`mem.jsonl:2: missing required field "session"`,
				`mem.jsonl:2: missing required field "t"` + missingTimeHint,
			},
		},
		{
			name: "missing per-type fields",
			data: lines(ev("session_start", "s1", 0, ""), ev("tool_call", "s1", 1, `"tool":"read_file"`),
				ev("catalog_change", "s1", 2, ""), ev("session_end", "s1", 3, "")),
			wantErr: `mem.jsonl:2: missing required field "call_id"`,
			wantProblems: []string{
				`mem.jsonl:2: missing required field "call_id"`,
				`mem.jsonl:2: missing required field "server"`,
				`mem.jsonl:3: missing required field "server"`,
				`mem.jsonl:3: missing required field "version"`,
			},
		},
		{
			name:         "session_start without version",
			data:         lines(`{"type":"session_start","session":"s1","t":"2026-01-01T00:00:00Z"}`, ev("session_end", "s1", 1, "")),
			wantErr:      `mem.jsonl:1: missing required field "v"`,
			wantProblems: []string{`mem.jsonl:1: missing required field "v"`},
		},
		{
			name:         "unsupported version",
			data:         lines(strings.Replace(ev("session_start", "s1", 0, ""), `"v":1`, `"v":2`, 1), ev("session_end", "s1", 1, "")),
			wantErr:      "mem.jsonl:1: unsupported format version 2 (this reader supports 1)",
			wantProblems: []string{"mem.jsonl:1: unsupported format version 2 (this reader supports 1)"},
		},
		{
			name: "negative duration and tokens",
			data: lines(ev("session_start", "s1", 0, ""), ev("model_request", "s1", 1, `"id":"r1","duration_ms":-5,"usage":{"input":-1,"output":3}`),
				ev("session_end", "s1", 2, "")),
			wantErr: `mem.jsonl:2: field "duration_ms": negative value -5`,
			wantProblems: []string{
				`mem.jsonl:2: field "duration_ms": negative value -5`,
				`mem.jsonl:2: field "usage.input": negative value -1`,
			},
		},
		{
			name: "wrong value types",
			data: lines(ev("session_start", "s1", 0, ""), ev("model_request", "s1", 1, `"id":"r1","ttft_ms":"fast"`),
				`{"type":"user","session":"s1","t":"yesterday"}`, ev("session_end", "s1", 3, "")),
			wantErr: `mem.jsonl:2: field "ttft_ms": cannot use JSON string as int64`,
			wantProblems: []string{
				`mem.jsonl:2: field "ttft_ms": cannot use JSON string as int64`,
				`mem.jsonl:3: field "t": not an RFC 3339 time (parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006")`,
			},
		},
		{
			name: "bad status and args",
			data: lines(ev("session_start", "s1", 0, ""),
				ev("tool_call", "s1", 1, `"call_id":"c1","tool":"t","server":"s","status":"maybe","args":[1]`),
				ev("session_end", "s1", 2, "")),
			wantErr: `mem.jsonl:2: field "status": unknown status "maybe" (want ok, error, rejected or denied)`,
			wantProblems: []string{
				`mem.jsonl:2: field "status": unknown status "maybe" (want ok, error, rejected or denied)`,
				`mem.jsonl:2: field "args": must be a JSON object or string`,
			},
		},
		{
			name: "unknown and null fields (reader ignores them)",
			data: lines(ev("session_start", "s1", 0, `"sesion":"typo","x_source":"ok","meta":null,"servers":[{"name":"a","url":"u"}]`),
				ev("model_request", "s1", 1, `"id":"r1","usage":{"input":1}`), ev("session_end", "s1", 2, `"v":0`)),
			wantProblems: []string{
				`mem.jsonl:1: field "meta": null is not allowed`,
				`mem.jsonl:1: unknown field "sesion"`,
				`mem.jsonl:1: unknown field "servers[0].url"`,
				`mem.jsonl:2: missing required field "usage.output"`,
				`mem.jsonl:3: unsupported format version 0 (this reader supports 1)`,
			},
		},
		{
			name:         "backwards timestamps (reader accepts them)",
			data:         lines(ev("session_start", "s1", 5, ""), ev("user", "s1", 3, ""), ev("user", "s1", 4, ""), ev("session_end", "s1", 6, "")),
			wantProblems: []string{`mem.jsonl:2: session "s1": time goes backwards: 2026-01-01T00:00:03Z is before 2026-01-01T00:00:05Z at line 1`},
		},
		{
			name:         "event after session_end",
			data:         lines(ev("session_start", "s1", 0, ""), ev("session_end", "s1", 1, ""), ev("user", "s1", 2, "")),
			wantErr:      `mem.jsonl:3: user event for session "s1", which is not open (no session_start before it, or it already ended)`,
			wantProblems: []string{`mem.jsonl:3: session "s1": user event after its session_end at line 2`},
		},
		{
			name:    "event before session_start",
			data:    lines(ev("user", "s1", 0, ""), ev("session_start", "s1", 1, ""), ev("session_end", "s1", 2, "")),
			wantErr: `mem.jsonl:1: user event for session "s1", which is not open (no session_start before it, or it already ended)`,
			wantProblems: []string{
				`mem.jsonl:1: session "s1": first event is user, not session_start`,
				`mem.jsonl:2: session "s1": session_start is not the first event (session began at line 1)`,
			},
		},
		{
			name:         "session_start twice",
			data:         lines(ev("session_start", "s1", 0, ""), ev("session_start", "s1", 1, ""), ev("session_end", "s1", 2, "")),
			wantErr:      `mem.jsonl:2: session_start for session "s1", which is already open since line 1`,
			wantProblems: []string{`mem.jsonl:2: session "s1": session_start is not the first event (session began at line 1)`},
		},
		{
			name:         "duplicate session id (reader yields both)",
			data:         lines(append(okSession("s1", 0), okSession("s1", 10)...)...),
			wantProblems: []string{`mem.jsonl:6: session "s1" starts again after its session_end at line 5 (duplicate session id)`},
		},
		{
			name:         "no session_end (reader yields it at EOF)",
			data:         lines(okSession("s1", 0)[:4]...),
			wantProblems: []string{`mem.jsonl:1: session "s1" has no session_end`},
		},
		{
			name: "request naming no earlier model_request",
			data: lines(ev("session_start", "s1", 0, ""),
				ev("tool_call", "s1", 1, `"request":"r1","call_id":"c1","tool":"t","server":"s"`),
				ev("model_request", "s1", 2, `"id":"r1"`), ev("model_request", "s1", 3, `"id":"r1"`),
				ev("session_end", "s1", 4, "")),
			wantProblems: []string{
				`mem.jsonl:2: session "s1": tool_call names request "r1", which is no earlier model_request`,
				`mem.jsonl:4: session "s1": model_request id "r1" already used at line 3`,
			},
		},
		{
			name:         "too many open sessions",
			data:         lines(ev("session_start", "a", 0, ""), ev("session_start", "b", 0, ""), ev("session_start", "c", 0, "")),
			opts:         ReadOptions{MaxOpenSessions: 2},
			wantErr:      "mem.jsonl:3: more than 2 sessions open at once (raise ReadOptions.MaxOpenSessions)",
			wantProblems: []string{`mem.jsonl:1: session "a" has no session_end`, `mem.jsonl:2: session "b" has no session_end`, `mem.jsonl:3: session "c" has no session_end`},
		},
		{
			// Pins the singular for a limit of one: "more than 1 sessions
			// open at once" was printed before.
			name:         "too many open sessions, limit one",
			data:         lines(ev("session_start", "a", 0, ""), ev("session_start", "b", 0, "")),
			opts:         ReadOptions{MaxOpenSessions: 1},
			wantErr:      "mem.jsonl:2: more than 1 session open at once (raise ReadOptions.MaxOpenSessions)",
			wantProblems: []string{`mem.jsonl:1: session "a" has no session_end`, `mem.jsonl:2: session "b" has no session_end`},
		},
		{
			name:         "20 MB line over a 1 MiB limit",
			data:         lines(ev("session_start", "s1", 0, ""), longLine, ev("session_end", "s1", 4, "")),
			opts:         ReadOptions{MaxLineBytes: 1 << 20},
			wantErr:      "mem.jsonl:2: line longer than 1048576 bytes",
			wantProblems: []string{"mem.jsonl:2: line longer than 1048576 bytes"},
		},
		{
			name:         "last line without newline over the limit",
			data:         []byte(ev("session_start", "s1", 0, "") + "\n" + strings.Repeat("y", 300)),
			opts:         ReadOptions{MaxLineBytes: 200},
			wantErr:      "mem.jsonl:2: line longer than 200 bytes",
			wantProblems: []string{`mem.jsonl:1: session "s1" has no session_end`, "mem.jsonl:2: line longer than 200 bytes"},
		},
		{name: "gzip", data: gz},
		{name: "two gzip members", data: append(append([]byte(nil), gz...), mustGzip(tb, lines(okSession("s2", 0)...))...)},
		{
			name:         "truncated gzip",
			data:         truncated,
			wantErr:      "mem.jsonl:3: truncated gzip stream (unexpected EOF): " + truncatedGzipAdvice("mem.jsonl"),
			wantProblems: []string{"mem.jsonl:3: truncated gzip stream (unexpected EOF): " + truncatedGzipAdvice("mem.jsonl")},
		},
		{
			name:         "gzip cut inside the header",
			data:         gz[:5],
			wantErr:      "mem.jsonl:1: truncated gzip stream (unexpected EOF): " + truncatedGzipAdvice("mem.jsonl"),
			wantProblems: []string{"mem.jsonl:1: truncated gzip stream (unexpected EOF): " + truncatedGzipAdvice("mem.jsonl")},
		},
		{
			// The offset is the decompressor's: github.com/klauspost/compress
			// notices the bad code a byte later than compress/flate did
			// (offs[0]-10+1), as it fetches a whole code's worth of bits first.
			name:         "corrupt gzip data in the middle",
			data:         corruptMid,
			wantErr:      fmt.Sprintf("mem.jsonl:3: corrupt gzip stream (flate: corrupt input before offset %d)", offs[0]-10+2),
			wantProblems: []string{fmt.Sprintf("mem.jsonl:3: corrupt gzip stream (flate: corrupt input before offset %d)", offs[0]-10+2)},
		},
		{
			name:         "corrupt gzip checksum",
			data:         badCRC,
			wantErr:      "mem.jsonl:6: corrupt gzip stream (gzip: invalid checksum)",
			wantProblems: []string{"mem.jsonl:6: corrupt gzip stream (gzip: invalid checksum)"},
		},
		{
			name:         "corrupt gzip header",
			data:         badHeader,
			wantErr:      "mem.jsonl:1: corrupt gzip stream (gzip: invalid header)",
			wantProblems: []string{"mem.jsonl:1: corrupt gzip stream (gzip: invalid header)"},
		},
		{
			name:         "trailing garbage after the gzip stream",
			data:         trailing,
			wantErr:      "mem.jsonl:6: corrupt gzip stream (gzip: invalid header)",
			wantProblems: []string{"mem.jsonl:6: corrupt gzip stream (gzip: invalid header)"},
		},
	}
}

func mustGzip(tb testing.TB, data []byte) []byte {
	tb.Helper()
	out, _ := gzipFlushed(tb, data)
	return out
}

func TestReaderBadInput(t *testing.T) {
	for _, tc := range badCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readSessions(t, tc.data, tc.opts)
			got := ""
			if err != nil {
				got = err.Error()
				var le *LineError
				if !errors.As(err, &le) {
					t.Errorf("error %v is a %T, want *LineError", err, err)
				}
			}
			if got != tc.wantErr {
				t.Errorf("reader error:\n got %q\nwant %q", got, tc.wantErr)
			}
		})
	}
}

func TestValidateBadInput(t *testing.T) {
	for _, tc := range badCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			probs, _, err := ValidateReader(bytes.NewReader(tc.data), "mem.jsonl", ValidateOptions{MaxLineBytes: tc.opts.MaxLineBytes})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range probs {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tc.wantProblems, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// truncatedGzipAdvice is what a truncated gzip stream's reason says after
// "(unexpected EOF): " of file. It pins that the reason says what the file is and
// what to do: it said only "truncated gzip stream (unexpected EOF)", and
// --skip-bad, which a reader of that would try, does not read past it.
func truncatedGzipAdvice(file string) string {
	return "the file ends inside its compressed data, as a copy, download or export cut short leaves it; " +
		"copy or export it again (gzip -dc " + file + " > part.jsonl keeps the lines before this one, its last session cut short; --skip-bad does not read past it)"
}
