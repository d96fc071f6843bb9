package plan

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// WriteProjectionMarkdown writes the projection as Markdown tables (cost,
// tokens, latency), for a planning document or a pull request.
func WriteProjectionMarkdown(w io.Writer, p *Projection) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### Projection of %s%s to %s sessions a day\n\n", cliout.MDEscape(p.Scenario), cliout.MDEscape(p.pointAt()), count(p.SessionsPerDay))
	fmt.Fprintf(&b, "%s replayed; %g days a month; 95%% intervals in brackets.", nouns.Count(p.Sessions, "session"), p.DaysPerMonth)
	if p.Prices != nil {
		fmt.Fprintf(&b, " Prices (%s, USD per million tokens): input %s, cache write %s, cache read %s, output %s.",
			cliout.MDEscape(p.Prices.Model), price(p.Prices.Input), writePrice(p.Prices), price(p.Prices.CacheRead), price(p.Prices.Output))
	}
	if p.Cache != nil {
		b.WriteString(" Cache: " + cliout.MDEscape(p.Cache.Statement) + ".")
	}
	b.WriteString("\n\n")
	if p.SmallSample {
		b.WriteString("> **Small sample:** fewer than 30 sessions replayed; intervals are wide and may be unreliable.\n\n")
	}
	for _, warn := range p.Warnings {
		b.WriteString(Line{Warning: true, Text: warn}.Markdown())
	}
	head := []string{"Strategy", "USD / day", "USD / month"}
	byKind := len(p.Strategies) > 0 && len(p.Strategies[0].USDByKind) > 0
	if byKind {
		head = append(head, "uncached $/day", "write $/day", "read $/day", "output $/day")
	}
	head = append(head, "extra requests / day")
	var rows [][]string
	for _, s := range p.Strategies {
		r := []string{cliout.MDEscape(s.Strategy), dollars(s.USD), dollars(s.MonthUSD)}
		for _, k := range s.USDByKind {
			r = append(r, usdShort(k.Value))
		}
		rows = append(rows, append(r, count(s.ExtraRequests.Value)))
	}
	b.WriteString("**Cost**\n\n")
	mdTable(&b, head, rows)
	head = []string{"Strategy", "input (all kinds) / day"}
	for _, k := range tokenKinds {
		head = append(head, k.Name)
	}
	head = append(head, "input / month")
	rows = nil
	for _, s := range p.Strategies {
		r := []string{cliout.MDEscape(s.Strategy), tokensCI(s.InputTokens)}
		for _, k := range s.Tokens {
			r = append(r, count(k.Value))
		}
		rows = append(rows, append(r, count(s.MonthInputTokens.Value)))
	}
	b.WriteString("\n**Tokens per day**\n\n")
	mdTable(&b, head, rows)
	rows = nil
	for _, s := range p.Strategies {
		rows = append(rows, []string{cliout.MDEscape(s.Strategy), secondsCI(s.FirstReplyP50), secondsCI(s.FirstReplyP95), secondsCI(s.SessionP50)})
	}
	b.WriteString("\n**Latency per session**\n\n")
	if p.Sketched != nil {
		b.WriteString("> **Sketched percentiles:** " + cliout.MDEscape(p.Sketched.Note) + ".\n\n")
	}
	mdTable(&b, []string{"Strategy", "first reply p50", "first reply p95", "session p50"}, rows)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSeriesMarkdown writes the rows of a sweep or growth as a Markdown
// table.
func WriteSeriesMarkdown(w io.Writer, rows []SeriesRow) error {
	var b strings.Builder
	over := anyOverflow(rows)
	var out [][]string
	for _, r := range rows {
		row := []string{cliout.MDEscape(r.Label), cliout.MDEscape(r.Strategy), dollars(r.CostUSD),
			secondsCI(r.FirstReplyMs), secondsCI(r.FirstP95Ms), fmt.Sprintf("%.2f", r.ExtraTrips), fmt.Sprintf("%.3f", r.Malformed)}
		if over {
			row = append(row, overflowCell(r))
		}
		out = append(out, append(row, sameMark(r)))
	}
	head := []string{"Point", "Strategy", "cost / session", "first reply mean", "first reply p95", "extra round trips / session", "malformed calls / session"}
	if over {
		head = append(head, overflowHead)
	}
	mdTable(&b, append(head, "vs previous point"), out)
	if n := seriesSketchNote(rows); n != "" {
		b.WriteString("\n> **Sketched percentiles:** " + cliout.MDEscape(n) + ".\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteUnchangedMarkdown lists the strategies a sweep left unchanged at
// every value, with why.
func WriteUnchangedMarkdown(w io.Writer, param string, us []Unchanged) {
	if len(us) == 0 {
		return
	}
	fmt.Fprintf(w, "\nUnchanged at every value of %s (every outcome of every session identical):\n\n", cliout.MDEscape(param))
	for _, g := range groupUnchanged(us) {
		names := make([]string, len(g.strategies))
		for i, n := range g.strategies {
			names[i] = "**" + cliout.MDEscape(n) + "**"
		}
		fmt.Fprintf(w, "- %s: %s\n", strings.Join(names, ", "), cliout.MDEscape(g.reason))
	}
}

// WriteBreakdownsMarkdown writes where each rule breaks down.
func WriteBreakdownsMarkdown(w io.Writer, bs []Breakdown, margin float64, first, last string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Where each rule breaks down (first point more than %s%% worse than at %s) and growth from %s to %s:\n\n",
		marginPercent(margin), cliout.MDEscape(first), cliout.MDEscape(first), cliout.MDEscape(last))
	var rows [][]string
	for _, x := range bs {
		rows = append(rows, []string{cliout.MDEscape(x.Strategy), cliout.MDEscape(breakCell(x.CostAt, x.costOver)), cliout.MDEscape(breakCell(x.LatencyAt, x.latencyOver)),
			fmt.Sprintf("%.2f", x.CostGrowth), fmt.Sprintf("%.2f", x.FirstMeanGrowth), fmt.Sprintf("%.2f", x.FirstP95Growth)})
	}
	mdTable(&b, []string{"Strategy", "cost breaks at", "p95 first reply breaks at", "cost ×", "first reply mean ×", "p95 ×"}, rows)
	if l := breakdownLegend(bs); l != "" {
		fmt.Fprintf(&b, "\n%s\n", cliout.MDEscape(l))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdTable(b *strings.Builder, head []string, rows [][]string) {
	right := make([]bool, len(head))
	for i := 1; i < len(right); i++ {
		right[i] = true
	}
	_ = cliout.MDTable(b, head, right, rows)
}

// WriteProjectionCSV writes one row per strategy: the projected amounts
// with their interval ends, in USD, tokens and milliseconds, then how the
// latency percentiles were computed, in two columns a spreadsheet reads
// like the others: percentiles ("exact", or the results' quantile sketch)
// and percentile_relative_error (0, or the sketch's relative accuracy:
// each percentile is within that share of the session value at its rank;
// the text plan's note). When some strategy's replayed requests exceed
// the model's context window, two more columns count them per strategy
// (context_overflow_requests, context_overflow_sessions; 0 for the
// others); a projection where none does has no such columns.
func WriteProjectionCSV(w io.Writer, p *Projection) error {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	head := []string{"strategy"}
	amounts := func(s StrategyPlan) []struct {
		name string
		a    Amount
	} {
		out := []struct {
			name string
			a    Amount
		}{{"usd_per_day", s.USD}, {"usd_per_month", s.MonthUSD}, {"input_tokens_per_day", s.InputTokens}}
		for _, k := range s.Tokens {
			out = append(out, struct {
				name string
				a    Amount
			}{strings.ReplaceAll(k.Kind, " ", "_") + "_tokens_per_day", k.Amount})
		}
		return append(out, []struct {
			name string
			a    Amount
		}{{"first_reply_p50_ms", s.FirstReplyP50}, {"first_reply_p95_ms", s.FirstReplyP95}, {"session_p50_ms", s.SessionP50},
			{"extra_requests_per_day", s.ExtraRequests}}...)
	}
	how, rel := "exact", 0.0
	if b := p.Sketched; b != nil {
		how, rel = b.QuantileSketch, b.RelativeAccuracy
	}
	over := false
	for _, s := range p.Strategies {
		over = over || s.ContextOverflow != nil
	}
	var rows [][]string
	for i, s := range p.Strategies {
		r := []string{s.Strategy}
		for _, a := range amounts(s) {
			if i == 0 {
				head = append(head, a.name, a.name+"_low", a.name+"_high")
			}
			r = append(r, f(a.a.Value), f(a.a.Low), f(a.a.High))
		}
		r = append(r, how, f(rel))
		if over {
			var o sim.ContextOverflow
			if s.ContextOverflow != nil {
				o = *s.ContextOverflow
			}
			r = append(r, strconv.FormatInt(o.Requests, 10), strconv.FormatInt(o.Sessions, 10))
		}
		rows = append(rows, r)
	}
	head = append(head, "percentiles", "percentile_relative_error")
	if over {
		head = append(head, "context_overflow_requests", "context_overflow_sessions")
	}
	return cliout.WriteCSV(w, head, rows)
}
