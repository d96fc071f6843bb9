// Package csvsafe escapes text cells of CSV files against formula
// injection: a spreadsheet runs a cell that starts with =, +, -, @ (or a
// tab or carriage return before one) as a formula, so a session id such as
// `=HYPERLINK(…)` from a trace would run when the CSV is opened. Such a
// cell gets a leading apostrophe, which spreadsheets show as text and do
// not evaluate (the OWASP recommendation). Numbers are not text cells and
// are written as they are.
package csvsafe

import (
	"strconv"
	"strings"
)

// Text returns s safe to write as a CSV text cell.
func Text(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// Cell is Text for a cell that may hold a number: a cell that reads whole
// as a number ("-2.5", "+1e3") is left as it is, so that a spreadsheet
// still reads it as one; anything else starting with a formula character
// is quoted as Text quotes it.
func Cell(s string) string {
	if isNumber(s) {
		return s
	}
	return Text(s)
}

func isNumber(s string) bool {
	if s == "" || strings.TrimLeft(s, "+-0123456789.eE") != "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
