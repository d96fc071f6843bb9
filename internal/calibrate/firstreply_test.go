package calibrate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestRecordedFirstReplyTimesContradict pins that a recorded first reply
// whose times contradict each other is not measured: a reply request timed
// 500 ms before the user message (two machines' clocks) gave a first reply
// of its duration minus 500 ms, compared as if recorded; one timed before
// an earlier request of the turn ended (every event at one time) gave its
// own duration alone.
func TestRecordedFirstReplyTimesContradict(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	user := sim.Step{Kind: sim.StepUser, T: t0}
	call := func(ms int, dur float64) sim.Step { return sim.Step{Kind: sim.StepModel, T: at(ms), DurationMs: dur} }
	reply := func(ms int, dur float64) sim.Step {
		return sim.Step{Kind: sim.StepModel, T: at(ms), DurationMs: dur, Text: "ok"}
	}
	for _, tc := range []struct {
		name  string
		steps []sim.Step
		want  float64
	}{
		{"consistent", []sim.Step{user, call(10, 1000), reply(1010, 1200)}, 2210},
		{"sub-millisecond rounding", []sim.Step{user, call(10, 1001), reply(1010, 1200)}, 2210},
		{"reply before the user message", []sim.Step{user, reply(-500, 1200)}, firstReplyContradicted},
		{"a call before the user message", []sim.Step{user, call(-500, 700), reply(300, 1200)}, firstReplyContradicted},
		{"reply before the call ended", []sim.Step{user, call(0, 1000), reply(0, 1200)}, firstReplyContradicted},
		{"untimed reply", []sim.Step{user, call(0, 1000), {Kind: sim.StepModel, Text: "ok"}}, firstReplyUntimed},
		{"untimed call", []sim.Step{user, {Kind: sim.StepModel}, reply(1000, 1200)}, 2200},
		{"no user message", []sim.Step{reply(0, 1200)}, firstReplyUntimed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := recordedFirstReply(&sim.Need{Steps: tc.steps}); got != tc.want {
				t.Errorf("first reply %v, want %v", got, tc.want)
			}
		})
	}
}

// TestCalibrateSaysWhyFirstRepliesAreNotCompared pins that held-out
// sessions whose model requests are timed by a clock a minute behind the
// user's are counted and named in the text: the first-reply rows used to
// vanish without a word.
func TestCalibrateSaysWhyFirstRepliesAreNotCompared(t *testing.T) {
	_, cat := recorded(t)
	trace := rewrite(t, "skew.jsonl.gz", func(_ int, s *traces.Session) {
		for i := range s.Events {
			if e := &s.Events[i]; e.Type == traces.ModelRequest && !e.T.IsZero() {
				e.T = e.T.Add(-time.Minute)
			}
		}
	})
	res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
	if err != nil {
		t.Fatal(err)
	}
	ev := res.Models[0].HeldOut
	if ev == nil || ev.FirstReply.Requests != 0 || ev.FirstReplyContradicted != res.Models[0].HeldSessions {
		t.Fatalf("held-out evaluation %+v, want every held-out first reply (%d) counted as contradicted", ev, res.Models[0].HeldSessions)
	}
	var b strings.Builder
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "first reply not compared on 30 held-out sessions: their recorded times contradict each other") {
		t.Errorf("the text does not say why first replies are not compared:\n%s", b.String())
	}
}
