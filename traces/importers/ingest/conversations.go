package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Conversations splits a file of chat transcripts into conversations and
// calls fn for each with its position ("" for a whole-file conversation,
// "[i]" for element i of a whole-file array, "line N" for JSON Lines).
//
//   - A file holding one JSON object is one conversation.
//   - A file holding one JSON array is one conversation when its first
//     element is a message (an object with a "role"), else an array of
//     conversations.
//   - Anything else is read as JSON Lines, one conversation (object or bare
//     message array) per line.
//
// A line that is not valid JSON stops the reading with an error naming its
// line and column, unless bad is set: bad is then called with that error,
// and the reading goes on when it returns nil (--skip-bad).
func Conversations(data []byte, bad func(error) error, fn func(pos string, raw json.RawMessage) error) error {
	first := FirstByte(data)
	if (first == '{' || first == '[') && json.Valid(data) {
		if first == '{' {
			return fn("", json.RawMessage(bytes.TrimSpace(data)))
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(data, &elems); err != nil {
			return JSONError(data, err)
		}
		if len(elems) == 0 {
			return nil
		}
		if isMessage(elems[0]) {
			return fn("", json.RawMessage(bytes.TrimSpace(data)))
		}
		for i, e := range elems {
			if err := fn(fmt.Sprintf("[%d]", i), e); err != nil {
				return err
			}
		}
		return nil
	}
	if (first == '{' || first == '[') && !jsonLines(data) {
		// One JSON document, damaged: no line of it is a conversation of
		// its own, so there is no line to skip (--skip-bad skipped its
		// lines one by one, a good conversation among them, and imported
		// what was left).
		var v any
		return JSONError(data, json.Unmarshal(data, &v))
	}
	return Lines(bytes.NewReader(data), func(n int, line []byte) error {
		trimmed := bytes.TrimSpace(line)
		if !json.Valid(trimmed) {
			var v any
			// Leading blanks count in the column; the line's end does not.
			line = bytes.TrimRight(line, " \t\r\n")
			err := LineJSONError(n, line, json.Unmarshal(line, &v))
			if bad != nil {
				return bad(err)
			}
			return err
		}
		return fn(fmt.Sprintf("line %d", n), json.RawMessage(trimmed))
	})
}

// jsonLines reports whether data reads as JSON Lines (with bad lines,
// maybe): one non-blank line, or a line that is a JSON object or array by
// itself. Else it is one document spread over lines.
func jsonLines(data []byte) bool {
	lines := 0
	for line := range bytes.Lines(data) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		lines++
		if (t[0] == '{' || t[0] == '[') && json.Valid(t) {
			return true
		}
	}
	return lines <= 1
}

func isMessage(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m["role"]
	return ok
}

// ImportConversations reads every conversation of the file name from r
// (Conversations) and calls fn with the file's stem (name less ".gz" and
// its extension), the conversation's number from 1, and its position.
// With opts.SkipBad a line that is not valid JSON is counted in rep and
// skipped, keeping its number: later conversations keep the ids they get
// once the line is repaired.
func ImportConversations(name string, r io.Reader, opts *Options, rep *Report, fn func(stem string, n int, pos string, raw json.RawMessage) error) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	base := strings.TrimSuffix(name, ".gz")
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	n := 0
	var bad func(error) error
	if opts.SkipBad {
		bad = func(err error) error {
			n++
			rep.SkipLine(name, err)
			return nil
		}
	}
	err = Conversations(data, bad, func(pos string, raw json.RawMessage) error {
		n++
		return fn(stem, n, pos, raw)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
