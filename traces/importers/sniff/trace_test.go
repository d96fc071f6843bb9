package sniff_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces/importers/sniff"
)

// TestTrace pins what is taken for a defersim trace (its first record a
// session_start with a string "session" and a number "v") and what is
// not: a session_start later in the input, one without "v" or with a
// string "v", another format's records, a file that is not JSON.
func TestTrace(t *testing.T) {
	const start = `{"v":1,"type":"session_start","session":"s","t":"2025-01-01T00:00:00Z"}`
	const why = `its first record is a session_start with "v": 1`
	tests := []struct {
		name, data, why string
	}{
		{"trace v1", start + "\n" + `{"type":"user","session":"s","t":"2025-01-01T00:00:01Z","text":"q"}` + "\n", why},
		{"one line without newline", start, why},
		{"blank lines first", "\n\r\n  \n" + start + "\n", why},
		{"byte order mark", "\xef\xbb\xbf" + start + "\n", why},
		{"members in another order", `{"session":"s","type":"session_start","t":"x","v":2}`, `its first record is a session_start with "v": 2`},
		{"session_start not first", `{"type":"user","session":"s"}` + "\n" + start, ""},
		{"no v", `{"type":"session_start","session":"s"}`, ""},
		{"string v", `{"v":"1","type":"session_start","session":"s"}`, ""},
		{"session not a string", `{"v":1,"type":"session_start","session":1}`, ""},
		{"other type", `{"v":1,"type":"user","session":"s"}`, ""},
		{"claude-code record", `{"type":"user","sessionId":"s","uuid":"u"}`, ""},
		{"array", `[` + start + `]`, ""},
		{"pretty-printed", "{\n  \"v\": 1,\n  \"type\": \"session_start\",\n  \"session\": \"s\"\n}\n", ""},
		{"not JSON", "v=1 type=session_start", ""},
		{"empty", "", ""},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sniff.Trace([]byte(tt.data)); got != tt.why {
				t.Errorf("Trace = %q, want %q", got, tt.why)
			}
			path := filepath.Join(dir, strings.Repeat("x", i+1))
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := sniff.TraceFile(path); got != tt.why {
				t.Errorf("TraceFile = %q, want %q", got, tt.why)
			}
		})
	}
}

// TestTraceFile pins that TraceFile reads gzip inputs, that an input it
// cannot read is not a trace, and that it reads only the first line: a
// first line longer than its bound is not taken for one.
func TestTraceFile(t *testing.T) {
	dir := t.TempDir()
	start := `{"v":1,"type":"session_start","session":"s","t":"2025-01-01T00:00:00Z"}` + "\n"
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(start)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "trace.jsonl.gz")
	long := filepath.Join(dir, "long.jsonl")
	huge := `{"v":1,"type":"session_start","session":"s","system_prompt":"` + strings.Repeat("p", 5<<20) + `"}` + "\n"
	for name, data := range map[string][]byte{gz: buf.Bytes(), long: []byte(huge)} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if why := sniff.TraceFile(gz); why == "" {
		t.Error("gzip trace: not taken for a trace")
	}
	if why := sniff.TraceFile(filepath.Join(dir, "missing.jsonl")); why != "" {
		t.Errorf("missing input: %q, want none", why)
	}
	if why := sniff.TraceFile(long); why != "" {
		t.Errorf("first line beyond the bound: %q, want none", why)
	}
}
