package calibrate

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// WriteText prints the calibration: data, fitted values, fit quality and
// held-out errors.
func WriteText(w io.Writer, r *Result) error {
	fmt.Fprintf(w, "calibrated on %d of %d sessions (seed %d, fit share %.2f), judged on the other %d; %d model requests (%d with usage, %d with a duration); loss %s; tokenizer %s\n",
		r.FitSessions, r.Sessions, r.Seed, r.FitShare, r.Sessions-r.FitSessions, r.Requests, r.WithUsage, r.WithDuration, r.Loss, r.Tokenizer)
	for _, k := range sortedSkips(r.Skipped) {
		fmt.Fprintf(w, "skipped %d session(s): %s\n", r.Skipped[k], k)
	}
	if o := r.Overhead; o != nil {
		fmt.Fprintf(w, "\nprompt overhead (fitted on %d requests of %d sessions):\n", o.FitRequests, o.FitSessions)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  parameter\tscenario\tfitted")
		fmt.Fprintf(tw, "  request_overhead_tokens\t%d\t%d\n", r.paramsBefore().RequestOverheadTokens, o.RequestOverheadTokens)
		fmt.Fprintf(tw, "  message_overhead_tokens\t%d\t%d\n", r.paramsBefore().MessageOverheadTokens, o.MessageOverheadTokens)
		fmt.Fprintf(tw, "  tool_overhead_tokens\t%d\t%d\n", r.paramsBefore().ToolOverheadTokens, o.ToolOverheadTokens)
		tw.Flush()
		for _, n := range o.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
		fr := o.FitResiduals
		fmt.Fprintf(w, "  fit residuals, recorded − simulated tokens: p5 %.0f, p25 %.0f, median %.0f, p75 %.0f, p95 %.0f\n", fr.P05, fr.P25, fr.P50, fr.P75, fr.P95)
		if o.Before != nil && o.After != nil {
			fmt.Fprintf(w, "  held-out prompt tokens per request (%d requests), |sim − rec| / rec:\n", o.After.Requests)
			fmt.Fprintf(w, "    scenario params: median %s, p90 %s, mean signed %+.1f%%\n", pct(o.Before.InputMedianAbsRelErr), pct(o.Before.InputP90AbsRelErr), o.Before.InputMeanRelErr*100)
			fmt.Fprintf(w, "    fitted params:   median %s, p90 %s, mean signed %+.1f%%\n", pct(o.After.InputMedianAbsRelErr), pct(o.After.InputP90AbsRelErr), o.After.InputMeanRelErr*100)
		}
	}
	if l := r.Latency; l != nil {
		fmt.Fprintf(w, "\nlatency (fitted on %d requests of %d sessions; prompt split: %s):\n", l.FitRequests, l.FitSessions, l.Split)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  parameter\tscenario\tcalibrated\t")
		before := []float64{l.ScenarioLatency.OverheadMs, l.ScenarioLatency.PrefillTPS, l.ScenarioLatency.CachedPrefillTPS, l.ScenarioLatency.DecodeTPS, l.ScenarioLatency.JitterCV}
		for i, p := range l.Params {
			how := "fitted"
			if !p.Fitted {
				how = p.Note
			} else if p.Note != "" {
				how = p.Note
			}
			fmt.Fprintf(tw, "  %s\t%g\t%g\t%s\n", p.Name, before[i], p.Value, how)
		}
		tw.Flush()
		fr := l.FitResiduals
		fmt.Fprintf(w, "  fit: R² %.3f, robust residual scale %.0f ms, %d IRLS iterations; residuals (recorded − predicted) p5 %.0f, median %.0f, p95 %.0f ms\n",
			l.RSquared, l.ScaleMs, l.Iterations, fr.P05, fr.P50, fr.P95)
		if l.HeldOut.Requests > 0 {
			h := l.HeldOutResiduals
			fmt.Fprintf(w, "  held-out request time (%d requests of %d sessions), |pred − rec| / rec:\n", l.HeldOut.Requests, l.HeldSessions)
			fmt.Fprintf(w, "    scenario latency:   median %s, p90 %s, mean signed %+.1f%%\n", pct(l.HeldOutBefore.MedianAbsRel), pct(l.HeldOutBefore.P90AbsRel), l.HeldOutBefore.MeanRel*100)
			fmt.Fprintf(w, "    calibrated latency: median %s, p90 %s, mean signed %+.1f%%; R² %.3f; residuals p5 %.0f, median %.0f, p95 %.0f ms\n",
				pct(l.HeldOut.MedianAbsRel), pct(l.HeldOut.P90AbsRel), l.HeldOut.MeanRel*100, l.HeldOutRSquared, h.P05, h.P50, h.P95)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "\nnote: %s\n", p)
	}
	return nil
}

// paramsBefore returns the scenario's params (r.Params holds the fitted ones).
func (r *Result) paramsBefore() sim.Params { return r.scenarioParams }

func pct(v float64) string { return fmt.Sprintf("%.1f%%", v*100) }

func sortedSkips(m Skipped) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Snippet renders the calibrated values as a scenario fragment: model
// latency (on the scenario's model preset when it is one) and params.
func Snippet(r *Result) []byte {
	var b bytes.Buffer
	var files []string
	for _, t := range r.Traces {
		files = append(files, filepath.Base(t))
	}
	fmt.Fprintf(&b, "# defersim calibrate: %d of %d sessions of %s (seed %d), loss %s, tokenizer %s.\n",
		r.FitSessions, r.Sessions, strings.Join(files, ", "), r.Seed, r.Loss, r.Tokenizer)
	if o := r.Overhead; o != nil && o.After != nil {
		fmt.Fprintf(&b, "# Held-out prompt tokens: median |error| %s, p90 %s (was %s, %s).\n",
			pct(o.After.InputMedianAbsRelErr), pct(o.After.InputP90AbsRelErr), pct(o.Before.InputMedianAbsRelErr), pct(o.Before.InputP90AbsRelErr))
	}
	if l := r.Latency; l != nil && l.HeldOut.Requests > 0 {
		fmt.Fprintf(&b, "# Held-out request time: median |error| %s, p90 %s (was %s, %s).\n",
			pct(l.HeldOut.MedianAbsRel), pct(l.HeldOut.P90AbsRel), pct(l.HeldOutBefore.MedianAbsRel), pct(l.HeldOutBefore.P90AbsRel))
	}
	if l := r.Latency; l != nil {
		b.WriteString("model:\n")
		if _, err := presets.Model(r.Model); err == nil {
			fmt.Fprintf(&b, "  preset: %s\n", r.Model)
		}
		b.WriteString("  latency:\n")
		for _, p := range l.Params {
			comment := ""
			if !p.Fitted {
				comment = "  # " + p.Note
			}
			fmt.Fprintf(&b, "    %s: %g%s\n", p.Name, p.Value, comment)
		}
	}
	if o := r.Overhead; o != nil {
		b.WriteString("params:\n")
		fmt.Fprintf(&b, "  tokenizer: %s\n", r.Tokenizer)
		fmt.Fprintf(&b, "  request_overhead_tokens: %d\n", o.RequestOverheadTokens)
		fmt.Fprintf(&b, "  message_overhead_tokens: %d\n", o.MessageOverheadTokens)
		fmt.Fprintf(&b, "  tool_overhead_tokens: %d\n", o.ToolOverheadTokens)
	}
	return b.Bytes()
}
