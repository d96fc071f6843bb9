package recommend

import (
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestWilson pins the Wilson bounds against values computed by hand from
// the closed forms (z = Φ⁻¹(0.95) = 1.644854, z² = 2.705543): with no
// session nothing is known, [0, 1]; a share of 0 over n has the upper bound
// z²/(n + z²) (n = 1: 0.730134, n = 20: 0.119158); a share of 1 the lower
// bound n/(n + z²) (n = 1: 0.269866, n = 20: 0.880842); 50 of 100 at
// 0.975 is the textbook 95% interval [0.4038, 0.5962]; the others were
// computed from the formula with z from Python's statistics.NormalDist.
func TestWilson(t *testing.T) {
	tests := []struct {
		k, n      int
		conf      float64
		low, high float64
	}{
		{0, 0, 0.95, 0, 1},
		{0, 1, 0.95, 0, 0.730134},
		{1, 1, 0.95, 0.269866, 1},
		{0, 20, 0.95, 0, 0.119158},
		{20, 20, 0.95, 0.880842, 1},
		{50, 100, 0.975, 0.403832, 0.596168},
		{3, 10, 0.95, 0.126877, 0.558300},
		{2, 147, 0.95, 0.004513, 0.040279},
		{0, 100, 0.95, 0, 0.026343},
		{50, 100, 0.95, 0.418848, 0.581152},
		{10, 200, 0.95, 0.030121, 0.081892},
	}
	for _, tc := range tests {
		low, high := wilson(tc.k, tc.n, tc.conf)
		if math.Abs(low-tc.low) > 5e-7 || math.Abs(high-tc.high) > 5e-7 {
			t.Errorf("wilson(%d, %d, %g) = [%.6f, %.6f], want [%.6f, %.6f]", tc.k, tc.n, tc.conf, low, high, tc.low, tc.high)
		}
		if got := wilsonLower(tc.k, tc.n, tc.conf); got != low {
			t.Errorf("wilsonLower(%d, %d) = %v, want the interval's low %v", tc.k, tc.n, got, low)
		}
	}
	if got := normalQuantile(0.975); math.Abs(got-1.959964) > 1e-6 {
		t.Errorf("normalQuantile(0.975) = %v", got)
	}
}

// TestSessionsToSettle pins the number of sessions that puts a share's
// interval on one side of a threshold: n > z² t(1 − t)/(p − t)², by hand
// 538.4 for a share of 0 against 0.5% (so 539), 2.7 for a share of 1
// against 0.5 (so 3); 1 against a threshold of 0 (any session above 0
// excludes it); none for a share on its threshold. At that n the interval
// excludes the threshold, at one session fewer it does not.
func TestSessionsToSettle(t *testing.T) {
	z := normalQuantile(0.95)
	tests := []struct {
		p, t float64
		want int
	}{
		{0, 0.005, 539},
		{1, 0.5, 3},
		{0.2, 0, 1},
		{0.3, 0.3, 0},
	}
	for _, tc := range tests {
		n := sessionsToSettle(tc.p, tc.t, z)
		if n != tc.want {
			t.Errorf("sessionsToSettle(%g, %g) = %d, want %d", tc.p, tc.t, n, tc.want)
		}
		if n == 0 {
			continue
		}
		if low, high := wilsonAt(tc.p, float64(n), z); low <= tc.t && tc.t <= high {
			t.Errorf("p %g over %d sessions: [%.5f, %.5f] still holds %g", tc.p, n, low, high, tc.t)
		}
		if n > 1 {
			if low, high := wilsonAt(tc.p, float64(n-1), z); tc.t < low || tc.t > high {
				t.Errorf("p %g over %d sessions: [%.5f, %.5f] already excludes %g", tc.p, n-1, low, high, tc.t)
			}
		}
	}
}

// TestUncertainDecisions pins which decisions are uncertain: those whose
// share could, within its bounds, lie on the other side of the threshold the
// rule compared it with, and no others. A tool no session of one called
// before the first reply may be an opener (its before-reply share is within
// [0, 73%], its break-even share a few percent); a rare large tool of one
// session may be common (its call share above --rare); over 200 sessions a frequent opener and a large
// tool never needed before the first reply are settled, an opener seen in
// 2 of them is not (below break-even at 95%, but not surely), nor a tool
// called in exactly --rare of them.
func TestUncertainDecisions(t *testing.T) {
	e := toolsArrayEconomy()
	tests := []struct {
		name      string
		u         toolUsage
		sessions  int
		tok       int64
		decision  string
		share     string // "" when certain
		threshold string
		alt       string
	}{
		{"one session, not before reply", toolUsage{Uses: 1, Calls: 1}, 1, 300, byBudget, shareBeforeReply, "break-even share", neverDefer},
		// Its call share within [0, 73%] straddles --rare (5%: settled by
		// 51 sessions) and its before-reply share its break-even share
		// (11.8%: by 20): the one that settles last is reported.
		{"one session, rare and large", toolUsage{}, 1, 2000, alwaysDefer, shareUse, "--rare share", byBudget},
		{"frequent opener", toolUsage{Opens: 60, Uses: 60, FirstTurn: 50, BeforeReply: 50, Calls: 80}, 200, 300, neverDefer, "", "", ""},
		{"large, never before reply", toolUsage{Uses: 80, Calls: 200}, 200, 2000, byBudget, "", "", ""},
		{"opener seen twice", toolUsage{Opens: 2, Uses: 2, FirstTurn: 2, BeforeReply: 2, Calls: 2}, 200, 300, byBudget, shareBeforeReply, "break-even share", neverDefer},
		{"called in exactly --rare", toolUsage{Uses: 10, Calls: 10}, 200, 5000, alwaysDefer, shareUse, "--rare share", byBudget},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := assess(e, e, DefaultRules(), 500, toolKey{"s", "t"}, &tc.u, tc.sessions, tc.sessions, Schema{Tokens: tc.tok}, false)
			if a.Decision != tc.decision {
				t.Fatalf("decision %s, want %s (%s)", a.Decision, tc.decision, a.Why)
			}
			u := a.Uncertainty
			if (u != nil) != (tc.share != "") || a.Uncertain != (u != nil) {
				t.Fatalf("uncertain %v (%+v), want %v: %s", a.Uncertain, u, tc.share != "", a.Why)
			}
			if u == nil {
				return
			}
			if u.Share != tc.share || u.ThresholdName != tc.threshold || u.Alternative != tc.alt {
				t.Errorf("uncertain on %s vs %s (%s beyond), want %s vs %s (%s)", u.Share, u.ThresholdName, u.Alternative, tc.share, tc.threshold, tc.alt)
			}
			if u.Threshold < u.Low || u.Threshold > u.High {
				t.Errorf("threshold %v outside [%v, %v]", u.Threshold, u.Low, u.High)
			}
			if want := a.BreakEvenShare; tc.threshold == "break-even share" && u.Threshold != want {
				t.Errorf("threshold %v, want the break-even share %v", u.Threshold, want)
			}
			if !strings.Contains(a.Why, "uncertain: ") {
				t.Errorf("why does not say it is uncertain: %s", a.Why)
			}
		})
	}
}

// TestSummarizeWarns pins the warnings: uncertain decisions are counted
// with the sessions that would settle them, and a proposal without a
// held-out session says no replay checked it.
func TestSummarizeWarns(t *testing.T) {
	tools := []Assessment{
		{Key: toolKey{"s", "a"}, Uncertain: true, Uncertainty: &Uncertainty{SessionsToSettle: 539, Sessions: 1, training: 1}},
		{Key: toolKey{"s", "b"}, Uncertain: true, Uncertainty: &Uncertainty{SessionsToSettle: 51, Sessions: 1, training: 1}},
		{Key: toolKey{"s", "c"}},
	}
	tests := []struct {
		name    string
		tools   []Assessment
		heldOut int
		share   float64
		want    []string
	}{
		{"certain and checked", tools[2:], 30, 0.3, nil},
		{"uncertain", tools, 30, 0.3, []string{"2 of 3 decisions are uncertain: learnt from 1 session, ",
			"about 539 training sessions (770 recorded, with --test-share 0.3) would settle all of them — s:a needs the most; record more sessions"}},
		{"unchecked", tools[2:], 0, 0.3, []string{"no session was held apart for validation (1 session, --test-share 0.3): no replay checked the proposal; record more sessions"}},
		{"unchecked, no test share", tools[2:], 0, 0, []string{"give --test-share above 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Proposal{Tools: tc.tools, Training: 1, HeldOut: tc.heldOut, TestShare: tc.share, Rules: DefaultRules()}
			summarize(p)
			got := strings.Join(p.Warnings, "\n")
			if len(tc.want) == 0 && got != "" {
				t.Errorf("warnings %q, want none", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("warnings %q\nwant %q", got, w)
				}
			}
		})
	}
}

// TestUncertainPricedThreshold pins the --usd-per-second threshold: with
// first-reply time priced at V dollars a second, a tool is kept direct only
// if V × (share × round trip − prefill) pays for its extra dollars. V is
// chosen so that, at the call share observed, the before-reply share must
// reach 1.5 × the break-even share (23.9% for a 2000-token schema under
// inline loading), inside the bounds [20.3%, 30.3%] of 50 of 200 sessions,
// whose lower bound clears the break-even share (15.9%): the 25% observed
// keeps it direct, but uncertain against the priced threshold (which moves
// with the call share, so it is found where the bounds cross it), with by
// budget beyond it.
func TestUncertainPricedThreshold(t *testing.T) {
	e := toolsArrayEconomy()
	e.Injection = sim.InjectInline // a load re-writes no prompt: deferring is cheap
	u := toolUsage{Opens: 50, Uses: 50, FirstTurn: 50, BeforeReply: 50, Calls: 50}
	free := assess(e, e, DefaultRules(), 500, toolKey{"s", "t"}, &u, 200, 200, Schema{Tokens: 2000}, false)
	extra := free.DirectUSD - free.DeferUSD
	if extra <= 0 || free.Decision != neverDefer || free.Uncertain {
		t.Fatalf("the tool costs %v more direct, decision %s (uncertain %v): want a positive cost, a certain never-defer on time alone", extra, free.Decision, free.Uncertain)
	}
	rules := DefaultRules()
	rules.USDPerSecond = 1000 * extra / (0.5 * free.DirectMs)
	a := assess(e, e, rules, 500, toolKey{"s", "t"}, &u, 200, 200, Schema{Tokens: 2000}, false)
	if a.Decision != neverDefer || a.Uncertainty == nil {
		t.Fatalf("decision %s, uncertainty %+v: want never-defer, uncertain (%s)", a.Decision, a.Uncertainty, a.Why)
	}
	if got := a.Uncertainty; got.ThresholdName != "--usd-per-second break-even share" || got.Threshold < got.Low || got.Threshold > got.High || got.Alternative != byBudget {
		t.Errorf("uncertain: %+v, want against the --usd-per-second break-even share within the bounds, by budget beyond", got)
	}
}
