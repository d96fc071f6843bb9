package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// plotLink is a plot named in the reports.
type plotLink struct {
	Name  string // file base name under plots/
	Title string
}

// markdownReport returns report.md: the summary table and links to the
// plots, short enough for a CI job summary.
func markdownReport(res *Results, plots []plotLink) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", mdEscape(reportTitle(res)))
	b.WriteString(mdEscape(runLine(res)) + ".\n")
	if m := modelLine(res, "see report.html"); m != "" {
		b.WriteString("\n" + mdEscape(m) + "\n")
	}
	if sh := ShardText(res); sh != "" {
		fmt.Fprintf(&b, "\n> **Shard:** %s.\n", mdEscape(sh))
	}
	if sk := skippedText(res.Run.Counts); sk != "" {
		fmt.Fprintf(&b, "\n> **Skipped:** %s.\n", mdEscape(sk))
	}
	if res.SmallSample {
		fmt.Fprintf(&b, "\n> **Small sample:** %s (fewer than %d). Intervals are wide and may be unreliable.\n",
			nouns.Count(res.Sessions, "session"), res.Statistics.SmallSampleBelow)
	}
	b.WriteString("\n")
	table := buildTable(res)
	writeMarkdownTable(&b, table)
	for _, l := range table.Legend {
		fmt.Fprintf(&b, "\n%s\n", mdEscape(l))
	}
	fmt.Fprintf(&b, "\nDifferences are against the baseline (%s) on the same sessions, with %s; "+
		"%s means the interval contains no difference; %s means every session has the baseline's value. "+
		"**Bold**: best in the column.\n",
		mdEscape(res.BaselineName()), intervalPhrase(res), notSignificant, noChange)
	if fs := Findings(res); len(fs) > 0 {
		b.WriteString("\n## What these numbers rest on\n\n")
		for _, f := range fs {
			fmt.Fprintf(&b, "- %s\n", mdEscape(f))
		}
	}
	fidelityMarkdown(&b, res.Run.Fidelity)
	if r := res.Run.Resolution; r != nil {
		resolutionMarkdown(&b, r)
	}
	if len(plots) > 0 {
		b.WriteString("\nPlots:")
		for i, p := range plots {
			sep := " ·"
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s [%s](plots/%s.png)", sep, mdEscape(p.Title), p.Name)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nFull report: [report.html](report.html) · data: [results.json](results.json)\n")
	return []byte(b.String())
}

func writeMarkdownTable(b *strings.Builder, t summaryTable) {
	b.WriteString("| Strategy |")
	for _, c := range t.Columns {
		fmt.Fprintf(b, " %s |", mdEscape(c.Title))
	}
	b.WriteString("\n| --- |")
	for range t.Columns {
		b.WriteString(" ---: |")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		name := mdEscape(r.Name)
		if r.Baseline {
			name += " (baseline)"
		}
		if r.Overflow {
			name += " " + OverflowMark
		}
		fmt.Fprintf(b, "| %s |", name)
		for _, c := range r.Cells {
			// Values and deltas are generated text without Markdown syntax.
			v := c.Value
			if c.Best {
				v = "**" + v + "**"
			}
			if c.Delta != "" && !r.Baseline {
				v += " (" + c.Delta + ")"
			}
			fmt.Fprintf(b, " %s |", v)
		}
		b.WriteString("\n")
	}
}

// modelLine names the models and assumptions behind the numbers; where
// says where the assumptions are listed.
func modelLine(res *Results, where string) string {
	var parts []string
	if res.Run.Model != "" {
		parts = append(parts, "model "+res.Run.Model)
	}
	if n := len(res.Run.Assumptions); n > 0 {
		parts = append(parts, fmt.Sprintf("%d named assumptions (%s)", n, where))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Numbers produced with " + strings.Join(parts, ", ") + "."
}

// intervalPhrase describes the intervals in use.
func intervalPhrase(res *Results) string {
	if res.Statistics.BootstrapResamples == 0 {
		return "no confidence intervals (bootstrap disabled or too few sessions)"
	}
	return fmt.Sprintf("%s bootstrap confidence intervals (%s resamples)",
		fmtPercent(res.Statistics.ConfidenceLevel), fmtInt(float64(res.Statistics.BootstrapResamples)))
}

// mdEscape neutralises Markdown table and emphasis syntax in s.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "`", "\\`", "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`, "\n", " ")
	return r.Replace(s)
}

// skippedText says what the run skipped of its traces: lines skipped with
// --skip-bad, by reason, and sessions whose replay failed; "" when it
// skipped nothing. report.md states it next to the run line, as the
// terminal summary's first line and report.html's data table do.
func skippedText(c sim.Counts) string {
	var parts []string
	if c.LinesSkipped > 0 {
		var reasons []string
		for _, k := range slices.Sorted(maps.Keys(c.SkipReasons)) {
			if k != "replay_failed" { // counts sessions, stated below
				reasons = append(reasons, fmt.Sprintf("%s %s", k, fmtInt(float64(c.SkipReasons[k]))))
			}
		}
		by := ""
		if len(reasons) > 0 {
			by = " (" + strings.Join(reasons, ", ") + ")"
		}
		parts = append(parts, fmt.Sprintf("%s of %s trace lines (--skip-bad)%s", fmtInt(float64(c.LinesSkipped)), fmtInt(float64(c.LinesRead)), by))
	}
	if c.SessionsSkipped > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s sessions read, whose replay failed", fmtInt(float64(c.SessionsSkipped)), fmtInt(float64(c.SessionsRead))))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "; what they held is not in these numbers"
}
