package srd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// The checks below are those of every hand-written YAML file a command
// reads whole (SRD files here; srd eval's task files in
// internal/retrieval): a bound on its size and UTF-8 text.

// tooLarge is the problem of an SRD file over MaxFileSize.
func tooLarge(file string, size int64) Problem { return TooLarge(file, size, MaxFileSize) }

// TooLarge is the problem of a file over limit bytes; size is the file's
// own, or < 0 when it is not known (only that it is over).
func TooLarge(file string, size, limit int64) Problem {
	if size < 0 {
		return Problem{File: file, Msg: fmt.Sprintf("file is more than the %d bytes allowed", limit), Unreadable: true}
	}
	return Problem{File: file, Msg: fmt.Sprintf("file is %d bytes, more than the %d allowed", size, limit), Unreadable: true}
}

// ReadLimited reads at most limit+1 bytes of file and returns them with
// the file's size (-1 when the file does not say, as a pipe): more than
// limit bytes read means the file is over it (TooLarge), and no more than
// that was held to find out.
func ReadLimited(file string, limit int64) ([]byte, int64, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", file, err)
	}
	return data, size, nil
}

// NotUTF8 checks that data is UTF-8 text, or starts with a UTF-16 byte
// order mark (the YAML reader decodes both). Otherwise the problem names
// the line and column of the first byte that is not UTF-8, so a file saved
// in Latin-1 or Windows-1252 is found without searching it.
func NotUTF8(file string, data []byte) (Problem, bool) {
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
		Msg: fmt.Sprintf("not UTF-8: byte 0x%02X at column %d is not UTF-8 text (save the file as UTF-8)", data[i], col), Unreadable: true}, false
}
