package recommend

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim/presets"
)

// WriteText prints the per-tool table, the decisions, the budget and the
// validation.
func WriteText(w io.Writer, p *Proposal) error {
	e := p.Economy
	fmt.Fprintf(w, "learnt from %s (%d held apart for validation, seed %d); model %s, %.1f requests per session, first prompt %.0f tokens (every schema sent)\n",
		nouns.Count(p.Training, "session"), p.HeldOut, p.Seed, e.Model.Name, e.Requests, e.FirstPrompt)
	fmt.Fprintf(w, "a search round trip before the first reply costs %.0f ms (%s injection, base %s)\n", p.RoundTripMs, e.Injection, p.BaseName)
	fmt.Fprintf(w, "  cache: %s\n\n", p.RoundTripCache)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header, rows := toolTable(p, func(s string) string { return s })
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nnever-defer: %s\nalways-defer: %s\n", list(p.Strategy.NeverDefer), list(p.Strategy.AlwaysDefer))
	fmt.Fprintf(w, "budget: %d estimated tokens (bytes/3.5 of the OpenAI function form) — deferring pays above %.0f deferrable schema tokens%s; this catalog: %d estimated tokens\n",
		p.Budget, p.BreakEvenTokens, p.budgetWeighs(), p.RegistryEstimated)
	fmt.Fprintf(w, "  %s\n", p.modeCost())
	if l := p.boundsLine(); l != "" {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintf(w, "mode: %s\n", p.Mode)
	fmt.Fprintf(w, "uncertain: %s\n", uncertainLine(p))
	for _, n := range p.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, n := range p.Warnings {
		fmt.Fprintf(w, "warning: %s\n", n)
	}
	if v := p.Validation; v != nil {
		fmt.Fprintf(w, "\nvalidation on %s%s (paired differences proposal − strategy, 95%% CI):\n", nouns.Count(v.Sessions, "held-out session"), v.smallFlag())
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "strategy\tcost/session\tfirst reply mean\tp95\tΔcost\tΔfirst reply\tverdict")
		for _, r := range v.Rows {
			name := r.Strategy
			if name == v.Current {
				name += " (current)"
			}
			fmt.Fprintf(tw, "%s\t$%.5f\t%.0f ms\t%.0f ms\t%s\t%s\t%s\n", name, r.CostUSD, r.FirstReplyMs, r.FirstP95Ms,
				diffUSD(r.CostDiff, r.CostDiffCI != nil, ciLow(r.CostDiffCI), ciHigh(r.CostDiffCI), r.Strategy == proposalName),
				diffMs(r.FirstReplyDiff, r.FirstDiffCI != nil, ciLow(r.FirstDiffCI), ciHigh(r.FirstDiffCI), r.Strategy == proposalName),
				r.Verdict)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w, v.Summary())
	}
	return nil
}

// uncertainLine counts the uncertain decisions.
func uncertainLine(p *Proposal) string {
	l := fmt.Sprintf("%d of %s at %.0f%% confidence (the share a decision rests on could lie on either side of its threshold)",
		p.UncertainDecisions, nouns.Count(len(p.Tools), "decision"), p.Rules.Confidence*100)
	l += leftOutWords(p)
	if p.ModeUncertain() {
		l += ", and the mode (the catalog's size is within the budget's bounds)"
	}
	return l
}

func toolLabel(k toolKey) string {
	if k.Server == "" {
		return k.Tool
	}
	return k.Server + ":" + k.Tool
}

func list(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	return strings.Join(xs, ", ")
}

func diffUSD(d float64, ci bool, lo, hi float64, self bool) string {
	if self {
		return "-"
	}
	s := fmt.Sprintf("%+.5f", noNegZero(d, 5e-6))
	if ci {
		s += fmt.Sprintf(" [%+.5f, %+.5f]", noNegZero(lo, 5e-6), noNegZero(hi, 5e-6))
	}
	return s
}

func diffMs(d float64, ci bool, lo, hi float64, self bool) string {
	if self {
		return "-"
	}
	s := fmt.Sprintf("%+.0f ms", noNegZero(d, 0.5))
	if ci {
		s += fmt.Sprintf(" [%+.0f, %+.0f]", noNegZero(lo, 0.5), noNegZero(hi, 0.5))
	}
	return s
}

// noNegZero maps values that print as zero to +0 (no "-0").
func noNegZero(v, half float64) float64 {
	if math.Abs(v) < half {
		return 0
	}
	return v
}

func ciLow(iv *report.Interval) float64 {
	if iv == nil {
		return math.NaN()
	}
	return iv.Low
}

func ciHigh(iv *report.Interval) float64 {
	if iv == nil {
		return math.NaN()
	}
	return iv.High
}

// Snippet writes the proposal as a strategies-list entry of a scenario, with
// a one-line justification per listed tool.
func Snippet(p *Proposal) []byte {
	var b bytes.Buffer
	s := p.Strategy
	e := p.Economy
	fmt.Fprintf(&b, "# defersim recommend: %s, %d held out; model %s; seed %d.\n", nouns.Count(p.Training, "training session"), p.HeldOut, e.Model.Name, p.Seed)
	if p.HeldOut > 0 {
		fmt.Fprintf(&b, "# the validation replayed the held-out sessions with seed %d (a search's query and params.cold_call_prob\n", p.Seed)
		fmt.Fprintf(&b, "#   draw from it): a scenario with seed: %d reproduces its figures on them, another seed moves them.\n", p.Seed)
	}
	fmt.Fprintf(&b, "# never-defer: deferring it adds more mean first-reply time (share of sessions needing it before the first\n")
	fmt.Fprintf(&b, "#   reply x %.0f ms round trip) than its direct schema costs (tokens / prefill rate), the share above\n", p.RoundTripMs)
	fmt.Fprintf(&b, "#   break-even at %.0f%% confidence", p.Rules.Confidence*100)
	if p.Rules.USDPerSecond > 0 {
		fmt.Fprintf(&b, ",\n#   and the time saved, at $%g per second, is worth the extra dollars of keeping it direct.\n", p.Rules.USDPerSecond)
	} else {
		b.WriteString(".\n")
	}
	fmt.Fprintf(&b, "# always-defer: called in at most %s of sessions, schema >= %d tokens, cheaper deferred, no first-reply cost.\n", pct(p.Rules.Rare), p.Expensive)
	fmt.Fprintf(&b, "# budget: deferring pays above %.0f deferrable schema tokens%s (= %d %s estimated tokens with the never-defer list).\n",
		p.BreakEvenTokens, p.budgetWeighs(), p.Budget, sDefault(s.Trigger.Counter, "bytes/3.5"))
	fmt.Fprintf(&b, "# budget: %s.\n", p.modeCost())
	if l := p.boundsLine(); l != "" {
		fmt.Fprintf(&b, "# budget %s.\n", l)
	}
	fmt.Fprintf(&b, "# %s.\n", p.Mode)
	fmt.Fprintf(&b, "# uncertain: %s.\n", uncertainLine(p))
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "# note: %s\n", n)
	}
	for _, n := range p.Warnings {
		fmt.Fprintf(&b, "# warning: %s\n", n)
	}
	if p.Inputs != nil {
		for _, w := range p.Inputs.Warnings("") {
			fmt.Fprintf(&b, "# input warning: %s\n", w)
		}
	}
	if _, err := presets.Strategy(p.BaseName); err != nil {
		// A scenario's strategy: a base must be an earlier strategy of
		// the list, so the entry pasted above it does not load.
		fmt.Fprintf(&b, "# base %s is a strategy of your scenario, not a preset: paste this entry below it in strategies:\n", p.BaseName)
		b.WriteString("#   (a strategy's base is an earlier strategy or a preset).\n")
	}
	fmt.Fprintf(&b, "- name: %s\n  base: %s\n", s.Name, p.BaseName)
	fmt.Fprintf(&b, "  description: %q\n", s.Description)
	// What the lists and budget were chosen for: a run with another model
	// (name or values) or tokenizer warns (docs/scenarios.md#strategies).
	fmt.Fprintf(&b, "  recommended_for:\n    model: %q\n", p.For.Model)
	if p.For.Tokenizer != "" {
		fmt.Fprintf(&b, "    tokenizer: %q\n", p.For.Tokenizer)
	}
	fmt.Fprintf(&b, "    model_values: %q # its prices, cache and latency\n", p.For.ModelValues)
	b.WriteString("  trigger:\n")
	fmt.Fprintf(&b, "    mode: %s\n", s.Trigger.Mode)
	if s.Trigger.Mode != "tokens" {
		fmt.Fprintf(&b, "    # when the catalog grows: mode: tokens, budget: %d, and scope: mcp\n", p.Budget)
	}
	fmt.Fprintf(&b, "    count: %d\n    budget: %d\n    counter: %s\n    percent: %g\n    categorical: %t\n",
		s.Trigger.Count, s.Trigger.Budget, sDefault(s.Trigger.Counter, "bytes/3.5"), s.Trigger.Percent, s.Trigger.Categorical)
	fmt.Fprintf(&b, "  scope: %s\n", s.Scope)
	writeList(&b, "never_defer", p, neverDefer)
	writeList(&b, "always_defer", p, alwaysDefer)
	return b.Bytes()
}

func writeList(b *bytes.Buffer, key string, p *Proposal, decision string) {
	entries := patterns(p.Tools, decision)
	if len(entries) == 0 {
		fmt.Fprintf(b, "  %s: []\n", key)
		return
	}
	fmt.Fprintf(b, "  %s:\n", key)
	why := map[string]string{}
	for _, a := range p.Tools {
		if a.Decision == decision {
			why[a.Key.Tool] = a.Why
			why[a.Key.Server+":"+a.Key.Tool] = a.Why
		}
	}
	for _, e := range entries {
		fmt.Fprintf(b, "    - %s  # %s\n", yamlScalar(e), why[e])
	}
}

func sDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// yamlScalar quotes a name when YAML would not read it as a plain string.
func yamlScalar(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}
