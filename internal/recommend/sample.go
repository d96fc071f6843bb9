package recommend

import (
	"fmt"
	"math"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// wilson is the Wilson score interval of a binomial share k/n whose bounds
// each hold at the one-sided confidence conf: the share is above low, and
// below high, at conf (together a central interval at 2·conf − 1). With no
// session it is [0, 1]: nothing is known.
func wilson(k, n int, conf float64) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	return wilsonAt(float64(k)/float64(n), float64(n), normalQuantile(conf))
}

// wilsonAt is the Wilson interval of share p observed over n sessions with
// the normal quantile z.
func wilsonAt(p, n, z float64) (low, high float64) {
	den := 1 + z*z/n
	centre := p + z*z/(2*n)
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return max(0, (centre-half)/den), min(1, (centre+half)/den)
}

// wilsonLower is the one-sided lower confidence bound of a binomial share
// k/n (wilson); 0 when n is 0.
func wilsonLower(k, n int, conf float64) float64 {
	low, _ := wilson(k, n, conf)
	return low
}

// sessionsToSettle is the smallest number of sessions over which a share
// observed at p has a Wilson interval (normal quantile z) that excludes
// threshold t: the score interval holds every t with
// (p − t)² ≤ z² t(1 − t) / n, so n > z² t(1 − t) / (p − t)². It is 0 when
// no number does (p on the threshold).
func sessionsToSettle(p, t, z float64) int {
	d := (p - t) * (p - t)
	if d == 0 {
		return 0
	}
	n := math.Floor(z*z*t*(1-t)/d) + 1
	if n > math.MaxInt32 || math.IsNaN(n) {
		return 0
	}
	return int(n)
}

// The shares a decision rests on (JSON Uncertainty.Share).
const (
	shareBeforeReply = "before_first_reply_share"
	shareUse         = "use_share"
)

// shareLabel is a share's name in the tables, shareNoun in a sentence.
var (
	shareLabel = map[string]string{shareBeforeReply: "before reply", shareUse: "called"}
	shareNoun  = map[string]string{shareBeforeReply: "before-reply share", shareUse: "call share"}
)

// Uncertainty says why a decision is uncertain: the share it rests on
// could, at the rules' confidence, lie on the other side of the threshold
// the rule compared it with.
type Uncertainty struct {
	// Share is the share that crosses (before_first_reply_share or
	// use_share), observed at Observed, within [Low, High].
	Share    string  `json:"share"`
	Observed float64 `json:"observed"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	// Threshold is where the decision changes, and ThresholdName which
	// of the rules' thresholds it is.
	Threshold     float64 `json:"threshold"`
	ThresholdName string  `json:"threshold_name"`
	// Alternative is the decision on the threshold's other side.
	Alternative string `json:"alternative"`
	// StakeMs, for a before-reply share, is the mean first-reply time the
	// decision made could cost were the share at the far bound of its
	// interval: |share × round trip − direct prefill| (0 for a call share,
	// whose thresholds are not in milliseconds).
	StakeMs float64 `json:"stake_first_reply_ms"`
	// SessionsToSettle is how many training sessions that could call the
	// tool would put the interval on one side of the threshold if the
	// share stayed as observed (0: none would, the share is on the
	// threshold). Sessions is how many could call it in this sample (the
	// share's denominator, Assessment.Sessions); training every training
	// session.
	SessionsToSettle int `json:"sessions_to_settle"`
	Sessions         int `json:"sessions"`
	training         int
}

// trainingToSettle is SessionsToSettle in training sessions, were the
// share of them that could call the tool as in this sample (0 when none
// could, or nothing settles it).
func (u *Uncertainty) trainingToSettle() int {
	if u.Sessions <= 0 || u.SessionsToSettle == 0 || u.Sessions >= u.training {
		return u.SessionsToSettle
	}
	return int(math.Ceil(float64(u.SessionsToSettle) * float64(u.training) / float64(u.Sessions)))
}

// Cell is the table's short form: "before reply 0.0–73.0% vs 0.49% (never-defer)".
func (u *Uncertainty) Cell() string {
	return fmt.Sprintf("%s %s–%s vs %s (%s)", shareLabel[u.Share], strings.TrimSuffix(pct(u.Low), "%"), pct(u.High), pctFine(u.Threshold), u.Alternative)
}

// Sentence is the snippet's and the why's long form.
func (u *Uncertainty) Sentence(conf float64) string {
	s := fmt.Sprintf("uncertain: the %s %s is within [%s, %s] at %.0f%% confidence, either side of the %s %s (%s on the other side)",
		shareNoun[u.Share], pct(u.Observed), pct(u.Low), pct(u.High), conf*100, u.ThresholdName, pctFine(u.Threshold), u.Alternative)
	if u.StakeMs > 0 {
		s += fmt.Sprintf(", up to %s of mean first reply at stake", ms(u.StakeMs))
	}
	switch {
	case u.SessionsToSettle > 0 && u.Sessions < u.training:
		s += fmt.Sprintf("; about %s on versions that serve it would settle it at the share observed (this sample has %d)",
			nouns.Count(u.SessionsToSettle, "training session"), u.Sessions)
	case u.SessionsToSettle > 0:
		s += fmt.Sprintf("; about %s would settle it at the share observed", nouns.Count(u.SessionsToSettle, "training session"))
	default:
		s += "; the share observed sits on the threshold, which no sample settles"
	}
	return s
}

// pctFine is a percentage precise enough for a small threshold.
func pctFine(v float64) string {
	if v > 0 && v < 0.01 {
		return fmt.Sprintf("%.2f%%", v*100)
	}
	return pct(v)
}

// rule is what one tool's decision depends on besides its shares.
type rule struct {
	r         Rules
	tokens    int64
	expensive int64
	roundTrip float64 // ms
	directMs  float64
	directUSD float64
	loadUSD   float64 // one load; deferred $ = use share × loadUSD
	breakEven float64 // before-reply share
	// listRoundTrip and listLoadUSD are the round trip and one load in
	// the mode the proposal runs, which the always-defer rule weighs:
	// under scope always-defer-only its search request sends every schema
	// but the list's (onlyEconomy); else roundTrip and loadUSD.
	listRoundTrip float64
	listLoadUSD   float64
	// local: the tool's server is local (Config.LocalServers): a run never
	// defers it by the budget, so it is direct unless always-deferred.
	local bool
}

// decide is the decision for a before-reply share br, a call share use and
// the evidence for br (brLow: its lower confidence bound; a hypothetical
// true share is its own evidence). The never-defer rule weighs scope
// mcp's round trip and load, the mode its list takes effect in; the
// always-defer rule those of the mode the proposal runs (listRoundTrip,
// listLoadUSD).
func (c *rule) decide(br, use, brLow float64) string {
	gain := br*c.roundTrip - c.directMs
	priced := c.r.USDPerSecond <= 0 || c.r.worth(use*c.loadUSD, br*c.roundTrip) >= c.r.worth(c.directUSD, c.directMs)
	listGain := br*c.listRoundTrip - c.directMs
	listExtraUSD := c.directUSD - use*c.listLoadUSD
	switch {
	case gain > 0 && brLow > c.breakEven && priced && !c.local:
		return neverDefer
	case use <= c.r.Rare && c.tokens >= c.expensive && listExtraUSD > 0 && listGain <= 0:
		return alwaysDefer
	case c.local:
		return localDirect
	}
	return byBudget
}

// point is a before-reply share and a call share.
type point struct{ br, use float64 }

// hypothetical is the decision were the true shares br and use.
func (c *rule) hypothetical(br, use float64) string { return c.decide(br, use, br) }

// uncertainty is nil when the decision would be the same were the true
// before-reply and call shares anywhere in their intervals; otherwise it
// names the share that crosses a threshold, where, and the decision beyond.
// Never-defer needs both shares high, always-defer both low, so the
// decision is the same over the box of intervals iff it is at its low and
// its high corner. A crossing is found by bisection on the two paths from
// the low to the high corner (one share, then the other, in both orders);
// of the crossings next to the decision made, the one that needs the most
// sessions to settle is reported: the decision is settled only when every
// one is. The decision made can differ from the one at the observed shares
// (never-defer wants the lower bound above break-even): the box, not the
// observed point, is what counts.
func (c *rule) uncertainty(a *Assessment, z float64) *Uncertainty {
	low, high := point{a.BeforeReplyLow, a.UseLow}, point{a.BeforeReplyHigh, a.UseHigh}
	if c.hypothetical(low.br, low.use) == a.Decision && c.hypothetical(high.br, high.use) == a.Decision {
		return nil
	}
	var worst, other *Uncertainty
	for _, order := range [][2]string{{shareBeforeReply, shareUse}, {shareUse, shareBeforeReply}} {
		from := low
		for _, share := range order {
			to := from
			if share == shareBeforeReply {
				to.br = high.br
			} else {
				to.use = high.use
			}
			u, below := c.crossing(a, share, from, to, z)
			from = to
			switch {
			case u == nil:
			case below != a.Decision && u.Alternative != a.Decision:
				// Between two other decisions: kept if nothing better.
				if other == nil || settlesLater(u, other) {
					other = u
				}
			default:
				if u.Alternative == a.Decision {
					u.Alternative = below
				}
				if worst == nil || settlesLater(u, worst) {
					worst = u
				}
			}
		}
	}
	if worst == nil {
		worst = other
	}
	if worst != nil && worst.Share == shareBeforeReply {
		// The far bound is on the alternative's side: above the
		// threshold when the alternative needs a higher before-reply
		// share (never-defer above the others, always-defer below them).
		far := worst.Low
		if brRank(worst.Alternative) > brRank(a.Decision) {
			far = worst.High
		}
		rt := c.roundTrip
		if worst.Alternative == alwaysDefer || a.Decision == alwaysDefer {
			rt = c.listRoundTrip
		}
		worst.StakeMs = math.Abs(far*rt - c.directMs)
	}
	return worst
}

// brRank orders the decisions by the before-reply share they need:
// always-defer the lowest, never-defer the highest.
func brRank(decision string) int {
	switch decision {
	case alwaysDefer:
		return 0
	case neverDefer:
		return 2
	}
	return 1
}

// settlesLater reports whether u needs more sessions to settle than v (0:
// never).
func settlesLater(u, v *Uncertainty) bool {
	if v.SessionsToSettle == 0 {
		return false
	}
	return u.SessionsToSettle == 0 || u.SessionsToSettle > v.SessionsToSettle
}

// crossing is where the decision changes when one share moves up from one
// point to another (nil if it does not), found by bisection; below is the
// decision under the crossing, Alternative the one above it.
func (c *rule) crossing(a *Assessment, share string, from, to point, z float64) (u *Uncertainty, below string) {
	below = c.hypothetical(from.br, from.use)
	if c.hypothetical(to.br, to.use) == below {
		return nil, below
	}
	at := func(x float64) point {
		if share == shareBeforeReply {
			return point{x, from.use}
		}
		return point{from.br, x}
	}
	lo, hi := from.br, to.br
	observed, low, high := a.BeforeReplyShare, a.BeforeReplyLow, a.BeforeReplyHigh
	if share == shareUse {
		lo, hi = from.use, to.use
		observed, low, high = a.UseShare, a.UseLow, a.UseHigh
	}
	// below holds at lo, not at hi.
	for range 64 {
		m := (lo + hi) / 2
		if pt := at(m); c.hypothetical(pt.br, pt.use) == below {
			lo = m
		} else {
			hi = m
		}
	}
	pt := at(hi)
	t, name := c.nameThreshold(share, (lo+hi)/2, at)
	u = &Uncertainty{Share: share, Observed: observed, Low: low, High: high, Threshold: t, ThresholdName: name,
		Alternative: c.hypothetical(pt.br, pt.use), SessionsToSettle: sessionsToSettle(observed, t, z)}
	return u, below
}

// nameThreshold says which of the rules' thresholds a crossing found by
// bisection is, and returns its exact value; the crossing itself and "the
// rules' threshold" when none matches.
func (c *rule) nameThreshold(share string, x float64, at func(float64) point) (float64, string) {
	type named struct {
		v    float64
		name string
	}
	var cands []named
	p := at(x)
	switch share {
	case shareBeforeReply:
		cands = append(cands, named{c.breakEven, "break-even share"})
		if c.listRoundTrip != c.roundTrip {
			cands = append(cands, named{c.directMs / c.listRoundTrip, "break-even share in scope always-defer-only"})
		}
		if c.r.USDPerSecond > 0 {
			cands = append(cands, named{(c.directMs + 1000*(c.directUSD-p.use*c.loadUSD)/c.r.USDPerSecond) / c.roundTrip, "--usd-per-second break-even share"})
		}
	case shareUse:
		cands = append(cands, named{c.r.Rare, "--rare share"})
		if c.listLoadUSD > 0 {
			name := "cost break-even share (direct $ / one load's $)"
			if c.listLoadUSD != c.loadUSD {
				name = "cost break-even share in scope always-defer-only (direct $ / one load's $)"
			}
			cands = append(cands, named{c.directUSD / c.listLoadUSD, name})
		}
		if c.r.USDPerSecond > 0 && c.loadUSD > 0 {
			cands = append(cands, named{(c.directUSD - c.r.USDPerSecond*(p.br*c.roundTrip-c.directMs)/1000) / c.loadUSD, "--usd-per-second break-even share"})
		}
	}
	for _, n := range cands {
		if math.Abs(n.v-x) <= 1e-9*max(1, math.Abs(n.v)) {
			return n.v, n.name
		}
	}
	return x, "the rules' threshold"
}

// summarize counts the uncertain decisions and writes the warnings: on
// them, the mode, decisions that did not settle (Unsettled), and a
// proposal no held-out session checks.
func summarize(p *Proposal) {
	p.UncertainDecisions, p.UncertainLeftOut, p.UncertainAboveOnly = 0, 0, 0
	p.Warnings = nil
	settle, last, onThreshold, unserved := 0, "", 0, 0
	// Under scope always-defer-only a decision that cannot join or leave
	// the list sends its tool alike, so it is left out of the count — but
	// only while the mode is settled: when the catalog could be above the
	// budget (ModeUncertain), scope mcp is as likely and such a decision
	// takes effect there, so it is counted (UncertainAboveOnly says how many).
	only := p.Strategy.Scope == sim.ScopeAlwaysDeferOnly
	open := only && p.ModeUncertain()
	for i := range p.Tools {
		a := &p.Tools[i]
		u := a.Uncertainty
		a.UncertainCounted = u != nil && (!only || open || a.listUncertain)
		if u == nil {
			continue
		}
		if !a.UncertainCounted {
			p.UncertainLeftOut++
			continue
		}
		if open && !a.listUncertain {
			p.UncertainAboveOnly++
		}
		p.UncertainDecisions++
		switch n := u.trainingToSettle(); {
		case u.SessionsToSettle > 0 && u.Sessions == 0:
			unserved++
		case n == 0:
			onThreshold++
		case n > settle:
			settle, last = n, toolLabel(p.Tools[i].Key)
		}
	}
	if k := p.UncertainDecisions; k > 0 {
		w := fmt.Sprintf("%d of %s %s uncertain: learnt from %s, the share each rests on could at %.0f%% confidence lie on either side of the threshold its rule compared it with (marked uncertain per tool)",
			k, nouns.Count(len(p.Tools), "decision"), isAre(k), nouns.Count(p.Training, "session"), p.Rules.Confidence*100)
		if settle > 0 {
			w += fmt.Sprintf("; were the shares as observed, about %s (%s recorded, with --test-share %g) would settle %s — %s needs the most",
				nouns.Count(settle, "training session"), recorded(settle, p.TestShare), p.TestShare, settleWhich(k-onThreshold-unserved, k), last)
		}
		if onThreshold > 0 {
			w += fmt.Sprintf("; %d sit on their threshold, which no sample settles", onThreshold)
		}
		if unserved > 0 {
			w += fmt.Sprintf("; %d rest on no session that could call the tool (none of its catalog versions the sessions used serves it): only sessions on a version that serves it settle %s",
				unserved, nouns.Form(unserved, "it", "them"))
		}
		p.Warnings = append(p.Warnings, w+leftOutWords(p)+"; record more sessions before relying on the lists")
	}
	if p.ModeUncertain() {
		p.Warnings = append(p.Warnings, p.Spread.modeWarning(p))
	}
	if p.Unsettled != nil {
		p.Warnings = append(p.Warnings, p.Unsettled.warning())
	}
	if p.HeldOut == 0 {
		w := fmt.Sprintf("no session was held apart for validation (%s, --test-share %g): no replay checked the proposal; ",
			nouns.Count(p.Training, "session"), p.TestShare)
		if p.TestShare == 0 {
			w += "give --test-share above 0 (default 0.3)"
		} else {
			w += fmt.Sprintf("record more sessions (with --test-share %g, about one in %.0f is held out)", p.TestShare, math.Max(1, 1/p.TestShare))
		}
		p.Warnings = append(p.Warnings, w)
	}
}

// recorded is how many sessions to record for n training sessions when a
// share of them is held out.
func recorded(n int, testShare float64) string {
	return fmt.Sprintf("%d", int(math.Ceil(float64(n)/(1-testShare))))
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func settleWhich(settleable, uncertain int) string {
	if settleable == uncertain {
		return "all of them"
	}
	return fmt.Sprintf("%d of them", settleable)
}

// leftOutWords says how many uncertain decisions UncertainDecisions leaves
// out and why: "; 10 more uncertain decisions left out: never-defer or by
// budget whichever side, which scope always-defer-only sends alike (they
// take effect above the budget)"; with the mode uncertain, how many of
// those it counts matter only above the budget; "" when neither.
func leftOutWords(p *Proposal) string {
	if n := p.UncertainAboveOnly; n > 0 {
		return fmt.Sprintf("; %d of them %s only above the budget (never-defer or by budget whichever side, which scope always-defer-only sends alike), which the mode's uncertainty leaves open",
			n, nouns.Form(n, "takes effect", "take effect"))
	}
	n := p.UncertainLeftOut
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d more uncertain %s left out: never-defer or by budget whichever side, which scope always-defer-only sends alike (%s take effect above the budget)",
		n, nouns.Form(n, "decision", "decisions"), nouns.Form(n, "it would", "they would"))
}
