package calibrate

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/internal/nouns"
)

// WriteText prints the calibration: data, fitted values, fit quality and
// held-out errors, per model group.
func WriteText(w io.Writer, r *Result) error {
	held := "judged on the others"
	if len(r.Test) > 0 {
		held = "judged on every session of " + baseNames(r.Test)
	}
	// The stand-in wording goes on the summary line when every group
	// shares it, else on the heading of each group it applies to.
	standIns := map[string]bool{}
	for _, mf := range r.Models {
		standIns[mf.TokenizerStandIn] = true
	}
	perGroup := len(standIns) > 1
	one := ""
	if !perGroup && len(r.Models) > 0 {
		one = r.Models[0].TokenizerStandIn
	}
	fmt.Fprintf(w, "calibrate: fitted on %s of %s, %s; loss %s, %s residuals; tokenizer %s\n",
		r.fitOn.Describe(r.Seed), baseNames(r.Traces), held, r.Loss, r.Residuals, tokenizerLabel(r.Tokenizer, r.tokenScale, one))
	for _, mf := range r.Models {
		tok := ""
		if perGroup && mf.TokenizerStandIn != "" {
			tok = tokenizerLabel(r.Tokenizer, r.tokenScale, mf.TokenizerStandIn)
		}
		writeModel(w, mf, r.Jitter, tok)
	}
	return nil
}

// tokenizerLabel names the counter as run's line does: params.tokenizer,
// its factor (params.token_scale) when the model's tokenizer is a stand-in
// or the factor is not 1, and the stand-in's sentence ("o200k_base × 1 (a
// stand-in: claude-sonnet-4.5's tokenizer is not published)").
func tokenizerLabel(tokenizer string, scale float64, standIn string) string {
	label := tokenizer
	if standIn != "" || (scale != 1 && scale != 0) {
		label += fmt.Sprintf(" × %g", scale)
	}
	if standIn != "" {
		label += " (" + standIn + ")"
	}
	return label
}

// writeModel prints one group; tok, when set, is its tokenizer label (the
// groups' stand-in wording differs, so the summary line does not give it).
func writeModel(w io.Writer, mf *ModelFit, jitterWritten bool, tok string) {
	rec := "recorded " + mf.Recorded
	if mf.Recorded == "" {
		rec = "recorded model " + recordedName("")
	}
	fmt.Fprintf(w, "\n== model %s (%s; from the %s) ==\n", mf.Model, rec, modelSourceText(mf.ModelSource))
	if tok != "" {
		fmt.Fprintf(w, "tokenizer %s\n", tok)
	}
	skipped := ""
	if n := mf.Sessions - mf.FitSessions - mf.HeldSessions; n > 0 {
		skipped = fmt.Sprintf(", %d skipped", n)
	}
	fmt.Fprintf(w, "%s: %d fitted on, %d held out%s; %s (%d with usage, %d with a duration)\n",
		nouns.Count(mf.Sessions, "session"), mf.FitSessions, mf.HeldSessions, skipped, nouns.Count(mf.Requests, "model request"), mf.WithUsage, mf.WithDuration)
	for _, k := range sortedSkips(mf.Skipped) {
		fmt.Fprintf(w, "skipped %s: %s\n", nouns.Count(mf.Skipped[k], "session"), k)
	}
	if o := mf.Overhead; o != nil {
		writeOverhead(w, mf, o)
	}
	if l := mf.Latency; l != nil {
		writeLatency(w, l, jitterWritten)
	}
	if ev := mf.HeldOut; ev != nil && ev.Requests.Requests > 0 {
		writeEvaluation(w, ev, mf.Latency)
	}
	for _, p := range mf.Problems {
		fmt.Fprintf(w, "note: %s\n", p)
	}
	for _, x := range mf.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
	if r := mf.Resolution; r != nil && r.Unresolved() > 0 {
		fmt.Fprintf(w, "note: %s\n", strings.ReplaceAll(unresolvedNote(r, mf.Latency != nil || mf.Overhead != nil), "\n", " "))
	}
}

func modelSourceText(s string) string {
	switch s {
	case "recorded":
		return "preset of the recorded model"
	case "fallback":
		return "scenario's model: the recorded one has no preset"
	case "--model":
		return "preset --model names"
	}
	return "scenario's model"
}

func writeOverhead(w io.Writer, mf *ModelFit, o *OverheadFit) {
	fmt.Fprintf(w, "\nprompt overhead (fitted on %s of %s):\n", nouns.Count(o.FitRequests, "request"), nouns.Count(o.FitSessions, "session"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  parameter\tscenario\tfitted")
	b := mf.ScenarioParams
	fmt.Fprintf(tw, "  request_overhead_tokens\t%d\t%d\n", b.RequestOverheadTokens, o.RequestOverheadTokens)
	fmt.Fprintf(tw, "  message_overhead_tokens\t%d\t%d\n", b.MessageOverheadTokens, o.MessageOverheadTokens)
	fmt.Fprintf(tw, "  tool_overhead_tokens\t%d\t%d\n", b.ToolOverheadTokens, o.ToolOverheadTokens)
	if o.TokenScale > 0 {
		fmt.Fprintf(tw, "  token_scale\t%g\t%g\n", b.TokenScale, o.TokenScale)
	}
	tw.Flush()
	for _, n := range o.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	fr := o.FitResiduals
	fmt.Fprintf(w, "  fit residuals, recorded − simulated tokens: p5 %.0f, p25 %.0f, median %.0f, p75 %.0f, p95 %.0f\n", fr.P05, fr.P25, fr.P50, fr.P75, fr.P95)
	if o.Before != nil && o.After != nil {
		fmt.Fprintf(w, "  held-out prompt tokens per request (%s), |sim − rec| / rec and KS distance:\n", nouns.Count(o.After.Requests, "request"))
		fmt.Fprintf(w, "    scenario params: median %s, p90 %s, mean signed %+.1f%%, KS %.3f\n", pct(o.Before.InputMedianAbsRelErr), pct(o.Before.InputP90AbsRelErr), o.Before.InputMeanRelErr*100, o.HeldOutKSBefore)
		fmt.Fprintf(w, "    fitted params:   median %s, p90 %s, mean signed %+.1f%%, KS %.3f\n", pct(o.After.InputMedianAbsRelErr), pct(o.After.InputP90AbsRelErr), o.After.InputMeanRelErr*100, o.HeldOutKS)
	}
}

func writeLatency(w io.Writer, l *LatencyFit, jitterWritten bool) {
	how := "duration"
	if l.TTFT {
		how = "time to first token, then decoding"
	}
	fmt.Fprintf(w, "\nlatency (fitted on %s of %s; %s; prompt split: %s; %s residuals):\n", nouns.Count(l.FitRequests, "request"), nouns.Count(l.FitSessions, "session"), how, l.Split, l.Residuals)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  parameter\tscenario\tcalibrated\t")
	s := l.ScenarioLatency
	for _, p := range l.Params {
		how := "fitted"
		if p.Note != "" {
			how = p.Note
		}
		fmt.Fprintf(tw, "  %s\t%g\t%g\t%s\n", p.Name, p.Scenario, p.Value, how)
	}
	jit := "not written: per-request predictions stay deterministic (--jitter writes it, for distributions)"
	if jitterWritten {
		jit = "written (--jitter): replays draw each request's time around the prediction"
	}
	fmt.Fprintf(tw, "  jitter_cv\t%g\t%g\t%s\n", s.JitterCV, l.JitterCV, jit)
	tw.Flush()
	fr := l.FitResiduals
	fmt.Fprintf(w, "  fit: R² %.3f, robust residual scale %.0f ms, %d IRLS iterations; residuals (recorded − predicted) p5 %.0f, median %.0f, p95 %.0f ms\n",
		l.RSquared, l.ScaleMs, l.Iterations, fr.P05, fr.P50, fr.P95)
	if t := residualSessionsText(l); t != "" {
		fmt.Fprintf(w, "    %s\n", t)
	}
}

func writeEvaluation(w io.Writer, ev *Evaluation, l *LatencyFit) {
	fmt.Fprintf(w, "\nheld-out latency (%s of %s), |pred − rec| / rec and KS distance of the distributions:\n", nouns.Count(ev.Requests.Requests, "request"), nouns.Count(ev.Sessions, "session"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  request time\tmedian\tp90\tmean signed\tKS")
	row := func(name string, e ErrorSummary, ks float64) {
		k := ""
		if !math.IsNaN(ks) {
			k = fmt.Sprintf("%.3f", ks)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%+.1f%%\t%s\n", name, pct(e.MedianAbsRel), pct(e.P90AbsRel), e.MeanRel*100, k)
	}
	row("scenario latency", ev.RequestsBefore, ev.RequestKSBefore)
	row("calibrated", ev.Requests, ev.RequestKS)
	if r := ev.Replayed; r != nil {
		fmt.Fprintf(tw, "  calibrated + jitter %g, as written\t%s\t%s\t\t%.3f\n", l.JitterCV, pct(r.MedianAbsRel), pct(r.P90AbsRel), ev.RequestKSJitter)
	} else {
		fmt.Fprintf(tw, "  calibrated + jitter %g\t\t\t\t%.3f\n", l.JitterCV, ev.RequestKSJitter)
	}
	if ev.AfterUser.Requests > 0 {
		row(fmt.Sprintf("  answering a user message (%d)", ev.AfterUser.Requests), ev.AfterUser, nan())
	}
	if ev.AfterTool.Requests > 0 {
		row(fmt.Sprintf("  after a tool result (%d)", ev.AfterTool.Requests), ev.AfterTool, nan())
	}
	for _, k := range ev.ByKind {
		row(fmt.Sprintf("    %s (%d)", k.Kind, k.Requests), k.ErrorSummary, nan())
	}
	if ev.InSample != nil {
		row("  best fit on these requests", *ev.InSample, nan())
	}
	if ev.TTFT != nil {
		row(fmt.Sprintf("time to first token (%d)", ev.TTFT.Requests), *ev.TTFT, nan())
	}
	if n := ev.FirstReply.Requests; n > 0 {
		fmt.Fprintf(tw, "  first reply (%s)\t\t\t\t\n", nouns.Count(n, "session"))
		row("  scenario latency", ev.FirstReplyBefore, ev.FirstReplyKSBefore)
		row("  calibrated", ev.FirstReply, ev.FirstReplyKS)
		fmt.Fprintf(tw, "    calibrated + jitter\t\t\t\t%.3f\n", ev.FirstReplyKSJitter)
	}
	tw.Flush()
	if n := ev.FirstReplyContradicted; n > 0 {
		fmt.Fprintf(w, "  first reply not compared on %s: %s recorded times contradict each other (a request timed before the user message it answers, "+
			"or before an earlier request of the turn ended: clocks of two machines?); `defersim trace validate` lists events whose time goes backwards\n",
			nouns.Count(n, "held-out session"), nouns.Form(n, "its", "their"))
	}
	h := ev.Residuals
	fmt.Fprintf(w, "  R² %.3f (of log times %.3f); residuals (recorded − predicted) p5 %.0f, median %.0f, p95 %.0f ms\n", ev.RSquared, ev.RSquaredLog, h.P05, h.P50, h.P95)
	if len(ev.Worst) > 0 {
		var parts []string
		n := 0
		for _, k := range ev.Worst {
			parts = append(parts, fmt.Sprintf("%s %d", k.Kind, k.Requests))
			n += k.Requests
		}
		fmt.Fprintf(w, "  the worst tenth (%s, error ≥ %s): %s\n", nouns.Count(n, "request"), pct(ev.Requests.P90AbsRel), strings.Join(parts, ", "))
		fmt.Fprintf(w, "    from %s: %s\n", nouns.Count(len(ev.WorstSessions), "session"), worstSessions(ev.WorstSessions, worstSessionsShown))
	}
}

// worstSessionsShown is how many sessions the worst tenth's line names.
const worstSessionsShown = 3

// worstSessions names the first max sessions of ws with their counts, and
// how many more there are.
func worstSessions(ws []SessionCount, max int) string {
	var parts []string
	for i, s := range ws {
		if i == max {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(ws)-max))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", s.Session, s.Requests))
	}
	return strings.Join(parts, ", ")
}

func nan() float64 { return math.NaN() }

func pct(v float64) string { return fmt.Sprintf("%.1f%%", v*100) }

func baseNames(paths []string) string {
	var files []string
	for _, t := range paths {
		files = append(files, filepath.Base(t))
	}
	return strings.Join(files, ", ")
}

func sortedSkips(m Skipped) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
