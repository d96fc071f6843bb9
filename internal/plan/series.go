package plan

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/sim"
)

// SeriesRow is one strategy at one point of a sweep or growth series.
type SeriesRow struct {
	Label        string  `json:"label"`
	X            float64 `json:"x"`
	Strategy     string  `json:"strategy"`
	CostUSD      Amount  `json:"cost_usd"`
	FirstReplyMs Amount  `json:"first_reply_ms"`
	FirstP95Ms   Amount  `json:"first_reply_p95_ms"`
	ExtraTrips   float64 `json:"extra_round_trips"`
	Malformed    float64 `json:"malformed_calls"`
	// Unchanged: every outcome of this strategy is the previous point's.
	Unchanged bool `json:"unchanged,omitempty"`
	// Constant: the swept key does not apply to this strategy (it does not
	// read it, or takes no value of it): it ran with its own value at every
	// point (SweepResult.Constant says why).
	Constant bool `json:"constant,omitempty"`
	// P95RelativeError, when the point's results sketched their percentiles
	// (statistics.streaming), is the sketch's relative accuracy: FirstP95Ms
	// is within that share of the session value at its rank. 0: exact.
	P95RelativeError float64 `json:"first_reply_p95_relative_error,omitempty"`
	// ContextOverflow counts the strategy's requests at this point over
	// the model's context window (the point's results.json
	// strategies[].context_overflow); absent when none was. A provider
	// refuses such requests: the row's cost and times are of requests
	// that could not be made.
	ContextOverflow *sim.ContextOverflow `json:"context_overflow,omitempty"`
	// Skipped counts the sessions the row's point failed to replay
	// (Point.Skipped): its figures are of the others.
	Skipped int64 `json:"sessions_skipped,omitempty"`
}

// Rows flattens points into one row per point and strategy.
func Rows(points []Point) []SeriesRow {
	var out []SeriesRow
	for _, p := range points {
		rel := 0.0
		if st := p.Results.Statistics.Streaming; st != nil {
			rel = st.RelativeAccuracy
		}
		for _, s := range p.Results.Strategies {
			fr := s.Metrics["first_reply_ms"]
			out = append(out, SeriesRow{Label: p.Label, X: p.X, Strategy: s.Name,
				CostUSD: meanAmount(s.Metrics["cost_usd"]), FirstReplyMs: meanAmount(fr),
				FirstP95Ms: quantileAmount(fr.P95, fr.P95CI, fr.Count),
				ExtraTrips: s.Metrics["extra_round_trips"].Mean, Malformed: s.Metrics["malformed_calls"].Mean,
				P95RelativeError: rel, ContextOverflow: s.ContextOverflow, Skipped: p.Skipped})
		}
	}
	return out
}

// WriteSeries prints the rows as a table (means per session with 95%
// intervals), grouped by point.
func WriteSeries(w io.Writer, rows []SeriesRow) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	over := anyOverflow(rows)
	head := "point\tstrategy\tcost/session\tfirst reply mean\tfirst reply p95\textra trips\tmalformed"
	if over {
		head += "\t" + overflowHead
	}
	fmt.Fprintln(tw, head+"\tvs previous point")
	last := ""
	for _, r := range rows {
		label := r.Label
		if label == last {
			label = ""
		}
		last = r.Label
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f\t%.3f", label, r.Strategy, dollars(r.CostUSD),
			secondsCI(r.FirstReplyMs), secondsCI(r.FirstP95Ms), r.ExtraTrips, r.Malformed)
		if over {
			fmt.Fprintf(tw, "\t%s", overflowCell(r))
		}
		fmt.Fprintf(tw, "\t%s\n", sameMark(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if n := seriesSketchNote(rows); n != "" {
		buf.WriteString("note: " + n + "\n")
	}
	// The last column is empty on most rows: drop the padding tabwriter
	// leaves before it, so no line ends in spaces.
	var out strings.Builder
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		out.WriteString(strings.TrimRight(line, " \n"))
		if strings.HasSuffix(line, "\n") {
			out.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// sameMark is the "vs previous point" cell: "constant" for a strategy the
// swept key does not apply to, "unchanged" when every outcome is the
// previous point's.
func sameMark(r SeriesRow) string {
	switch {
	case r.Constant:
		return "constant"
	case r.Unchanged:
		return "unchanged"
	}
	return ""
}

// WriteUnchanged lists the strategies a sweep left unchanged at every
// value, with why.
func WriteUnchanged(w io.Writer, param string, us []Unchanged) {
	if len(us) == 0 {
		return
	}
	fmt.Fprintf(w, "unchanged at every value of %s (every outcome of every session identical):\n", param)
	for _, g := range groupUnchanged(us) {
		fmt.Fprintf(w, "  %s: %s\n", strings.Join(g.strategies, ", "), g.reason)
	}
}

// Breakdown says, per strategy, the first point where it has become more
// than margin worse than at the first point (today's catalog): mean cost
// per session, or p95 first reply. Growth is the ratio at the last point.
type Breakdown struct {
	Strategy string `json:"strategy"`
	// CostAt and LatencyAt are the labels of the first such points ("" = never).
	CostAt          string  `json:"cost_at,omitempty"`
	LatencyAt       string  `json:"latency_at,omitempty"`
	CostGrowth      float64 `json:"cost_growth"`
	FirstP95Growth  float64 `json:"first_reply_p95_growth"`
	FirstMeanGrowth float64 `json:"first_reply_mean_growth"`
	// costOver and latencyOver are the strategy's requests over the
	// context window at CostAt and LatencyAt (nil where none): the tables
	// mark those cells (plan.json has them as growth[].context_overflow).
	costOver, latencyOver *sim.ContextOverflow
}

// Breakdowns finds each strategy's breaking points (margin 0.25 = 25%).
func Breakdowns(points []Point, margin float64) []Breakdown {
	if len(points) == 0 {
		return nil
	}
	var out []Breakdown
	first, last := points[0].Results, points[len(points)-1].Results
	for _, s0 := range first.Strategies {
		b := Breakdown{Strategy: s0.Name}
		c0, l0, m0 := s0.Metrics["cost_usd"].Mean, s0.Metrics["first_reply_ms"].P95, s0.Metrics["first_reply_ms"].Mean
		for _, p := range points[1:] {
			s := p.Results.Strategy(s0.Name)
			if s == nil {
				continue
			}
			if b.CostAt == "" && s.Metrics["cost_usd"].Mean > (1+margin)*c0 {
				b.CostAt, b.costOver = p.Label, overflowOf(s)
			}
			if b.LatencyAt == "" && s.Metrics["first_reply_ms"].P95 > (1+margin)*l0 {
				b.LatencyAt, b.latencyOver = p.Label, overflowOf(s)
			}
		}
		if s := last.Strategy(s0.Name); s != nil {
			b.CostGrowth = ratio(s.Metrics["cost_usd"].Mean, c0)
			b.FirstP95Growth = ratio(s.Metrics["first_reply_ms"].P95, l0)
			b.FirstMeanGrowth = ratio(s.Metrics["first_reply_ms"].Mean, m0)
		}
		out = append(out, b)
	}
	return out
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// WriteBreakdowns prints where each strategy breaks down.
func WriteBreakdowns(w io.Writer, bs []Breakdown, margin float64, first, last string) error {
	fmt.Fprintf(w, "where each rule breaks down (first point more than %s%% worse than at %s) and growth from %s to %s:\n", marginPercent(margin), first, first, last)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "strategy	cost breaks at	p95 first reply breaks at	cost ×	first reply mean ×	p95 ×")
	for _, b := range bs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%.2f\t%.2f\n", b.Strategy, breakCell(b.CostAt, b.costOver), breakCell(b.LatencyAt, b.latencyOver),
			b.CostGrowth, b.FirstMeanGrowth, b.FirstP95Growth)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if l := breakdownLegend(bs); l != "" {
		fmt.Fprintln(w, l)
	}
	return nil
}

func orNever(s string) string {
	if s == "" {
		return "never"
	}
	return s
}

// seriesSketchNote says how close the first-reply p95 of rows is when some
// point sketched its percentiles ("" when every point computed them
// exactly): the widest bound of those points, and which points they are.
func seriesSketchNote(rows []SeriesRow) string {
	worst := 0.0
	var labels []string
	for _, r := range rows {
		if r.P95RelativeError == 0 {
			continue
		}
		worst = max(worst, r.P95RelativeError)
		if len(labels) == 0 || labels[len(labels)-1] != r.Label {
			labels = append(labels, r.Label)
		}
	}
	if len(labels) == 0 {
		return ""
	}
	which := "every point"
	if len(labels) < countLabels(rows) {
		which = "points " + strings.Join(labels, ", ")
	}
	return fmt.Sprintf("the first-reply p95 of %s is sketched (the run kept fewer sessions than it replayed): each is within ±%s, relative, "+
		"of the session value at its rank", which, percent(worst))
}

// countLabels counts the points of rows (rows of a point are adjacent).
func countLabels(rows []SeriesRow) int {
	n := 0
	for i, r := range rows {
		if i == 0 || rows[i-1].Label != r.Label {
			n++
		}
	}
	return n
}
