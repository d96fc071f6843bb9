package scenarios

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// checkEncoding rejects bytes the YAML parser would reject without saying
// where: text that is not UTF-8 and control characters other than tab, CR
// and LF. A file starting with a UTF-16 byte order mark is left to the
// parser, which reads UTF-16.
func checkEncoding(name string, data []byte) error {
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return &Error{File: name, Line: line, Msg: fmt.Sprintf("invalid UTF-8 at column %d", col)}
		case r == '\n':
			line, col = line+1, 0
		case r < 0x20 && r != '\t' && r != '\r', r == 0x7f:
			return &Error{File: name, Line: line, Msg: fmt.Sprintf("control character %U at column %d", r, col)}
		}
		i += n
		col++
	}
	return nil
}
