// Package jsonpos locates encoding/json errors in the data they are about:
// the 1-based line and column of the offset a *json.SyntaxError or
// *json.UnmarshalTypeError carries, for messages that point an editor at
// the place.
package jsonpos

import (
	"encoding/json"
	"errors"
)

// Offset returns the byte offset err (a syntax or type error of
// encoding/json, possibly wrapped) carries; ok is false for other errors.
func Offset(err error) (off int64, ok bool) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return se.Offset, true
	case errors.As(err, &te):
		return te.Offset, true
	}
	return 0, false
}

// LineCol returns the 1-based line and column of byte offset off in data,
// off clamped to data. encoding/json's offsets point just past the byte or
// value at fault.
func LineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	line, col = 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
