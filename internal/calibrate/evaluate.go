package calibrate

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/defersim/defersim/sim"
)

// Evaluation judges a latency model on the held-out sessions: per request
// (relative error of each prediction) and as distributions (two-sample
// Kolmogorov–Smirnov distance between predicted and recorded times), for
// request times and for first replies.
type Evaluation struct {
	Sessions int `json:"sessions"`
	// Per-request error of the calibrated model (deterministic: no jitter)
	// and of the scenario's latency.
	Requests       ErrorSummary `json:"requests"`
	RequestsBefore ErrorSummary `json:"requests_before"`
	// By request kind: answering a user message, or a tool result.
	AfterUser ErrorSummary `json:"after_user"`
	AfterTool ErrorSummary `json:"after_tool"`
	// ByKind: by request kind (sim.RequestKind), the kinds present in order.
	ByKind []KindErrors `json:"by_kind"`
	// TTFT: error of the predicted time to first token, where recorded.
	TTFT      *ErrorSummary `json:"ttft,omitempty"`
	Residuals Residuals     `json:"residuals_ms"`
	RSquared  float64       `json:"r_squared"`
	// RSquaredLog: R² of log times (the fit's own scale).
	RSquaredLog float64 `json:"r_squared_log"`
	// Worst: the requests whose error is at least the p90 error, by kind:
	// what the p90 figure is made of.
	Worst []KindCount `json:"worst_tenth_by_kind"`
	// WorstSessions: the same requests by session, most first (ties by
	// id): one session holding most of them is where to look first (an
	// outlier, a loop, another client).
	WorstSessions []SessionCount `json:"worst_tenth_by_session"`
	// KS distances of request times: deterministic predictions, with the
	// fitted jitter (seeded draws), and the scenario's latency.
	RequestKS       float64 `json:"request_ks"`
	RequestKSJitter float64 `json:"request_ks_jitter"`
	RequestKSBefore float64 `json:"request_ks_before"`
	// First replies (sessions whose recording times one): per-session error
	// and KS distance, deterministic, with jitter and before.
	FirstReply         ErrorSummary `json:"first_reply"`
	FirstReplyBefore   ErrorSummary `json:"first_reply_before"`
	FirstReplyKS       float64      `json:"first_reply_ks"`
	FirstReplyKSJitter float64      `json:"first_reply_ks_jitter"`
	FirstReplyKSBefore float64      `json:"first_reply_ks_before"`
	// FirstReplyContradicted counts the held-out sessions whose first
	// reply is not compared because its recorded times contradict each
	// other (firstReplyContradicted).
	FirstReplyContradicted int `json:"first_reply_times_contradict,omitempty"`
	// InSample is the per-request error of the latency formula fitted on
	// the held-out requests themselves, to the error reported here (least
	// absolute relative error, every request equal, rates positive): about
	// the best any choice of its four parameters does on these requests.
	// Near Requests: the fit transfers and the rest of the variance is not
	// in the token counts; far below: the fit set differs from these.
	InSample *ErrorSummary `json:"in_sample,omitempty"`
	// Replayed is the per-request error of the held-out sessions replayed
	// with the written latency when it jitters (--jitter): each request's
	// time is then a seeded draw, and this is what `defersim run` of the
	// written scenario reports as its latency fidelity. Nil when the
	// written latency is deterministic (Requests is then that figure).
	Replayed *ReplayedErrors `json:"replayed_with_jitter,omitempty"`
}

// ReplayedErrors is a per-request latency error as the engine's fidelity
// reports it (sim.Fidelity): how many requests, median and p90 of
// |simulated − recorded| / recorded.
type ReplayedErrors struct {
	Requests     int     `json:"requests"`
	MedianAbsRel float64 `json:"median_abs_rel_err"`
	P90AbsRel    float64 `json:"p90_abs_rel_err"`
}

// KindErrors is the per-request error on the held-out requests of one kind.
type KindErrors struct {
	Kind string `json:"kind"`
	ErrorSummary
}

// SessionCount counts requests of one session.
type SessionCount struct {
	Session  string `json:"session"`
	Requests int    `json:"requests"`
}

// KindCount counts requests of one kind.
type KindCount struct {
	Kind     string `json:"kind"`
	Requests int    `json:"requests"`
}

// firstReplySims are the simulated first replies of the held-out sessions
// under three latency models, by session id.
type firstReplySims struct{ det, jitter, before map[string]float64 }

// evaluate measures lat (deterministic), lat with jitterCV and the
// scenario's latency on the held-out rows and sessions.
func evaluate(rows []latencyRow, sessions []SessionRec, lat, scen sim.Latency, jitter float64, fr firstReplySims, seed int64) *Evaluation {
	var held []latencyRow
	for _, r := range rows {
		if r.role == HeldOut {
			held = append(held, r)
		}
	}
	ev := &Evaluation{Sessions: countSessions(held)}
	if len(held) == 0 {
		return ev
	}
	pred, rec := predictions(lat, held)
	ev.Requests = summarizeErrors(pred, rec)
	ev.Residuals = residualQuantiles(pred, rec)
	ev.RSquared = rSquared(pred, rec)
	ev.RSquaredLog = rSquaredLog(pred, rec)
	before, _ := predictions(scen, held)
	ev.RequestsBefore = summarizeErrors(before, rec)
	var pu, ru, pt, rt, tp, tr []float64
	for i, r := range held {
		if r.afterUser {
			pu, ru = append(pu, pred[i]), append(ru, rec[i])
		} else {
			pt, rt = append(pt, pred[i]), append(rt, rec[i])
		}
		if r.ttft > 0 {
			tp, tr = append(tp, predictTTFT(lat, r)), append(tr, r.ttft)
		}
	}
	ev.AfterUser, ev.AfterTool = summarizeErrors(pu, ru), summarizeErrors(pt, rt)
	for _, k := range kindsIn(held) {
		var p, r []float64
		for i, h := range held {
			if h.kind == k {
				p, r = append(p, pred[i]), append(r, rec[i])
			}
		}
		ev.ByKind = append(ev.ByKind, KindErrors{Kind: k.String(), ErrorSummary: summarizeErrors(p, r)})
	}
	var worst [sim.NumRequestKinds]int
	bySession := map[string]int{}
	for i, h := range held {
		if math.Abs(pred[i]-rec[i])/rec[i] >= ev.Requests.P90AbsRel {
			worst[h.kind]++
			bySession[h.session]++
		}
	}
	for id, n := range bySession {
		ev.WorstSessions = append(ev.WorstSessions, SessionCount{Session: id, Requests: n})
	}
	sort.Slice(ev.WorstSessions, func(i, j int) bool {
		a, b := ev.WorstSessions[i], ev.WorstSessions[j]
		return a.Requests > b.Requests || a.Requests == b.Requests && a.Session < b.Session
	})
	for _, k := range sim.RequestKinds() {
		if worst[k] > 0 {
			ev.Worst = append(ev.Worst, KindCount{Kind: k.String(), Requests: worst[k]})
		}
	}
	sort.SliceStable(ev.Worst, func(i, j int) bool { return ev.Worst[i].Requests > ev.Worst[j].Requests })
	if len(tp) > 0 {
		s := summarizeErrors(tp, tr)
		ev.TTFT = &s
	}
	ev.RequestKS = ksDistance(pred, rec)
	ev.RequestKSBefore = ksDistance(before, rec)
	ev.RequestKSJitter = ksDistance(jittered(pred, jitter, seed), rec)

	var frRec, frDet, frJit, frBefore []float64
	for _, s := range sessions {
		if s.Role == HeldOut && s.FirstReplyMs == firstReplyContradicted {
			ev.FirstReplyContradicted++
		}
		if s.Role != HeldOut || s.FirstReplyMs <= 0 {
			continue
		}
		d, ok := fr.det[s.ID]
		if !ok {
			continue
		}
		frRec = append(frRec, s.FirstReplyMs)
		frDet = append(frDet, d)
		frJit = append(frJit, fr.jitter[s.ID])
		frBefore = append(frBefore, fr.before[s.ID])
	}
	if len(frRec) > 0 {
		ev.FirstReply = summarizeErrors(frDet, frRec)
		ev.FirstReplyBefore = summarizeErrors(frBefore, frRec)
		ev.FirstReplyKS = ksDistance(frDet, frRec)
		ev.FirstReplyKSJitter = ksDistance(frJit, frRec)
		ev.FirstReplyKSBefore = ksDistance(frBefore, frRec)
	}
	return ev
}

// jittered multiplies each prediction by a median-one lognormal factor
// with coefficient of variation cv, from a seeded source: the engine's draw
// (mean one) on the latency withJitter writes.
func jittered(pred []float64, cv float64, seed int64) []float64 {
	out := append([]float64(nil), pred...)
	if cv <= 0 {
		return out
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x6a6974746572))
	sigma := math.Sqrt(math.Log(1 + cv*cv))
	for i := range out {
		out[i] *= math.Exp(r.NormFloat64() * sigma)
	}
	return out
}

// ksDistance is the two-sample Kolmogorov–Smirnov statistic: the largest
// vertical distance between the empirical distribution functions of a and
// b (0 = identical, 1 = disjoint).
func ksDistance(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return math.NaN()
	}
	x := append([]float64(nil), a...)
	y := append([]float64(nil), b...)
	sort.Float64s(x)
	sort.Float64s(y)
	var i, j int
	var d float64
	for i < len(x) && j < len(y) {
		v := math.Min(x[i], y[j])
		for i < len(x) && x[i] <= v {
			i++
		}
		for j < len(y) && y[j] <= v {
			j++
		}
		d = math.Max(d, math.Abs(float64(i)/float64(len(x))-float64(j)/float64(len(y))))
	}
	return d
}

// bestInSample fits the latency formula (with an intercept per request
// kind when kinds) on the held-out rows themselves by least absolute
// relative error (bounded like the calibration) and returns its error
// there (nil when it cannot be fitted).
func bestInSample(rows []latencyRow, kinds bool) *ErrorSummary {
	var held []latencyRow
	for _, r := range rows {
		if r.role == HeldOut && r.ms > 0 {
			held = append(held, r)
		}
	}
	var d design
	if kinds {
		d.kinds = kindsIn(held)
	}
	var x [][]float64
	var y []float64
	for _, r := range held {
		xi := make([]float64, d.width())
		for j := range xi {
			xi[j] = d.col(r, j) / r.ms
		}
		x, y = append(x, xi), append(y, 1)
	}
	// Columns that are zero everywhere (no cache reads) drop out.
	var keep []int
	for j := range d.width() {
		for _, xi := range x {
			if xi[j] != 0 {
				keep = append(keep, j)
				break
			}
		}
	}
	if len(held) < 5 || len(keep) == 0 {
		return nil
	}
	xk := make([][]float64, len(x))
	lower := make([]float64, len(keep))
	for k, j := range keep {
		if j >= d.intercepts() {
			lower[k] = 1000 / MaxRateTPS
		}
	}
	for i, xi := range x {
		for _, j := range keep {
			xk[i] = append(xk[i], xi[j])
		}
	}
	reg, err := FitBounded(xk, y, nil, lower, LAD)
	if err != nil {
		return nil
	}
	pred := make([]float64, len(held))
	rec := make([]float64, len(held))
	for i, r := range held {
		for k, j := range keep {
			pred[i] += reg.Beta[k] * d.col(r, j)
		}
		rec[i] = r.ms
	}
	s := summarizeErrors(pred, rec)
	return &s
}
