// Package csvsafe escapes text cells of CSV files against formula
// injection: a spreadsheet runs a cell that starts with =, +, -, @ (or a
// tab or carriage return before one) as a formula, so a session id such as
// `=HYPERLINK(…)` from a trace would run when the CSV is opened. Such a
// cell gets a leading apostrophe, which spreadsheets show as text and do
// not evaluate (the OWASP recommendation). Numbers are not text cells and
// are written as they are.
package csvsafe

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
