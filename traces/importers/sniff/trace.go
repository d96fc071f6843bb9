package sniff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/defersim/defersim/traces/importers/ingest"
)

// maxTraceLine bounds how much of an input TraceFile reads: a trace's
// first line (its first session_start, system prompt included) fits well
// within it; an input whose first line does not is not taken for a trace.
const maxTraceLine = 4 << 20

// Trace returns why data (decompressed) is a defersim trace, one that
// needs no import, or "" when it is not: a trace's first record (line) is
// a session_start, which has a string "session" and a number "v"; no
// import format writes a record of that shape (docs/trace-format.md).
func Trace(data []byte) string {
	data = bytes.TrimPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("\xef\xbb\xbf"))
	line, _, _ := bytes.Cut(data, []byte("\n"))
	obj := object(line)
	if str(obj["type"]) != "session_start" || !isString(obj["session"]) {
		return ""
	}
	var v json.Number
	if isString(obj["v"]) || json.Unmarshal(obj["v"], &v) != nil {
		return ""
	}
	return `its first record is a session_start with "v": ` + v.String()
}

// TraceFile is Trace of the input at path (decompressed when gzip), of
// which it reads the first line only (up to maxTraceLine); an input that
// cannot be read is not a trace.
func TraceFile(path string) string {
	r, err := ingest.Open(path)
	if err != nil {
		return ""
	}
	defer r.Close()
	br := bufio.NewReader(io.LimitReader(r, maxTraceLine))
	var head []byte
	for {
		// Blank lines before the first record are skipped, as the trace
		// reader skips them.
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 || err != nil {
			head = line
			break
		}
	}
	// A first line cut at maxTraceLine does not parse: not a trace.
	return Trace(head)
}
