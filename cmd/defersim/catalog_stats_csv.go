package main

import (
	"io"
	"strconv"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/tokens"
)

// writeStatsCSV writes `catalog stats --format csv`: one row per tool of
// the server versions counted (servers, in the order of the table's rows;
// tools in their file's order), with its series, version, tokens under each
// counter of st, bytes, the wire form counted and whether it is over
// outlierAt tokens of st's ranking counter (never with outlierAt 0), as the
// JSON's outliers name it. counters are those st was computed with (memos:
// a tool is not counted twice).
func writeStatsCSV(w io.Writer, st catalog.Stats, servers []*catalog.Server, counters []tokens.Counter, outlierAt int64) error {
	head := []string{"server", "version", "tool"}
	for _, c := range st.Counters {
		head = append(head, "tokens_"+c)
	}
	head = append(head, "bytes", "form", "outlier")
	rank := st.RankCounter()
	var rows [][]string
	for _, s := range servers {
		for _, t := range s.Tools {
			tt := catalog.CountTool(s, t, st.Form, counters)
			row := []string{s.Key(), s.Version, t.Name}
			for _, c := range st.Counters {
				row = append(row, strconv.FormatInt(tt.Tokens[c], 10))
			}
			over := outlierAt > 0 && tt.Tokens[rank] > outlierAt
			rows = append(rows, append(row, strconv.FormatInt(tt.Bytes, 10), string(st.Form), strconv.FormatBool(over)))
		}
	}
	return cliout.WriteCSV(w, head, rows)
}
