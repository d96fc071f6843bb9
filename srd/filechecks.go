package srd

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// tooLarge is the problem of a file over MaxFileSize; size < 0 when the
// size is not known (only that it is over).
func tooLarge(file string, size int64) Problem {
	if size < 0 {
		return Problem{File: file, Msg: fmt.Sprintf("file is more than the %d bytes allowed", MaxFileSize)}
	}
	return Problem{File: file, Msg: fmt.Sprintf("file is %d bytes, more than the %d allowed", size, MaxFileSize)}
}

// notUTF8 checks that data is UTF-8 text, or starts with a UTF-16 byte
// order mark (the YAML reader decodes both). Otherwise the problem names
// the line and column of the first byte that is not UTF-8, so a file saved
// in Latin-1 or Windows-1252 is found without searching it.
func notUTF8(file string, data []byte) (Problem, bool) {
	if utf8.Valid(data) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return Problem{}, true
	}
	i := 0
	for i < len(data) {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		i += n
	}
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	col := utf8.RuneCount(data[start:i]) + 1
	return Problem{File: file, Line: bytes.Count(data[:i], []byte{'\n'}) + 1,
		Msg: fmt.Sprintf("not UTF-8: byte 0x%02X at column %d is not UTF-8 text (save the file as UTF-8)", data[i], col)}, false
}
