package plan

import (
	"fmt"
	"strconv"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
)

// SketchBound says how close a projection's latency percentiles are when
// the results sketched them: a run of more sessions than it kept
// per-session values for (--exact-sessions) records its quantile sketch
// and relative accuracy in statistics.streaming, and every percentile it
// reports is within that relative error of a session value at the
// percentile's rank (docs/performance.md, "Streaming statistics and their
// error bound").
type SketchBound struct {
	// QuantileSketch and RelativeAccuracy are the results' own.
	QuantileSketch   string  `json:"quantile_sketch"`
	RelativeAccuracy float64 `json:"relative_accuracy"`
	// SampleSessions is how many sessions kept per-session values (the
	// bootstrap's sample); Sessions how many were replayed.
	SampleSessions int `json:"sample_sessions"`
	Sessions       int `json:"sessions_replayed"`
	// Note says it in words, as text and Markdown print it.
	Note string `json:"note"`
}

// sketchBound is the bound of res's percentiles; nil when res computed
// them exactly (no statistics.streaming block).
func sketchBound(res *report.Results) *SketchBound {
	st := res.Statistics.Streaming
	if st == nil {
		return nil
	}
	b := &SketchBound{QuantileSketch: st.QuantileSketch, RelativeAccuracy: st.RelativeAccuracy,
		SampleSessions: st.SampleSessions, Sessions: res.Sessions}
	b.Note = fmt.Sprintf("the latency percentiles are sketched (%s replayed, %d kept exactly: %s): each is within ±%s, relative, "+
		"of the session value at its rank ⌊q(n−1)⌋, and the exact percentile lies between that value and the next",
		nouns.Count(b.Sessions, "session"), b.SampleSessions, b.QuantileSketch, percent(b.RelativeAccuracy))
	return b
}

// percent writes a share as a percentage with the digits it needs (0.005: "0.5%").
func percent(v float64) string {
	return strconv.FormatFloat(100*v, 'g', -1, 64) + "%"
}
