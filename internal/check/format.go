package check

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/internal/nouns"
)

// Report is everything `defersim check` prints.
type Report struct {
	BaselinePath string
	CurrentPath  string
	// Baseline and Current say what each file is (scenario, point,
	// sessions replayed).
	Baseline, Current FileInfo
	Rows              []Row
	Summary           Summary
	// CatalogChanges and Changes describe what changed beyond metrics
	// (Changes: one "path: baseline → current" line per field).
	CatalogChanges []string
	Changes        []string
	// Notes are said before the table (allowed differences, CI use).
	Notes []string
	// Warnings are said before everything (different defersim builds).
	Warnings []string
	// Unreplayed are the current run's catalog changes no session
	// replayed (each also a warning); they fail the gate unless
	// AllowUnreplayed (--allow unreplayed).
	Unreplayed      []Unreplayed
	AllowUnreplayed bool
}

// Verdict is the one-line outcome.
func (r *Report) Verdict() string {
	s := r.Summary
	missing := ""
	if s.Missing > 0 {
		// A check one file has no metric for was not made: say so in
		// the line a CI log shows, not only in the table.
		missing = fmt.Sprintf("; %d of them not made: the metric is absent from a file", s.Missing)
	}
	if s.Regressions > 0 {
		v := fmt.Sprintf("REGRESSION: %d of %s regressed (%d within noise, %d improved%s)", s.Regressions, nouns.Count(s.Rows, "check"), s.WithinNoise, s.Improved, missing)
		if u := r.unreplayedVerdict(); u != "" {
			v += "; " + u
		}
		return v
	}
	if u := r.unreplayedVerdict(); u != "" {
		return fmt.Sprintf("%s (see the warning); no regression otherwise: %s (%d within noise, %d improved%s)", u, nouns.Count(s.Rows, "check"), s.WithinNoise, s.Improved, missing)
	}
	return fmt.Sprintf("no regression: %s (%d within noise, %d improved%s)", nouns.Count(s.Rows, "check"), s.WithinNoise, s.Improved, missing)
}

// WriteText prints the verdict, the table (every row with all, else the
// rows that are not ok) and what changed beyond metrics.
func WriteText(w io.Writer, r *Report, all bool) error {
	fmt.Fprintf(w, "baseline: %s — %s\ncurrent:  %s — %s\n", r.BaselinePath, r.Baseline, r.CurrentPath, r.Current)
	for _, n := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", n)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintln(w, r.Verdict())
	rows := r.Rows
	if !all {
		rows = notable(r.Rows)
	}
	if len(rows) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "strategy\tcheck\tbaseline\tcurrent\tchange\tallowed\tnoise ±\tstatus")
		for _, row := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row.Strategy, row.Rule.Key(),
				value(row.Base, row.Unit), value(row.Current, row.Unit), change(row),
				value(row.Allowed, row.Unit), noise(row), row.Status)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if !all && len(rows) < len(r.Rows) {
		fmt.Fprintf(w, "(%s within tolerance not shown; --all shows them)\n", nouns.Count(len(r.Rows)-len(rows), "check"))
	}
	if len(r.CatalogChanges) > 0 {
		fmt.Fprintln(w, "\ncatalog changes (- baseline only, + current only, ~ changed, * same version, other content):")
		for _, c := range r.CatalogChanges {
			fmt.Fprintln(w, "  "+c)
		}
	}
	if len(r.Changes) > 0 {
		fmt.Fprintln(w, "\nchanged beyond metrics (baseline → current):")
		for _, c := range r.Changes {
			fmt.Fprintln(w, "  "+c)
		}
	} else {
		fmt.Fprintln(w, "\nnothing changed beyond metric values")
	}
	return nil
}

// WriteMarkdown writes a block for a CI job summary: the verdict, the
// notable rows, and the full table and structural diff folded away.
func WriteMarkdown(w io.Writer, r *Report) error {
	icon := "✅"
	if r.Failed() {
		icon = "❌"
	}
	fmt.Fprintf(w, "### defersim check: %s %s\n\n", icon, r.Verdict())
	fmt.Fprintf(w, "Baseline `%s` (%s), current `%s` (%s).\n\n", r.BaselinePath, md(r.Baseline.String()), r.CurrentPath, md(r.Current.String()))
	for _, n := range r.Warnings {
		fmt.Fprintf(w, "> **Warning:** %s\n\n", md(n))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "> %s\n\n", n)
	}
	table := func(rows []Row) {
		fmt.Fprintln(w, "| strategy | check | baseline | current | change | allowed | noise ± | status |")
		fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
		for _, row := range rows {
			status := string(row.Status)
			if row.Status == Regressed {
				status = "**" + status + "**"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", md(row.Strategy), row.Rule.Key(),
				value(row.Base, row.Unit), value(row.Current, row.Unit), change(row),
				value(row.Allowed, row.Unit), noise(row), status)
		}
	}
	if n := notable(r.Rows); len(n) > 0 {
		table(n)
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "<details><summary>All %s</summary>\n\n", nouns.Count(len(r.Rows), "check"))
	table(r.Rows)
	fmt.Fprint(w, "\n</details>\n\n")
	if len(r.CatalogChanges) > 0 || len(r.Changes) > 0 {
		fmt.Fprintf(w, "<details><summary>Changed beyond metrics (%d)</summary>\n\n", len(r.CatalogChanges)+len(r.Changes))
		for _, c := range r.CatalogChanges {
			fmt.Fprintf(w, "- catalog `%s`\n", code(c))
		}
		for _, c := range r.Changes {
			path, change, _ := strings.Cut(c, ": ")
			fmt.Fprintf(w, "- `%s`: %s\n", code(path), md(change))
		}
		fmt.Fprint(w, "\n</details>\n")
	} else {
		fmt.Fprint(w, "Nothing changed beyond metric values.\n")
	}
	return nil
}

// md escapes text for a Markdown table cell or list item.
func md(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`).Replace(s)
}

// code makes s safe inside a Markdown code span.
func code(s string) string { return strings.ReplaceAll(s, "`", "'") }

func change(r Row) string {
	if r.Status == Missing {
		return "—"
	}
	s := signedValue(r.Change, r.Unit)
	if r.Unit == "ratio" {
		s = fmt.Sprintf("%+.2f pp", r.Change*100)
	}
	if rel := r.RelChange(); !math.IsNaN(rel) {
		s += fmt.Sprintf(" (%+.1f%%)", rel*100)
	}
	return s
}

func noise(r Row) string {
	if r.Paired {
		return "paired"
	}
	if !r.HaveCI && r.NoiseBand == 0 {
		return "no CI"
	}
	if r.NormalNoise {
		return value(r.NoiseBand, r.Unit) + " (normal)"
	}
	return value(r.NoiseBand, r.Unit)
}

func signedValue(v float64, unit string) string {
	if v > 0 {
		return "+" + value(v, unit)
	}
	if v < 0 {
		return "-" + value(-v, unit)
	}
	return value(0, unit)
}

// value formats a metric value in its unit.
func value(v float64, unit string) string {
	if math.IsNaN(v) {
		return "—"
	}
	switch unit {
	case "USD":
		return "$" + sig(v, 4)
	case "ms":
		if math.Abs(v) >= 1000 {
			return sig(v/1000, 4) + " s"
		}
		return sig(v, 4) + " ms"
	case "tokens":
		return group(v)
	case "ratio":
		return sig(v*100, 3) + "%"
	}
	return sig(v, 4)
}

// sig formats v with n significant digits, without exponent notation for
// everyday magnitudes.
func sig(v float64, n int) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e15 || a < 1e-6 {
		return strconv.FormatFloat(v, 'g', n, 64)
	}
	digits := n - 1 - int(math.Floor(math.Log10(a)))
	if digits < 0 {
		digits = 0
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

// group formats a count with thousands separators (one decimal below 100).
func group(v float64) string {
	if math.Abs(v) < 100 {
		return sig(v, 3)
	}
	neg := v < 0
	s := strconv.FormatFloat(math.Abs(math.Round(v)), 'f', 0, 64)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
