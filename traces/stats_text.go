package traces

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/termsafe"
)

// WriteStatsText writes st as a readable table, listing at most top openers
// and tools (top <= 0: all).
func WriteStatsText(w io.Writer, st Stats, top int) error {
	st = st.Truncate(top)
	var b strings.Builder
	row := func(label string, n int, note string) {
		line := fmt.Sprintf("%-26s %10d", label, n)
		if note != "" {
			line += "  (" + note + ")"
		}
		b.WriteString(line + "\n")
	}
	row("sessions", st.Sessions, fmt.Sprintf("without session_end: %d", st.Incomplete))
	row("events", st.Events, "")
	for _, t := range KnownEventTypes {
		row("  "+string(t), st.EventsByType[t], "")
	}
	noUser := ""
	if st.NoUser > 0 {
		noUser = fmt.Sprintf("%d of %s without one: a run's first reply is measured from the first user message, so theirs is not one; trace validate names them",
			st.NoUser, nouns.Count(st.Sessions, "session"))
	}
	row("user turns", st.UserTurns, noUser)
	row("model requests", st.ModelRequests, "")
	row("tool calls", st.ToolCalls, statusNote(st.ToolCallsByStatus))
	row("tool searches", st.ToolSearches, "")
	row("distinct tools", st.DistinctTools, "")
	row("sessions with tool calls", st.SessionsWithToolCalls, "")
	row("sessions with usage", st.SessionsWithUsage, "")
	row("sessions with timings", st.SessionsWithTimings, "")

	fmt.Fprintf(&b, "\n%-26s %10s %10s %10s\n", "per session", "mean", "median", "max")
	for _, r := range []struct {
		label string
		s     Summary
	}{
		{"tool calls", st.ToolCallsPerSession},
		{"user turns", st.UserTurnsPerSession},
		{"model requests", st.ModelRequestsPerSession},
	} {
		fmt.Fprintf(&b, "%-26s %10.2f %10.1f %10d\n", r.label, r.s.Mean, r.s.Median, r.s.Max)
	}

	writeToolTable(&b, "openers (first tool called in a session)", "sessions", st.Openers, st.SessionsWithToolCalls)
	writeToolTable(&b, "top tools", "calls", st.TopTools, st.ToolCalls)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write stats: %w", err)
	}
	return nil
}

// writeToolTable writes counts with their share of total.
func writeToolTable(b *strings.Builder, title, unit string, rows []ToolCount, total int) {
	fmt.Fprintf(b, "\n%s\n", title)
	if len(rows) == 0 {
		b.WriteString("  (none)\n")
		return
	}
	width := len("server")
	for _, r := range rows {
		width = max(width, len(termsafe.String(r.Server)))
	}
	fmt.Fprintf(b, "  %10s %7s  %-*s  %s\n", unit, "share", width, "server", "tool")
	for _, r := range rows {
		share := 0.0
		if total > 0 {
			share = 100 * float64(r.Count) / float64(total)
		}
		fmt.Fprintf(b, "  %10d %6.1f%%  %-*s  %s\n", r.Count, share, width, termsafe.String(r.Server), termsafe.String(r.Tool))
	}
}

// statusNote lists tool-call counts by status in a fixed order.
func statusNote(by map[string]int) string {
	order := []string{StatusOK, StatusError, StatusRejected, StatusDenied, "unknown"}
	var parts []string
	for _, s := range order {
		if n := by[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s, n))
		}
	}
	var extra []string
	for s := range by {
		if !slices.Contains(order, s) {
			extra = append(extra, s)
		}
	}
	slices.Sort(extra)
	for _, s := range extra {
		parts = append(parts, fmt.Sprintf("%s %d", termsafe.String(s), by[s]))
	}
	return strings.Join(parts, ", ")
}
