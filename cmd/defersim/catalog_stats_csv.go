package main

import (
	"io"
	"strconv"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/cliout"
)

// writeStatsCSV writes `catalog stats --format csv`: one row per tool
// counted in st (server versions in the order of the table's rows, tools in
// their file's order), with its series, version, tokens under each counter
// of st, bytes, the wire form counted and whether it is an outlier, as
// st.Outliers names it. Every figure is st's own: nothing is counted again.
func writeStatsCSV(w io.Writer, st catalog.Stats) error {
	head := []string{"server", "version", "tool"}
	for _, c := range st.Counters {
		head = append(head, "tokens_"+c)
	}
	head = append(head, "bytes", "form", "outlier")
	var rows [][]string
	for _, s := range st.Servers {
		for _, t := range s.ToolSizes {
			row := []string{s.Key(), s.Version, t.Tool}
			for _, c := range st.Counters {
				row = append(row, strconv.FormatInt(t.Tokens[c], 10))
			}
			rows = append(rows, append(row, strconv.FormatInt(t.Bytes, 10), string(st.Form), strconv.FormatBool(t.Outlier)))
		}
	}
	return cliout.WriteCSV(w, head, rows)
}
