package importers_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces/importers"
)

// TestInputEncodingsImportAsThePlainFile pins that a UTF-8 byte order mark at
// the start of an input, CRLF line ends and gzip change nothing in what any
// importer writes: every format's sample imports to the same trace bytes as
// the plain file. A BOM (as Windows tools write one) made every importer
// stop with "line 1 col 2: invalid character 'ï' looking for beginning of
// value", the JSON Lines ones with "line 1: line 1 col 2: …".
func TestInputEncodingsImportAsThePlainFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
	}{
		{"bom", func(b []byte) []byte { return append([]byte("\xef\xbb\xbf"), b...) }},
		{"crlf", func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }},
		{"bom and crlf", func(b []byte) []byte {
			return append([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))...)
		}},
		{"gzip of bom", func(b []byte) []byte { return gzipped(t, append([]byte("\xef\xbb\xbf"), b...)) }},
	} {
		for _, s := range formatSamples {
			t.Run(tc.name+"/"+s.name, func(t *testing.T) {
				plain := importCopies(t, s.format, s.inputs, func(b []byte) []byte { return b })
				edited := importCopies(t, s.format, s.inputs, tc.edit)
				if diff := cmp.Diff(plain, edited); diff != "" {
					t.Errorf("trace differs from the plain file's (-plain +%s):\n%s", tc.name, diff)
				}
			})
		}
	}
}

// importCopies imports edited copies of inputs, each at its own path under
// a new directory (formats label sessions by file and directory names), and
// returns the trace written.
func importCopies(t *testing.T, format string, inputs []string, edit func([]byte) []byte) string {
	t.Helper()
	dir := t.TempDir()
	var copies []string
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "in", in)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, edit(data), 0o644); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, p)
	}
	out := filepath.Join(dir, "out", "t.jsonl")
	if _, err := importers.Run(importers.Request{Format: format, Inputs: copies, Out: out}); err != nil {
		t.Fatal(err)
	}
	trace, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(trace)
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDamagedGzipInputSaysSo pins that an input whose gzip stream is cut
// short or damaged stops the import with a message that says which and what
// to do, naming the input, and writes nothing. A cut stream said only
// "tau.json.gz: unexpected EOF".
func TestDamagedGzipInputSaysSo(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("taubench", "testdata", "test-model-airline.json"))
	if err != nil {
		t.Fatal(err)
	}
	gz := gzipped(t, data)
	flipped := bytes.Clone(gz)
	flipped[len(flipped)-6] ^= 0xff // inside the CRC-32 trailer
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"cut in the data", gz[:len(gz)/2],
			"truncated gzip stream (unexpected EOF): the file ends inside its compressed data, as a copy, download or export cut short leaves it; copy or export it again"},
		{"cut in the header", gz[:5],
			"truncated gzip stream (unexpected EOF): the file ends inside its compressed data, as a copy, download or export cut short leaves it; copy or export it again"},
		{"checksum", flipped,
			"corrupt gzip stream (gzip: invalid checksum): the compressed data is damaged; copy or export it again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json.gz")
			if err := os.WriteFile(in, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out", "t.jsonl")
			_, err := importers.Run(importers.Request{Format: "tau-bench", Inputs: []string{in}, Out: out})
			if want := in + ": " + tc.want; err == nil || err.Error() != want {
				t.Fatalf("error = %v\nwant      %s", err, want)
			}
			if _, err := os.Stat(filepath.Dir(out)); !os.IsNotExist(err) {
				t.Errorf("the failed import left its output directory (%v)", err)
			}
		})
	}
}

// TestMalformedLineSaysLineAndColumn pins the position a malformed line of
// a JSON Lines input is reported at: its line and the column in it. It read
// "line 3: line 1 col 501: …" (openai-messages, anthropic-messages) and
// "line 2: : line 1 col 301: …" (otel), the line within the line.
func TestMalformedLineSaysLineAndColumn(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		format, sample string
		want           string
	}{
		{"openai-messages", filepath.Join("openaimsg", "testdata", "conversations.jsonl"),
			"line 2 col 41: unexpected end of JSON input"},
		{"anthropic-messages", filepath.Join("anthropicmsg", "testdata", "conversations.jsonl"),
			"line 2 col 41: unexpected end of JSON input"},
		{"otel", filepath.Join("otel", "testdata", "export.json"),
			"line 2 col 41: unexpected end of JSON input"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			data, err := os.ReadFile(tc.sample)
			if err != nil {
				t.Fatal(err)
			}
			// The sample's first record on line 1, then the first 40 bytes
			// of it with leading blanks (they count in the column), then
			// the whole record again.
			first := firstRecord(t, data)
			lines := string(first) + "\n  " + string(first[:38]) + "\r\n" + string(first) + "\n"
			in := filepath.Join(dir, tc.format+".jsonl")
			if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = importers.Run(importers.Request{Format: tc.format, Inputs: []string{in}, Out: filepath.Join(dir, "out.jsonl")})
			if want := filepath.Base(in) + ": " + tc.want; err == nil || err.Error() != want {
				t.Fatalf("error = %v\nwant      %s", err, want)
			}
		})
	}
}

// firstRecord returns the first JSON Lines record of data compacted to one
// line, or data itself compacted when it is one JSON document.
func firstRecord(t *testing.T, data []byte) []byte {
	t.Helper()
	rec := data
	if i := bytes.IndexByte(data, '\n'); i > 0 && bytes.HasPrefix(bytes.TrimSpace(data[:i]), []byte("{")) && bytes.HasSuffix(bytes.TrimSpace(data[:i]), []byte("}")) {
		rec = data[:i]
	}
	var buf bytes.Buffer
	if err := compactJSON(&buf, rec); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func compactJSON(buf *bytes.Buffer, b []byte) error { return json.Compact(buf, b) }
