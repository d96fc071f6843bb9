package retrieval

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

// metricLabel is how a metric is named in tables and plots.
func metricLabel(m string, k int) string {
	switch m {
	case MDomainRecall:
		return fmt.Sprintf("domain recall@%d", k)
	case MServerRecall:
		return fmt.Sprintf("server recall@%d", k)
	case MTaskRecall:
		return fmt.Sprintf("task recall@%d (all needs)", k)
	case MTop1:
		return "tool top-1"
	case MRecall:
		return fmt.Sprintf("tool recall@%d", k)
	case MMRR:
		return "MRR"
	case MSearches:
		return "searches until found"
	case MTokens:
		return "returned schema tokens"
	}
	return m
}

// isShare reports a metric that is a share (printed as a percentage).
func isShare(m string) bool {
	return m == MDomainRecall || m == MServerRecall || m == MTop1 || m == MRecall || m == MTaskRecall
}

func fmtValue(m string, v float64) string {
	switch {
	case isShare(m):
		return fmt.Sprintf("%.1f%%", 100*v)
	case m == MMRR:
		return fmt.Sprintf("%.3f", v)
	case m == MSearches:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// fmtFigure prints "mean [lo, hi]"; a signed figure is a difference,
// with shares in percentage points.
func fmtFigure(f Figure, signed bool) string {
	v := func(x float64) string {
		s := fmtValue(f.Metric, x)
		if signed && isShare(f.Metric) {
			s = fmt.Sprintf("%.1f pp", 100*x)
		}
		if signed && !strings.HasPrefix(s, "-") {
			s = "+" + s
		}
		return s
	}
	return fmt.Sprintf("%s [%s, %s]", v(f.Mean), v(f.Lo), v(f.Hi))
}

// maxServersInHeader is how many servers without an SRD the subtitle
// names (results.json lists them all).
const maxServersInHeader = 3

// Subtitle is the line that says what produced the figures.
func (r *Result) Subtitle() string {
	srds := nouns.Count(r.SRDs, "SRD")
	if src := SRDSourceText(r.SRDSource); src != "" {
		srds += ": " + src
	}
	if n := len(r.ServersWithoutSRD); n > 0 {
		srds += fmt.Sprintf("; they describe %d of the corpus's %s, not %s, each a domain of its own",
			r.Servers-n, nouns.Count(r.Servers, "server"), capJoinN(r.ServersWithoutSRD, ", ", maxServersInHeader))
	}
	return fmt.Sprintf("%s · %s · %s · %s (%s) · k %d · %s · %s · %g%% paired bootstrap over tasks, %d × %d, seed %d",
		nouns.Count(r.Queries, "task"), nouns.Count(r.Needs, "need"), nouns.Count(r.Tools, "tool"), nouns.Count(r.Domains, "domain"), srds, r.K, nouns.CountAs(r.Retries, "keyword retry", "keyword retries"), r.Tokenizer, 100*r.Level, r.Resamples, r.ResampleM, r.Seed)
}

// FormatMarkdown writes the result as Markdown: per base ranker, a table of
// every metric with the flat arm, each routed arm and its paired
// difference from flat, each with its interval.
func FormatMarkdown(w io.Writer, r *Result) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "## Retrieval: %s\n\n%s\n\n%s\n", r.Set, r.Source, r.Subtitle())
	var rankers []string
	for _, a := range r.Arms {
		if !slices.Contains(rankers, a.Ranker) {
			rankers = append(rankers, a.Ranker)
		}
	}
	for _, rk := range rankers {
		var arms []ArmResult
		for _, a := range r.Arms {
			if a.Ranker == rk {
				arms = append(arms, a)
			}
		}
		fmt.Fprintf(&sb, "\n### %s\n\n| metric |", rk)
		sep := "\n| --- |"
		for _, a := range arms {
			fmt.Fprintf(&sb, " %s |", a.Mode)
			sep += " ---: |"
			if a.Mode != ModeFlat {
				fmt.Fprintf(&sb, " Δ %s − flat |", a.Mode)
				sep += " ---: |"
			}
		}
		sb.WriteString(sep + "\n")
		for _, m := range Metrics() {
			fmt.Fprintf(&sb, "| %s |", metricLabel(m, r.K))
			for _, a := range arms {
				fmt.Fprintf(&sb, " %s |", fmtFigure(a.Metric(m), false))
				if a.Mode != ModeFlat {
					d, ok := r.diff(a.Name, r.flatOf(a.Ranker), m)
					if ok {
						fmt.Fprintf(&sb, " %s |", fmtFigure(d.Figure, true))
					} else {
						sb.WriteString(" – |")
					}
				}
			}
			sb.WriteByte('\n')
		}
	}
	r.baselineTables(&sb)
	_, err := io.WriteString(w, sb.String())
	return err
}

// baselineTables writes, for each baseline arm, every other arm's main
// figures and their paired differences from it.
func (r *Result) baselineTables(sb *strings.Builder) {
	show := []string{MRecall, MTaskRecall, MServerRecall, MMRR, MSearches}
	for _, b := range r.Baselines {
		if !slices.ContainsFunc(r.Diffs, func(d DiffResult) bool { return d.Baseline == b }) {
			continue
		}
		fmt.Fprintf(sb, "\n### Against %s\n\n| arm |", b)
		sep := "\n| --- |"
		for _, m := range show {
			fmt.Fprintf(sb, " %s | Δ |", metricLabel(m, r.K))
			sep += " ---: | ---: |"
		}
		sb.WriteString(sep + "\n")
		for _, a := range r.Arms {
			if a.Name == b {
				continue
			}
			fmt.Fprintf(sb, "| %s |", a.Name)
			for _, m := range show {
				fmt.Fprintf(sb, " %s |", fmtFigure(a.Metric(m), false))
				if d, ok := r.diff(a.Name, b, m); ok {
					fmt.Fprintf(sb, " %s |", fmtFigure(d.Figure, true))
				} else {
					sb.WriteString(" – |")
				}
			}
			sb.WriteByte('\n')
		}
	}
}

// flatOf names the flat arm of a ranker.
func (r *Result) flatOf(ranker string) string { return ranker + "/" + ModeFlat }

func (r *Result) diff(arm, base, metric string) (DiffResult, bool) {
	for _, d := range r.Diffs {
		if d.Arm == arm && d.Baseline == base && d.Metric == metric {
			return d, true
		}
	}
	return DiffResult{}, false
}
