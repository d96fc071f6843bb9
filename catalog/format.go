package catalog

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/termsafe"
)

// FormatStats writes stats as readable tables: one row per server version
// and a total, then the top contributors overall.
func FormatStats(w io.Writer, st Stats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := append([]string{"SERVER", "TOOLS", "BYTES"}, st.Counters...)
	if st.Reference != "" {
		header = append(header, "B/TOK")
	}
	var estimators []string
	for _, c := range st.Counters {
		if IsEstimator(c) && st.Reference != "" {
			estimators = append(estimators, c)
			header = append(header, "ERR% "+c)
		}
	}
	// Names are padded to one width so they read left-aligned in the
	// right-aligned table.
	total := st.totalLabel()
	width := max(len(total), len(header[0]))
	for _, s := range st.Servers {
		width = max(width, len(termsafe.String(s.Server)))
	}
	header[0] = fmt.Sprintf("%-*s", width, header[0])
	row := func(name string, s Summary) {
		cells := []string{fmt.Sprintf("%-*s", width, termsafe.String(name)), fmt.Sprint(s.Tools), fmt.Sprint(s.Bytes)}
		for _, c := range st.Counters {
			cells = append(cells, fmt.Sprint(s.Tokens[c]))
		}
		if st.Reference != "" {
			cells = append(cells, fmt.Sprintf("%.2f", s.BytesPerToken[st.Reference]))
		}
		for _, c := range estimators {
			cells = append(cells, fmt.Sprintf("%+.1f", s.EstimatorErrorPct[c]))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, s := range st.Servers {
		row(s.Server, s.Summary)
	}
	row(total, st.Total)
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("format stats: %w", err)
	}
	formatCover(w, st)
	by := st.Reference
	if by == "" && len(st.Counters) > 0 {
		by = st.Counters[0]
	}
	fmt.Fprintf(w, "\nwire form: %s", st.Form)
	if st.Reference != "" {
		fmt.Fprintf(w, "; estimator error vs %s", st.Reference)
	}
	fmt.Fprintln(w)
	if len(st.Total.Top) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\ntop %s by %s tokens:\n", nouns.Count(len(st.Total.Top), "tool"), by)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tTOOL\tSERVER\tBYTES\tTOKENS")
	for i, t := range st.Total.Top {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\n", i+1, termsafe.String(t.Tool), termsafe.String(t.Server), t.Bytes, t.Tokens[by])
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("format stats: %w", err)
	}
	return nil
}

// FormatDiff writes a diff as text: the summary, then each changed tool with
// its located changes.
func FormatDiff(w io.Writer, d DiffResult) error {
	fmt.Fprintf(w, "from: %s (%s)\n", termsafe.String(d.From), nouns.Count(d.FromTools, "tool"))
	fmt.Fprintf(w, "to:   %s (%s)\n", termsafe.String(d.To), nouns.Count(d.ToTools, "tool"))
	fmt.Fprintf(w, "class: %s", d.Class)
	if d.Class == ClassNone {
		fmt.Fprint(w, ": no tool added, removed or changed")
	}
	fmt.Fprintln(w)
	for _, n := range d.Notes {
		fmt.Fprintf(w, "note: %s\n", termsafe.String(n))
	}
	td := d.Tokens
	list := func(title string, names []string, deltas []ToolTokenDelta) {
		fmt.Fprintf(w, "%s (%d)", title, len(names))
		if len(names) > 0 {
			cells := termsafe.Strings(names)
			if td != nil && len(deltas) == len(names) {
				for i, x := range deltas {
					cells[i] += fmt.Sprintf(" %+d", x.Delta)
				}
			}
			fmt.Fprint(w, ": "+strings.Join(cells, ", "))
		}
		fmt.Fprintln(w)
	}
	var added, removed, changed []ToolTokenDelta
	if td != nil {
		added, removed, changed = td.AddedTools, td.RemovedTools, td.ChangedTools
	}
	list("added", d.Added, added)
	list("removed", d.Removed, removed)
	var parts []string
	for c := ClassBreaking; c > ClassNone; c-- {
		if n := d.ByClass[c.String()]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c, n))
		}
	}
	fmt.Fprintf(w, "changed (%d)", len(d.Changed))
	if len(parts) > 0 {
		fmt.Fprint(w, ": "+strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "unchanged (%d)\n", d.Unchanged)
	if td != nil {
		formatDiffTokens(w, d, *td)
	}
	for i, tc := range d.Changed {
		fmt.Fprintf(w, "\n%s: %s", termsafe.String(tc.Name), tc.Class)
		if td != nil && i < len(changed) {
			fmt.Fprintf(w, ", %s", toolTokens(changed[i], td.Form))
		}
		fmt.Fprintln(w)
		var wp, wk, wc int
		for _, c := range tc.Changes {
			wp = max(wp, len(termsafe.String(changePath(c))))
			wk = max(wk, len(c.Kind))
			wc = max(wc, len(c.Class.String()))
		}
		for _, c := range tc.Changes {
			line := fmt.Sprintf("  %-*s  %-*s  %-*s  %s", wp, termsafe.String(changePath(c)), wk, c.Kind, wc, c.Class, termsafe.String(c.Detail))
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
	}
	return nil
}

func changePath(c Change) string {
	if c.Path == "" {
		return "(tool)"
	}
	return c.Path
}

// formatDiffTokens writes a diff's token cost: the totals and where the
// delta comes from, what a request sending every tool carries, and what
// the figures assume.
func formatDiffTokens(w io.Writer, d DiffResult, td TokenDelta) {
	s := td.TokenSummary
	fmt.Fprintf(w, "tokens: %d → %d (%+d, %s)", s.From, s.To, s.Delta, relative(s.Delta, s.From))
	// Where the delta comes from: a part only when it has tools, so a
	// removal reads as a loss and nothing reads "removed +0".
	var from []string
	if len(d.Added) > 0 {
		from = append(from, fmt.Sprintf("added %+d", s.AddedTokens))
	}
	if len(d.Removed) > 0 {
		from = append(from, fmt.Sprintf("removed %+d", -s.RemovedTokens))
	}
	if len(d.Changed) > s.OutsideForm {
		from = append(from, fmt.Sprintf("changed %+d", s.ChangedDelta))
	}
	outside := ""
	if s.OutsideForm > 0 {
		outside = fmt.Sprintf("%s changed outside the %s form only: no token", nouns.Count(s.OutsideForm, "tool"), td.Form)
	}
	switch {
	case len(from) > 0 && outside != "":
		fmt.Fprintf(w, ": %s (%s)", strings.Join(from, ", "), outside)
	case len(from) > 0:
		fmt.Fprintf(w, ": %s", strings.Join(from, ", "))
	case outside != "":
		fmt.Fprintf(w, ": %s", outside)
	}
	fmt.Fprintln(w)
	more := d.ToTools - d.FromTools
	parts := fmt.Sprintf("%+d schema; as many tools, so no framing more", s.Delta)
	if more != 0 {
		parts = fmt.Sprintf("%+d schema, %+d framing: %d per tool, %s", s.Delta, td.ToolOverhead*int64(more), td.ToolOverhead, toolsMore(more))
	}
	fmt.Fprintf(w, "per request: if every tool is sent directly, each request carries %s (%s), before prompt caching\n",
		moreOrFewer(s.PerRequest), parts)
	fmt.Fprintf(w, "counted: %s\n", td.Assumes)
}

// toolTokens describes one changed tool's tokens.
func toolTokens(x ToolTokenDelta, form WireForm) string {
	if x.OutsideForm {
		return fmt.Sprintf("%d tokens, unchanged (its changes are not in the %s form)", x.To, form)
	}
	return fmt.Sprintf("%d → %d tokens (%+d)", x.From, x.To, x.Delta)
}

// moreOrFewer says a token difference in words.
func moreOrFewer(n int64) string {
	switch {
	case n > 0:
		return fmt.Sprintf("%d more tokens", n)
	case n < 0:
		return fmt.Sprintf("%d fewer tokens", -n)
	}
	return "as many tokens"
}

// toolsMore says a change in the number of tools in words (n ≠ 0).
func toolsMore(n int) string {
	if n > 0 {
		return nouns.Count(n, "tool") + " more"
	}
	return nouns.Count(-n, "tool") + " fewer"
}

// relative is delta as a percentage of base ("n/a" from nothing).
func relative(delta, base int64) string {
	if base == 0 {
		if delta == 0 {
			return "+0%"
		}
		return "from none"
	}
	return fmt.Sprintf("%+.1f%%", float64(delta)/float64(base)*100)
}
