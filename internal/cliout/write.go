package cliout

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"

	"github.com/defersim/defersim/internal/csvsafe"
	"github.com/spf13/cobra"
)

// WriteJSON writes v as JSON indented by two spaces, with a final newline;
// <, > and & are written as they are.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// WriteCSV writes a header and rows as RFC 4180 CSV. A cell that a
// spreadsheet would read as a formula (starting with =, +, -, @, tab or
// carriage return, and not a number) is prefixed with a single quote.
func WriteCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range rows {
		safe := make([]string, len(r))
		for i, c := range r {
			safe[i] = csvsafe.Cell(c)
		}
		if err := cw.Write(safe); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// MDEscape neutralises Markdown table and emphasis syntax in s.
func MDEscape(s string) string {
	return mdReplacer.Replace(s)
}

var mdReplacer = strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`, "\n", " ")

// MDTable writes a Markdown table; right[i] right-aligns column i. Cells
// are written as given (escape them with MDEscape where needed).
func MDTable(w io.Writer, header []string, right []bool, rows [][]string) error {
	var b strings.Builder
	b.WriteString("|")
	for _, h := range header {
		b.WriteString(" " + h + " |")
	}
	b.WriteString("\n|")
	for i := range header {
		if i < len(right) && right[i] {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Quiet reports whether --quiet was given (a persistent flag of the root
// command).
func Quiet(c *cobra.Command) bool {
	q, err := c.Flags().GetBool("quiet")
	return err == nil && q
}
