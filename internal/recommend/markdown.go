package recommend

import (
	"fmt"
	"github.com/defersim/defersim/internal/nouns"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/sim"
)

// WriteMarkdown writes the proposal for a pull request or a planning
// document: the decisions, the budget, the validation table, the strategy
// snippet, and the per-tool evidence folded away.
func WriteMarkdown(w io.Writer, p *Proposal) error {
	var b strings.Builder
	e := p.Economy
	b.WriteString("### defersim recommend\n\n")
	fmt.Fprintf(&b, "Learnt from %s (%d held apart for validation, seed %d); model %s, %.1f requests per session, first prompt %.0f tokens (every schema sent). "+
		"A search round trip before the first reply costs %.0f ms (%s injection, base %s; %s).\n\n",
		nouns.Count(p.Training, "session"), p.HeldOut, p.Seed, cliout.MDEscape(e.Model.Name), e.Requests, e.FirstPrompt, p.RoundTripMs, cliout.MDEscape(e.Injection), cliout.MDEscape(p.BaseName),
		cliout.MDEscape(p.RoundTripCache))
	fmt.Fprintf(&b, "- **never-defer:** %s\n- **always-defer:** %s\n", mdList(p.Strategy.NeverDefer), mdList(p.Strategy.AlwaysDefer))
	fmt.Fprintf(&b, "- **budget:** %d estimated tokens (bytes/3.5 of the OpenAI function form): deferring pays above %.0f deferrable schema tokens%s; this catalog: %d estimated tokens\n",
		p.Budget, p.BreakEvenTokens, cliout.MDEscape(p.budgetWeighs()), p.RegistryEstimated)
	fmt.Fprintf(&b, "- **budget:** %s\n", cliout.MDEscape(p.modeCost()))
	if l := p.boundsLine(); l != "" {
		fmt.Fprintf(&b, "- **budget %s\n", strings.Replace(cliout.MDEscape(l), "bounds:", "bounds:**", 1))
	}
	fmt.Fprintf(&b, "- **mode:** %s\n", cliout.MDEscape(p.Mode))
	fmt.Fprintf(&b, "- **uncertain:** %s\n\n", cliout.MDEscape(uncertainLine(p)))
	for _, n := range p.Warnings {
		fmt.Fprintf(&b, "> **Warning:** %s\n\n", cliout.MDEscape(n))
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "> Note: %s\n\n", cliout.MDEscape(n))
	}
	if v := p.Validation; v != nil {
		fmt.Fprintf(&b, "**Validation** on %s%s (paired differences proposal − strategy, 95%% CI):\n\n", nouns.Count(v.Sessions, "held-out session"), cliout.MDEscape(v.smallFlag()))
		var rows [][]string
		for _, r := range v.Rows {
			name := cliout.MDEscape(r.Strategy)
			if r.Strategy == v.Current {
				name += " (current)"
			}
			rows = append(rows, []string{name, fmt.Sprintf("$%.5f", r.CostUSD), fmt.Sprintf("%.0f ms", r.FirstReplyMs), fmt.Sprintf("%.0f ms", r.FirstP95Ms),
				diffUSD(r.CostDiff, r.CostDiffCI != nil, ciLow(r.CostDiffCI), ciHigh(r.CostDiffCI), r.Strategy == proposalName),
				diffMs(r.FirstReplyDiff, r.FirstDiffCI != nil, ciLow(r.FirstDiffCI), ciHigh(r.FirstDiffCI), r.Strategy == proposalName),
				cliout.MDEscape(r.Verdict)})
		}
		_ = cliout.MDTable(&b, []string{"Strategy", "cost / session", "first reply mean", "p95", "Δ cost", "Δ first reply", "verdict"},
			[]bool{false, true, true, true, true, true, false}, rows)
		b.WriteString("\n" + cliout.MDEscape(v.Summary()) + "\n\n")
	}
	b.WriteString("Strategy snippet (add it to the scenario's `strategies:`):\n\n```yaml\n")
	b.Write(Snippet(p))
	b.WriteString("```\n\n")
	fmt.Fprintf(&b, "<details><summary>Evidence per tool (%s)</summary>\n\n", nouns.Count(len(p.Tools), "tool"))
	header, rows := toolTable(p, cliout.MDEscape)
	right := []bool{false, true, true, true, true, true, false, true, true, true, true, false, false}
	if len(header) > len(right) {
		right = append(right, true, true)
	}
	_ = cliout.MDTable(&b, header, right, rows)
	b.WriteString("\n</details>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

var toolHeader = []string{"tool", "opens", "called", "first turn", "before reply", "tokens", "drift", "defer +ms", "direct +ms", "direct $", "deferred $", "decision", "uncertain"}

// onlyHeader labels the columns a proposal in scope always-defer-only adds
// to the table: its round trip and loads, which the always-defer rule
// weighed (Assessment.ModeDeferMs, ModeDeferUSD); "defer +ms" and
// "deferred $" stay scope mcp's, which the never-defer rule and the
// budget weigh.
var onlyHeader = []string{"defer +ms (only)", "deferred $ (only)"}

// toolTable is the per-tool table's header and rows: toolHeader, and
// onlyHeader's columns when the always-defer rule weighed scope
// always-defer-only.
func toolTable(p *Proposal, esc func(string) string) ([]string, [][]string) {
	only := p.ListScope == sim.ScopeAlwaysDeferOnly
	header := toolHeader
	if only {
		header = append(slices.Clone(toolHeader), onlyHeader...)
	}
	var rows [][]string
	for _, a := range p.Tools {
		drift := driftCell(a.Schema)
		row := []string{esc(toolLabel(a.Key)), pct(a.OpenShare), pct(a.UseShare), pct(a.FirstTurnShare), pct(a.BeforeReplyShare),
			strconv.FormatInt(a.Schema.Tokens, 10), esc(drift), fmt.Sprintf("%.0f", a.DeferMs), fmt.Sprintf("%.0f", a.DirectMs),
			fmt.Sprintf("%.5f", a.DirectUSD), fmt.Sprintf("%.5f", a.DeferUSD), esc(a.Decision), esc(uncertainCell(a.Uncertainty))}
		if only {
			row = append(row, fmt.Sprintf("%.0f", a.ModeDeferMs), fmt.Sprintf("%.5f", a.ModeDeferUSD))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// uncertainCell is a table's uncertain cell: "-" for a certain decision.
func uncertainCell(u *Uncertainty) string {
	if u == nil {
		return "-"
	}
	return u.Cell()
}

// shownDrift is how many drift entries a table cell lists; beyond, it
// counts them by class. The JSON and CSV forms list them all.
const shownDrift = 2

// driftCell is a table's drift cell: "-", the entries, or their count by
// class, most severe first.
func driftCell(s Schema) string {
	switch {
	case len(s.Drift) == 0:
		return "-"
	case len(s.Drift) <= shownDrift || len(s.driftClass) != len(s.Drift):
		return strings.Join(s.Drift, " ")
	}
	var parts []string
	for c := catalog.ClassBreaking; c > catalog.ClassNone; c-- {
		if n := countOf(s.driftClass, c); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, c))
		}
	}
	return fmt.Sprintf("%d versions: %s", len(s.Drift), strings.Join(parts, ", "))
}

func countOf(xs []catalog.Class, x catalog.Class) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func mdList(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + strings.ReplaceAll(x, "`", "'") + "`"
	}
	return strings.Join(out, ", ")
}

// WriteCSV writes the per-tool evidence, one row per tool, shares as
// fractions and times in milliseconds. Every row ends with the proposal's
// own uncertainty, the same on each: proposal_uncertain (true exactly
// when --fail-on-uncertain exits 1) and proposal_uncertain_reasons
// (UncertainReasons joined by ";"), which the per-tool columns cannot say
// (the mode, a version no session used).
func WriteCSV(w io.Writer, p *Proposal) error {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	reasons := p.UncertainReasons()
	verdict := []string{strconv.FormatBool(len(reasons) > 0), strings.Join(reasons, ";")}
	var rows [][]string
	for _, a := range p.Tools {
		row := []string{a.Key.Server, a.Key.Tool, f(a.OpenShare), f(a.UseShare), f(a.FirstTurnShare), f(a.BeforeReplyShare),
			f(a.CallsPerSession), strconv.FormatInt(a.Schema.Tokens, 10), strings.Join(a.Schema.Drift, " "), f(a.DeferMs), f(a.DirectMs),
			f(a.DirectUSD), f(a.DeferUSD), f(a.BreakEvenShare), f(a.BeforeReplyLow), a.Decision, a.Why,
			f(a.BeforeReplyHigh), f(a.UseLow), f(a.UseHigh), strconv.FormatBool(a.Uncertain)}
		if u := a.Uncertainty; u != nil {
			row = append(row, u.Share, f(u.Threshold), u.ThresholdName, u.Alternative, strconv.Itoa(u.SessionsToSettle), f(u.StakeMs))
		} else {
			row = append(row, "", "", "", "", "", "")
		}
		row = append(row, p.ListScope, f(a.ModeDeferMs), f(a.ModeDeferUSD), strconv.FormatBool(a.UncertainCounted))
		rows = append(rows, append(row, verdict...))
	}
	return cliout.WriteCSV(w, []string{"server", "tool", "open_share", "use_share", "first_turn_share", "before_first_reply_share",
		"calls_per_session", "schema_tokens", "drift", "defer_first_reply_ms", "direct_first_reply_ms", "direct_usd", "defer_usd",
		"break_even_share", "before_first_reply_low", "decision", "why",
		"before_first_reply_high", "use_share_low", "use_share_high", "uncertain", "uncertain_share", "uncertain_threshold",
		"uncertain_threshold_name", "uncertain_alternative", "sessions_to_settle", "stake_first_reply_ms",
		"always_defer_rule_scope", "mode_defer_first_reply_ms", "mode_defer_usd", "uncertain_counted",
		"proposal_uncertain", "proposal_uncertain_reasons"}, rows)
}
