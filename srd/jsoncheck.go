package srd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/defersim/defersim/internal/jsonpos"
)

// isJSONName reports whether a file is named as JSON (.json, any case).
func isJSONName(file string) bool { return strings.EqualFold(filepath.Ext(file), ".json") }

// NotJSON checks that data, a file named .json, is one JSON value. The
// YAML reader takes JSON, and more: a trailing comma, comments, unquoted
// or single-quoted strings. Such a file read the same to defersim but is
// refused by every JSON tool the SRD is also given to (a runtime, the JSON
// Schema), so it is reported at the line and column of the fault, and a
// trailing comma at the comma. A UTF-8 or UTF-16 byte order mark is
// allowed, as for YAML.
func NotJSON(file string, data []byte) (Problem, bool) {
	text := jsonText(data)
	dec := json.NewDecoder(bytes.NewReader(text))
	var v json.RawMessage
	err := dec.Decode(&v)
	if errors.Is(err, io.EOF) {
		return Problem{}, true // empty: "no SRD in file" says it
	}
	if err == nil {
		var extra json.RawMessage
		switch err = dec.Decode(&extra); {
		case errors.Is(err, io.EOF):
			return Problem{}, true
		case err == nil:
			line, col := jsonpos.LineCol(text, dec.InputOffset()-int64(len(extra)))
			return Problem{File: file, Line: line, Unreadable: true,
				Msg: fmt.Sprintf("invalid JSON: a second value at column %d (a JSON file holds one SRD; write several as YAML documents separated by ---)", col)}, false
		}
	}
	off, ok := jsonpos.Offset(err)
	if !ok {
		return Problem{File: file, Unreadable: true, Msg: "invalid JSON: " + err.Error()}, false
	}
	at := max(off-1, 0) // the offset is just past the byte at fault
	if at < int64(len(text)) && (text[at] == '}' || text[at] == ']') {
		if c := bytes.LastIndexFunc(text[:at], func(r rune) bool { return !strings.ContainsRune(" \t\r\n", r) }); c >= 0 && text[c] == ',' {
			line, col := jsonpos.LineCol(text, int64(c))
			return Problem{File: file, Line: line, Unreadable: true,
				Msg: fmt.Sprintf("invalid JSON: a comma before %q at column %d (JSON allows no trailing comma)", text[at], col)}, false
		}
	}
	line, col := jsonpos.LineCol(text, at)
	return Problem{File: file, Line: line, Unreadable: true,
		Msg: fmt.Sprintf("invalid JSON: %v at column %d", err, col)}, false
}

// jsonText is data as UTF-8 without a byte order mark: a UTF-16 file (with
// its mark, as NotUTF8 requires) is transcoded.
func jsonText(data []byte) []byte {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return data[3:]
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}), bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		big := data[0] == 0xFE
		units := make([]uint16, 0, len(data)/2)
		for i := 2; i+1 < len(data); i += 2 {
			if big {
				units = append(units, uint16(data[i])<<8|uint16(data[i+1]))
			} else {
				units = append(units, uint16(data[i+1])<<8|uint16(data[i]))
			}
		}
		return []byte(string(utf16.Decode(units)))
	}
	return data
}
