package plan

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
)

// WriteProjection prints the projection: a cost table, a token table and
// a latency table, each value with its 95% interval.
func WriteProjection(w io.Writer, p *Projection) error {
	fmt.Fprintf(w, "projection of %q%s (%s replayed) to %s sessions/day, %g days/month; 95%% intervals in brackets\n",
		p.Scenario, p.pointAt(), nouns.Count(p.Sessions, "session"), count(p.SessionsPerDay), p.DaysPerMonth)
	if p.SmallSample {
		fmt.Fprintln(w, Line{Warning: true, Text: "small sample — fewer than 30 sessions replayed; intervals are wide and may be unreliable"})
	}
	for _, warn := range p.Warnings {
		fmt.Fprintln(w, Line{Warning: true, Text: warn})
	}
	if p.Prices != nil {
		fmt.Fprintf(w, "prices (%s, USD per million tokens): input %s, cache write %s, cache read %s, output %s\n",
			p.Prices.Model, price(p.Prices.Input), writePrice(p.Prices), price(p.Prices.CacheRead), price(p.Prices.Output))
	}
	if p.Cache != nil {
		fmt.Fprintln(w, "cache: "+p.Cache.Statement)
	}
	fmt.Fprintln(w, "\ncost")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "strategy\tUSD/day\tUSD/month")
	if len(p.Strategies) > 0 && len(p.Strategies[0].USDByKind) > 0 {
		fmt.Fprint(tw, "\tuncached $/day\twrite $/day\tread $/day\toutput $/day")
	}
	fmt.Fprintln(tw, "\textra requests/day")
	for _, s := range p.Strategies {
		fmt.Fprintf(tw, "%s\t%s\t%s", s.Strategy, dollars(s.USD), dollars(s.MonthUSD))
		for _, k := range s.USDByKind {
			fmt.Fprintf(tw, "\t%s", usdShort(k.Value))
		}
		fmt.Fprintf(tw, "\t%s\n", count(s.ExtraRequests.Value))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\ntokens per day")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "strategy\tinput (all kinds)")
	for _, k := range tokenKinds {
		fmt.Fprintf(tw, "\t%s", k.Name)
	}
	fmt.Fprintln(tw, "\tinput/month")
	for _, s := range p.Strategies {
		fmt.Fprintf(tw, "%s\t%s", s.Strategy, tokensCI(s.InputTokens))
		for _, k := range s.Tokens {
			fmt.Fprintf(tw, "\t%s", count(k.Value))
		}
		fmt.Fprintf(tw, "\t%s\n", count(s.MonthInputTokens.Value))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nlatency per session")
	if p.Sketched != nil {
		fmt.Fprintln(w, "note: "+p.Sketched.Note)
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "strategy\tfirst reply p50\tfirst reply p95\tsession p50")
	for _, s := range p.Strategies {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Strategy, secondsCI(s.FirstReplyP50), secondsCI(s.FirstReplyP95), secondsCI(s.SessionP50))
	}
	return tw.Flush()
}

func dollars(a Amount) string {
	if a.Interval == "none" {
		return usdShort(a.Value)
	}
	return fmt.Sprintf("%s [%s, %s]", usdShort(a.Value), usdShort(a.Low), usdShort(a.High))
}

func tokensCI(a Amount) string {
	if a.Interval == "none" {
		return count(a.Value)
	}
	return fmt.Sprintf("%s [%s, %s]", count(a.Value), count(a.Low), count(a.High))
}

func secondsCI(a Amount) string {
	s := fmt.Sprintf("%.2f s", a.Value/1000)
	if a.Interval == "bootstrap" {
		s += fmt.Sprintf(" [%.2f, %.2f]", a.Low/1000, a.High/1000)
	}
	return s
}

func price(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// writePrice is the cache-write price, said to be the input price when it
// is (report.Prices.WriteSurchargeNote).
func writePrice(p *report.Prices) string { return price(p.CacheWrite) + p.WriteSurchargeNote() }

// usdShort formats dollars with 3–4 significant digits, with a K, M, B
// or T suffix from ten thousand on; past the largest suffix and below a
// millionth it writes powers of ten (readable).
func usdShort(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e15:
		return "$" + readable(v)
	case a >= 1e12:
		return fmt.Sprintf("$%.2fT", v/1e12)
	case a >= 1e9:
		return fmt.Sprintf("$%.2fB", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("$%.2fM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("$%.1fK", v/1e3)
	case a >= 100:
		return fmt.Sprintf("$%.0f", v)
	case a >= 1:
		return fmt.Sprintf("$%.2f", v)
	}
	return "$" + readable(v)
}

// count formats a count with a K/M/B/T suffix; past the largest suffix
// and below a hundredth it writes 3 significant digits (readable).
func count(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e15:
		return readable(v)
	case a >= 1e12:
		return trim(fmt.Sprintf("%.2f", v/1e12)) + "T"
	case a >= 1e9:
		return trim(fmt.Sprintf("%.2f", v/1e9)) + "B"
	case a >= 1e6:
		return trim(fmt.Sprintf("%.2f", v/1e6)) + "M"
	case a >= 1e4:
		return trim(fmt.Sprintf("%.1f", v/1e3)) + "K"
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a > 0 && a < 0.01:
		return readable(v)
	}
	return trim(fmt.Sprintf("%.2f", v))
}

// readable writes v with 3 significant digits and never in Go's exponent
// form ("1e+26", "1.17e-05"), which reads as garbage in a plan: as a
// decimal fraction from a millionth up ("0.0000117"), else as a power of
// ten ("3.51×10^26", "1×10^-7"). Such amounts only come from volumes
// far from any fleet's (--sessions-per-day 1e30); they stay legible.
func readable(v float64) string {
	a := math.Abs(v)
	if a == 0 || a >= 1e-6 && a < 1 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	m, e, _ := strings.Cut(strconv.FormatFloat(v, 'e', 2, 64), "e")
	exp, _ := strconv.Atoi(e)
	return trim(m) + "×10^" + strconv.Itoa(exp)
}

func trim(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
