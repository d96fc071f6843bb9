package plan

import (
	"io"
	"strconv"
	"strings"

	"github.com/defersim/defersim/internal/cliout"
)

// WriteSeriesCSV writes a sweep's rows (sweep.json rows[]) one per value
// and strategy, in plain numbers a spreadsheet reads: the swept
// parameter and its value, the strategy, the mean cost per session in
// USD, the mean and p95 first reply in milliseconds, each with its 95%
// interval's ends, extra round trips and malformed calls per session,
// vs_previous_point ("constant", "unchanged" or empty, the text table's
// last column) and first_reply_p95_relative_error (0: exact; else the
// percentile sketch's relative accuracy). When some row sent requests
// over the model's context window, two more columns count them
// (context_overflow_requests, context_overflow_sessions; 0 for the
// others); a sweep where none did has no such columns. Every row ends
// with sessions_skipped (the sessions its point failed to replay, 0 when
// none) and warnings: the kinds of warning the command gave on stderr,
// joined by ";" (the same on every row, empty when none), as check's rows
// end with fail_reasons.
func WriteSeriesCSV(w io.Writer, param string, rows []SeriesRow, warnings []string) error {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	amount := func(a Amount) []string { return []string{f(a.Value), f(a.Low), f(a.High)} }
	head := []string{"param", "value", "strategy"}
	for _, name := range []string{"cost_usd", "first_reply_ms", "first_reply_p95_ms"} {
		head = append(head, name, name+"_low", name+"_high")
	}
	head = append(head, "extra_round_trips", "malformed_calls", "vs_previous_point", "first_reply_p95_relative_error")
	over := anyOverflow(rows)
	if over {
		head = append(head, "context_overflow_requests", "context_overflow_sessions")
	}
	head = append(head, "sessions_skipped", "warnings")
	kinds := strings.Join(warnings, ";")
	out := make([][]string, 0, len(rows))
	for _, r := range rows {
		row := []string{param, f(r.X), r.Strategy}
		row = append(row, amount(r.CostUSD)...)
		row = append(row, amount(r.FirstReplyMs)...)
		row = append(row, amount(r.FirstP95Ms)...)
		row = append(row, f(r.ExtraTrips), f(r.Malformed), sameMark(r), f(r.P95RelativeError))
		if over {
			var requests, sessions int64
			if o := r.ContextOverflow; o != nil {
				requests, sessions = o.Requests, o.Sessions
			}
			row = append(row, strconv.FormatInt(requests, 10), strconv.FormatInt(sessions, 10))
		}
		row = append(row, strconv.FormatInt(r.Skipped, 10), kinds)
		out = append(out, row)
	}
	return cliout.WriteCSV(w, head, out)
}
