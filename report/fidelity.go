package report

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// FidelityLargeError is the median absolute relative error
// (|simulated − recorded| / recorded) above which a side of the fidelity
// comparison (input tokens, latency) is flagged as a large error: half the
// compared requests or more are off by more than a quarter of what was
// recorded. The terminal summary, report.md and report.html all flag by it
// (docs/fidelity.md).
const FidelityLargeError = 0.25

// fidelitySide is one side of run.fidelity: input tokens or latency.
type fidelitySide struct {
	Name     string // "Input tokens", "Latency"
	records  string // what a request must record to be compared
	recorded string // what the replay is compared with, for the flag
	Requests int64
	Median   float64
	P90      float64
	Mean     *float64 // the mean signed relative error (input tokens only)
}

// fidelitySides returns the two sides of f; nil when f compared nothing
// (no request recorded usage or a duration): then nothing is shown.
func fidelitySides(f *sim.Fidelity) []fidelitySide {
	if f == nil || (f.Requests == 0 && f.LatencyRequests == 0) {
		return nil
	}
	mean := f.InputMeanRelErr
	return []fidelitySide{
		{Name: "Input tokens", records: "its usage", recorded: "prompt tokens",
			Requests: f.Requests, Median: f.InputMedianAbsRelErr, P90: f.InputP90AbsRelErr, Mean: &mean},
		{Name: "Latency", records: "its duration", recorded: "request times",
			Requests: f.LatencyRequests, Median: f.LatencyMedianAbsRelErr, P90: f.LatencyP90AbsRelErr},
	}
}

// NotCompared says why the side has no figures ("" when it has some), in
// report.html's words.
func (s fidelitySide) NotCompared() string {
	if s.Requests > 0 {
		return ""
	}
	return "not compared: no request of the traces records " + s.records
}

// Large reports whether the side's median error is above FidelityLargeError.
func (s fidelitySide) Large() bool { return s.Requests > 0 && s.Median > FidelityLargeError }

// Figures is the side's errors: "median absolute relative error 0.88%,
// p90 1.19%, mean relative error +0.84% (217 requests)".
func (s fidelitySide) Figures() string {
	t := fmt.Sprintf("median absolute relative error %s, p90 %s", fmtPercent(s.Median), fmtPercent(s.P90))
	if s.Mean != nil {
		t += ", mean relative error " + signed(*s.Mean*100, fmtSig) + "%"
	}
	return t + " (" + fmtNoun(s.Requests, "request") + ")"
}

// Flag says what a large error means ("" when the error is not large).
func (s fidelitySide) Flag() string {
	if !s.Large() {
		return ""
	}
	return fmt.Sprintf("median above %s, the replay does not reproduce the recorded %s", fmtPercent(FidelityLargeError), s.recorded)
}

// otherStrategyNote says how many sessions were left out of f as
// recorded under another strategy ("" when none was): "3 sessions
// recorded under another strategy were not compared (…)".
func otherStrategyNote(f *sim.Fidelity) string {
	if f == nil || f.OtherStrategy == 0 {
		return ""
	}
	return fmt.Sprintf("%s %s recorded under another strategy %s not compared (their session_start records a deferral rule as recorded_strategy: what they sent is not what %s sends)",
		fmtInt(float64(f.OtherStrategy)), nouns.Form(f.OtherStrategy, "session", "sessions"), nouns.Form(f.OtherStrategy, "was", "were"), f.Strategy)
}

// fidelityLine is the terminal summary's Fidelity line ("" when the run
// compared nothing and left no session out).
func fidelityLine(f *sim.Fidelity) string {
	sides := fidelitySides(f)
	other := otherStrategyNote(f)
	if sides == nil {
		if other == "" {
			return ""
		}
		return fmt.Sprintf("%s replayed vs recorded: nothing compared; %s", f.Strategy, other)
	}
	parts := make([]string, len(sides), len(sides)+1)
	for i, s := range sides {
		name := strings.ToLower(s.Name)
		switch {
		case s.NotCompared() != "":
			parts[i] = name + " " + s.NotCompared()
		case s.Large():
			parts[i] = name + " " + s.Figures() + " — LARGE ERROR: " + s.Flag()
		default:
			parts[i] = name + " " + s.Figures()
		}
	}
	if other != "" {
		parts = append(parts, other)
	}
	return fmt.Sprintf("%s replayed vs recorded: %s", f.Strategy, strings.Join(parts, "; "))
}

// fidelityMarkdown writes report.md's Fidelity section (nothing when the
// run compared nothing and left no session out).
func fidelityMarkdown(b *strings.Builder, f *sim.Fidelity) {
	sides := fidelitySides(f)
	other := otherStrategyNote(f)
	if sides == nil && other == "" {
		return
	}
	fmt.Fprintf(b, "\n## Fidelity\n\nRecorded sessions replayed under the strategy they were recorded with (%s), compared request by request with what was recorded. "+
		"Absolute relative error = \\|simulated − recorded\\| / recorded.\n\n", mdEscape(f.Strategy))
	for _, s := range sides {
		switch {
		case s.NotCompared() != "":
			fmt.Fprintf(b, "- %s: %s.\n", s.Name, s.NotCompared())
		case s.Large():
			fmt.Fprintf(b, "- %s: %s. **Large error:** %s.\n", s.Name, s.Figures(), s.Flag())
		default:
			fmt.Fprintf(b, "- %s: %s.\n", s.Name, s.Figures())
		}
	}
	if other != "" {
		fmt.Fprintf(b, "- Not compared: %s.\n", mdEscape(other))
	}
}

// fidelityLargeSides returns the sides of f whose error is large, for
// report.html's flags.
func fidelityLargeSides(f *sim.Fidelity) []fidelitySide {
	var out []fidelitySide
	for _, s := range fidelitySides(f) {
		if s.Large() {
			out = append(out, s)
		}
	}
	return out
}
