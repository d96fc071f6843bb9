package calibrate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
)

// The shared tau2-bench runs with per-request timestamps.
var (
	tau2Telecom = []string{"sessions", "tau2-bench", "data", "simulations",
		"2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json"}
	tau2Airline = []string{"sessions", "tau2-bench", "web", "leaderboard", "public", "submissions",
		"gpt-oss-120b_openai_2025-11-26", "trajectories", "langchain_agent_airline_2025-11-26_00-37-06.json"}
)

// importTau2 imports one tau2 results file with the leaderboard's tool
// listing, as docs/calibrate.md does.
func importTau2(t *testing.T, elems ...string) (string, string) {
	t.Helper()
	src := shareddata.Path(t, elems...)
	tools := shareddata.Path(t, "sessions", "tau2-bench", "web", "leaderboard", "public", "task-data", "tools-data.json")
	out := filepath.Join(t.TempDir(), "tau2.jsonl.gz")
	if _, err := importers.Run(importers.Request{Format: "tau2", Inputs: []string{src}, Out: out, ToolFiles: []string{tools}}); err != nil {
		t.Fatal(err)
	}
	return out, out + ".catalog"
}

// TestTau2TelecomEvenOdd pins the figures docs/fidelity.md reports for the
// gpt-4o telecom run (usage and timestamps), calibrated on the sessions at
// even positions and judged on the odd ones: no negative rate, prompt
// tokens within 1% at the median, request time within 8% at the median and
// 25% at p90 (issue 16's bound).
func TestTau2TelecomEvenOdd(t *testing.T) {
	trace, cat := importTau2(t, tau2Telecom...)
	res, err := Run(context.Background(), config(t, trace, cat, "gpt-4o", FitOn{Kind: FitEven}))
	if err != nil {
		t.Fatal(err)
	}
	mf := res.Models[0]
	if len(res.Models) != 1 || mf.FitSessions != 10 || mf.HeldSessions != 10 || mf.WithUsage != mf.Requests {
		t.Fatalf("%d groups; %d fit, %d held-out sessions; %d of %d requests with usage", len(res.Models), mf.FitSessions, mf.HeldSessions, mf.WithUsage, mf.Requests)
	}
	if o := mf.Overhead; o == nil || o.After.InputMedianAbsRelErr > 0.01 || o.After.InputP90AbsRelErr > 0.02 {
		t.Errorf("held-out prompt tokens: %+v", o)
	}
	l, ev := mf.Latency, mf.HeldOut
	if l == nil || ev == nil {
		t.Fatalf("no latency fit: %v", mf.Problems)
	}
	noNegativeRate(t, l)
	if ev.Requests.Requests != 108 || ev.Requests.MedianAbsRel > 0.08 || ev.Requests.P90AbsRel > 0.25 {
		t.Errorf("held-out request time: %+v", ev.Requests)
	}
	if !(ev.RequestKS < ev.RequestKSBefore) || ev.FirstReply.Requests != 10 {
		t.Errorf("KS %v (scenario %v); %d first replies", ev.RequestKS, ev.RequestKSBefore, ev.FirstReply.Requests)
	}
}

// TestTau2AirlineEvenOdd pins what the gpt-oss-120b airline run (timestamps,
// no usage) allows: no negative rate, and that the engine's latency formula
// cannot meet issue 16's per-request bound there however it is fitted —
// even fitted on the held-out requests themselves to the reported error,
// p90 stays far above 25% (docs/fidelity.md says why).
func TestTau2AirlineEvenOdd(t *testing.T) {
	trace, cat := importTau2(t, tau2Airline...)
	res, err := Run(context.Background(), config(t, trace, cat, "gpt-4o", FitOn{Kind: FitEven}))
	if err != nil {
		t.Fatal(err)
	}
	mf := res.Models[0]
	if mf.Overhead != nil || mf.WithUsage != 0 || mf.FitSessions != 25 || mf.HeldSessions != 25 {
		t.Errorf("overhead %v, %d requests with usage, %d/%d sessions", mf.Overhead, mf.WithUsage, mf.FitSessions, mf.HeldSessions)
	}
	l, ev := mf.Latency, mf.HeldOut
	if l == nil || ev == nil || l.Split != SplitReplay {
		t.Fatalf("latency fit: %+v; problems %v", l, mf.Problems)
	}
	noNegativeRate(t, l)
	if ev.InSample == nil || ev.InSample.P90AbsRel <= 0.25 {
		t.Errorf("best in-sample fit %+v: the docs say no parameter choice reaches p90 25%%", ev.InSample)
	}
}
