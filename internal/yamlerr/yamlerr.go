// Package yamlerr locates the syntax errors of go.yaml.in/yaml/v3 by line.
//
// The library numbers lines two ways in its "yaml: line N: …" messages: a
// scanner error (a character that cannot start a token, a tab in an
// indentation) gives the 1-based line, while a parser error (a flow
// mapping or sequence not closed where it should be, a key missing) gives
// the 0-based line of the problem, or of the collection the problem is in,
// one less than an editor shows, and either kind names no line at all on
// the first line. A
// JSON file read as YAML (an SRD, a hard set, a scenario) with a syntax
// error was reported on the line before the one holding it.
package yamlerr

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// parserProblems are the problems the library's parser (not its scanner)
// reports: the messages whose line it numbers from 0.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Locate returns the 1-based line an error of the YAML library decoding
// data is on (0 when it names none) and its message without the "yaml:
// line N: " or "yaml: " prefix. A parser error is moved to the line an
// editor shows, and one found at the end of data (a bracket never closed)
// to data's last line rather than the empty line after it;
// a syntax error that names no line is on line 1 (the library leaves the
// line out when it would be 0); a reader error (bytes that are not text)
// and an error of a decode ("yaml: unmarshal errors: …", which numbers
// its own lines) have none.
func Locate(err error, data []byte) (line int, msg string) {
	text := err.Error()
	if m := lineRE.FindStringSubmatch(text); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if parserProblems[msg] {
			line = min(line+1, max(lastLine(data), 1))
		}
		return line, msg
	}
	msg = strings.TrimPrefix(text, "yaml: ")
	if !strings.HasPrefix(text, "yaml: ") || strings.Contains(msg, "\n") || readerProblem(msg) {
		return 0, msg
	}
	return 1, msg
}

// readerProblems are the problems the library's reader reports (bytes
// that are not text in the input's encoding): it locates them by byte
// offset, which its messages do not give, so they name no line.
var readerProblems = []string{
	"control characters are not allowed", "expected low surrogate area", "incomplete UTF-16 character",
	"incomplete UTF-16 surrogate pair", "incomplete UTF-8 octet sequence", "input error: ", "invalid Unicode character",
	"invalid leading UTF-8 octet", "invalid length of a UTF-8 sequence", "invalid trailing UTF-8 octet",
	"unexpected low surrogate area",
}

// lastLine is the number of data's last line that holds anything (a
// final newline starts no line). For UTF-16 data it counts the bytes
// 0x0A, which a character other than a newline may also hold: it only
// bounds a line that is past the end.
func lastLine(data []byte) int {
	data = bytes.TrimRight(data, "\n")
	return bytes.Count(data, []byte("\n")) + 1
}

func readerProblem(msg string) bool {
	for _, p := range readerProblems {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// Error is an error of the YAML library with its line corrected: what
// Locate returns, written as "yaml: line N: msg" (or "yaml: msg").
type Error struct {
	Line int
	Msg  string
	// Err is the library's error.
	Err error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return "yaml: line " + strconv.Itoa(e.Line) + ": " + e.Msg
	}
	return "yaml: " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Fix returns err with its line corrected (Locate) when it is a syntax
// error of the YAML library, and err itself otherwise (nil, a type error
// of a decode, which the library numbers from 1).
func Fix(err error, data []byte) error {
	if err == nil || !strings.HasPrefix(err.Error(), "yaml: ") {
		return err
	}
	line, msg := Locate(err, data)
	return &Error{Line: line, Msg: msg, Err: err}
}
