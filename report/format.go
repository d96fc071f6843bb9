package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

// minus is the typographic minus sign used in reports.
const minus = "−"

// signed formats v with an explicit sign (+, − or none for zero).
func signed(v float64, f func(float64) string) string {
	switch {
	case v > 0:
		return "+" + f(v)
	case v < 0:
		return minus + f(-v)
	}
	return f(0)
}

// fmtSig formats |v| with 3 significant digits, without exponent for
// everyday magnitudes.
func fmtSig(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e15 || a < 1e-6 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	digits := 2 - int(math.Floor(math.Log10(a)))
	if digits < 0 {
		digits = 0
	}
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// fmtInt formats a rounded value with thousands separators.
// fmtNoun is n as fmtInt writes it, then noun, with an "s" unless n is 1
// ("1 call", "1,234 calls"; regular plurals only, as nouns.Count).
func fmtNoun[N ~int | ~int64](n N, noun string) string {
	return fmtInt(float64(n)) + " " + nouns.Form(n, noun, noun+"s")
}

func fmtInt(v float64) string {
	r := math.Round(v)
	neg := r < 0
	s := strconv.FormatFloat(math.Abs(r), 'f', 0, 64)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return minus + b.String()
	}
	return b.String()
}

// fmtCompact formats large counts as 12.3k, 4.5M.
func fmtCompact(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return fmtSig(v/1e9) + "G"
	case a >= 1e6:
		return fmtSig(v/1e6) + "M"
	case a >= 1e3:
		return fmtSig(v/1e3) + "k"
	}
	return fmtSig(v)
}

// fmtUSD formats dollars with 3 significant digits.
func fmtUSD(v float64) string {
	if v < 0 {
		return minus + "$" + fmtSig(-v)
	}
	return "$" + fmtSig(v)
}

// fmtMs formats a duration given in milliseconds.
func fmtMs(v float64) string {
	if math.Abs(v) < 1000 {
		return fmtSig(v) + " ms"
	}
	return fmtSig(v/1000) + " s"
}

// fmtSeconds formats seconds for axis ticks.
func fmtSeconds(v float64) string { return fmtSig(v) + " s" }

// fmtPercent formats a ratio (0.5) as a percentage (50%).
func fmtPercent(v float64) string { return fmtSig(v*100) + "%" }

// fmtPercentAxis formats an axis already in percent.
func fmtPercentAxis(v float64) string { return fmtSig(v) + "%" }

// fmtCount formats a small mean count.
func fmtCount(v float64) string { return fmtSig(v) }

// fmtRange formats an interval as "[lo, hi]" with f.
func fmtRange(lo, hi float64, f func(float64) string) string {
	return fmt.Sprintf("[%s, %s]", f(lo), f(hi))
}

// fmtExact writes a configured value (a price, a parameter) in full, but
// without the binary noise of float arithmetic: 0.1 × 3 is "0.3", not
// "0.30000000000000004". Twelve significant digits are kept.
func fmtExact(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil {
		r = v
	}
	if a := math.Abs(r); a == 0 || (a >= 1e-6 && a < 1e15) {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}
