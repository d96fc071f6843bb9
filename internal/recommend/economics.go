package recommend

import (
	"fmt"
	"math"
	"strconv"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// Economy holds the figures the rules price with: the scenario's model and
// params, the deferral mechanics (injection) and the sessions' shape
// measured by an eager replay of the training sessions.
type Economy struct {
	Model     sim.Model
	Params    sim.Params
	Injection string
	// CacheLayout is the base's cache_layout ("" the cache's own).
	CacheLayout string
	// Requests is the mean number of model requests per session; FirstPrompt
	// the mean prompt tokens of a session's first request and MeanPrompt of
	// any request, both under eager (every schema sent).
	Requests    float64
	FirstPrompt float64
	MeanPrompt  float64
	// SearchOutput is the output tokens of one tool_search call.
	SearchOutput float64
	// DeferredSchema is the schema tokens that leave the prompt when the
	// deferrable tools are deferred (subtracted from the prompts above).
	DeferredSchema float64
	// Directory is the directory block deferred mode (scope mcp) adds to
	// every request, as a run renders and counts it in the base's
	// DirectoryFormat (sim.Engine.DirectoryTokens; 0 under none): the
	// search request and each load send it (added to the prompts above).
	Directory       int64
	DirectoryFormat string
	// scope is the deferred mode these figures price: sim.ScopeMCP (""),
	// or sim.ScopeAlwaysDeferOnly (onlyEconomy).
	scope string
}

// RoundTripMs is the first-reply time one search round trip adds when a
// cold tool is needed before the first reply: an extra request that
// prefills the whole (deferred-mode) prompt uncached — it is the session's
// first — plus the search call's decode and execution; under inline
// injection the real request then reads from the cache what the model's
// cache model reads there in a replay (RoundTripRead) instead of
// prefilling it again.
func (e *Economy) RoundTripMs() float64 {
	lat := e.Model.Latency
	p := e.roundTripPrompt()
	ms := lat.OverheadMs + p/lat.PrefillTPS*1000 + e.SearchOutput/lat.DecodeTPS*1000 + e.Params.SearchExecMs
	if read := e.RoundTripRead(); read > 0 {
		// The share of the (mean, fractional) prompt read.
		r := p * float64(read) / math.Max(math.Round(p), 1)
		ms -= r/lat.PrefillTPS*1000 - r/lat.CachedPrefillTPS*1000
	}
	return ms
}

// roundTripPrompt is the prompt of the round trip's search request: the
// first prompt without the deferred schemas, with what deferred mode adds
// (modeTokens).
func (e *Economy) roundTripPrompt() float64 {
	return max(e.FirstPrompt-e.DeferredSchema, 0) + e.modeTokens()
}

// modeTokens is what deferred mode adds to every request: the tool_search
// definition and the directory.
func (e *Economy) modeTokens() float64 {
	return float64(e.Params.SearchToolCount() + e.Directory)
}

// RoundTripRead is how many tokens of the search request's prompt the real
// request that follows it reads from the prompt cache: none under
// tools-array injection (the load changed tools[], before everything
// else); under inline injection what the model's cache model reads in a
// replay (sim.Model.FollowUpRead) — nothing under cache.kind none or for a
// prompt below cache.min_tokens. The base's cache_layout places the
// breakpoints.
func (e *Economy) RoundTripRead() int64 {
	if e.Injection != sim.InjectInline {
		return 0
	}
	read, err := e.Model.FollowUpRead(e.CacheLayout, int64(math.Round(e.roundTripPrompt())), 0, int64(e.SearchOutput))
	if err != nil {
		return 0 // the model's cache was validated when the scenario was loaded (Run checks again)
	}
	return read
}

// RoundTripCache says what RoundTripMs assumed about the prompt cache,
// naming the prompt it means: the search request's (searchPrompt).
func (e *Economy) RoundTripCache() string {
	p := int64(math.Round(e.roundTripPrompt()))
	c := e.Model.Cache
	read := e.RoundTripRead()
	sp := e.searchPrompt()
	switch {
	case e.Injection != sim.InjectInline:
		return fmt.Sprintf("%s injection: the load changes tools[], so the real request prefills %s again", e.Injection, sp)
	case read > 0:
		return fmt.Sprintf("the real request reads %d tokens of %s from the %s cache", read, sp, c.Kind)
	case c.Kind == sim.CacheNone:
		return fmt.Sprintf("cache.kind %s: the real request prefills %s again", c.Kind, sp)
	case p < c.MinTokens:
		return fmt.Sprintf("%s is below cache.min_tokens %d: nothing is cached, the real request prefills it again", sp, c.MinTokens)
	}
	return fmt.Sprintf("the %s cache keeps no prefix of %s for the real request: it prefills it again", c.Kind, sp)
}

// searchPrompt names the round trip's prompt and says what it is made of:
// "the search request's 1774-token prompt (the first prompt less the 2019
// deferred schema tokens, plus the 87-token tool_search definition and the
// base's names directory, 70 tokens)" — not the first prompt of the text
// report's header, which sends every schema.
func (e *Economy) searchPrompt() string {
	dir := ""
	if e.DirectoryFormat != "" || e.Directory > 0 {
		dir = " and " + directoryWords(e.DirectoryFormat, e.Directory)
	}
	return fmt.Sprintf("the search request's %.0f-token prompt (the first prompt less the %.0f deferred schema tokens, plus the %d-token tool_search definition%s)",
		e.roundTripPrompt(), min(e.DeferredSchema, e.FirstPrompt), e.Params.SearchToolCount(), dir)
}

// DirectFirstMs is the first-reply time a direct schema of tokens costs:
// its prefill in the session's first, uncached request.
func (e *Economy) DirectFirstMs(tokens float64) float64 {
	return tokens / e.Model.Latency.PrefillTPS * 1000
}

// prices is what a schema token at the start of a prompt of prompt tokens
// costs, as a multiple of the input price, on a session's first request
// and on its later ones, as the engine bills it (sim.Model.PrefixPrice):
// the cache multipliers only where the model's cache writes or reads the
// prompt; the input price under cache.kind none or below cache.min_tokens.
func (e *Economy) prices(prompt float64) (first, later float64) {
	first, later, err := e.Model.PrefixPrice(e.CacheLayout, int64(math.Round(prompt)), 0, int64(e.SearchOutput))
	if err != nil {
		return 1, 1 // the model's cache was validated when the scenario was loaded (Run checks again)
	}
	return first, later
}

// perToken is the dollars one schema token in tools[] costs per session
// (the first prompt with every schema direct): priced on the first request
// and on the others as the engine bills them (prices).
func (e *Economy) perToken() float64 {
	first, later := e.prices(e.FirstPrompt)
	return (first + max(e.Requests-1, 0)*later) * e.Model.Pricing.InputPerMTok / 1e6
}

// DirectUSD is the per-session cost of keeping a schema of tokens direct.
func (e *Economy) DirectUSD(tokens float64) float64 { return tokens * e.perToken() }

// loadPrompt is the mean prompt of a request in deferred mode: the mean
// prompt without the deferred schemas, with what deferred mode adds
// (modeTokens).
func (e *Economy) loadPrompt() float64 {
	return max(e.MeanPrompt-e.DeferredSchema, 0) + e.modeTokens()
}

// LoadUSD is the cost of loading a deferred schema of tokens once: the
// search request reads the prompt from the cache and outputs the search
// call; under tools-array injection the next request re-writes the prompt
// after tools[] (the load changed it); the loaded schema is then written
// and read for the rest of the session (half of it on average). Reads and
// writes are priced as the engine bills them (prices): at the input price
// where the model's cache neither reads nor writes.
func (e *Economy) LoadUSD(tokens float64) float64 {
	in, out := e.Model.Pricing.InputPerMTok/1e6, e.Model.Pricing.OutputPerMTok/1e6
	p := e.loadPrompt()
	first, later := e.prices(p)
	usd := p*later*in + e.SearchOutput*out
	if e.Injection != sim.InjectInline {
		usd += p * max(first-later, 0) * in
	}
	usd += tokens * (first + max(e.Requests/2-1, 0)*later) * in
	return usd
}

// PriceCache says what the dollars assumed about the prompt cache: the
// multiple of the input price a schema token costs on a session's first
// request and on the others.
func (e *Economy) PriceCache() string {
	first, later := e.prices(e.FirstPrompt)
	c := e.Model.Cache
	why := fmt.Sprintf("the %s cache", c.Kind)
	switch {
	case c.Kind == sim.CacheNone:
		why = "cache.kind none: nothing is cached"
	case first == 1 && later == 1 && int64(math.Round(e.FirstPrompt)) < c.MinTokens:
		why = fmt.Sprintf("below cache.min_tokens %d: nothing is cached", c.MinTokens)
	}
	return fmt.Sprintf("a schema token costs %s× the input price on the first request, %s× on the others (%s)", mult(first), mult(later), why)
}

// CacheAssumption is what the proposal assumed about the prompt cache: of
// the round trip (RoundTripCache), then of the dollars (PriceCache).
func (e *Economy) CacheAssumption() string {
	return e.RoundTripCache() + "; dollars: " + e.PriceCache()
}

func mult(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Rules are the thresholds of the decisions (docs/recommend.md).
type Rules struct {
	// Confidence of the shares' Wilson bounds, each one-sided, in (0.5, 1).
	// The never-defer evidence: the share of sessions needing the tool
	// before the first reply must exceed the break-even share (direct
	// prefill time / round trip) at it, so a few sessions' accident does
	// not count. A decision whose bounds straddle its threshold is
	// uncertain (Assessment.Uncertainty).
	Confidence float64
	// USDPerSecond, when positive, prices first-reply time: a tool is then
	// kept direct only if the time it saves is worth the extra dollars
	// keeping it direct costs (0 = time alone decides).
	USDPerSecond float64
	// Rare is the call share at or below which a tool may be always-deferred.
	Rare float64
	// Expensive is the schema size at or above which a tool may be
	// always-deferred (0 = the 75th percentile of the catalog's tools).
	Expensive int64
}

// worth is usd dollars and ms of mean first reply as one figure, the time
// priced at --usd-per-second (USDPerSecond); dollars alone without the
// flag. The never-defer rule (rule.decide), the always-defer-only
// decision (onlyPays) and the budget (priceBudget, budgetFor) weigh their
// two sides with it.
func (r Rules) worth(usd, ms float64) float64 {
	if r.USDPerSecond <= 0 {
		return usd
	}
	return usd + r.USDPerSecond*ms/1000
}

// DefaultRules are the documented defaults.
func DefaultRules() Rules { return Rules{Confidence: 0.95, Rare: 0.05} }

// Decisions a tool can get.
const (
	neverDefer  = "never-defer"
	alwaysDefer = "always-defer"
	byBudget    = "by budget"
	// localDirect: the tool's server is local (Config.LocalServers), whose
	// tools a run sends whatever the budget; only always_defer defers them.
	localDirect = "local, direct"
)

// direct reports whether a run of the proposal sends the tool's schema
// whatever the budget: never-deferred, or a local server's and not
// always-deferred.
func (a *Assessment) direct() bool { return a.Decision == neverDefer || a.Decision == localDirect }

// Assessment is one tool's figures and the decision they lead to.
type Assessment struct {
	Key toolKey `json:"tool"`
	// Sessions is how many training sessions could call it (Usage.Served):
	// the shares below are of these. Training is every training session.
	Sessions int `json:"sessions"`
	Training int `json:"-"`
	// Shares of the training sessions that could call it.
	OpenShare        float64 `json:"open_share"`
	UseShare         float64 `json:"use_share"`
	FirstTurnShare   float64 `json:"first_turn_share"`
	BeforeReplyShare float64 `json:"before_first_reply_share"`
	CallsPerSession  float64 `json:"calls_per_session"`
	Schema           Schema  `json:"schema"`
	// DeferMs: mean first-reply time deferring it adds (before-reply share ×
	// round trip); DirectMs: mean first-reply time its direct schema costs.
	DeferMs  float64 `json:"defer_first_reply_ms"`
	DirectMs float64 `json:"direct_first_reply_ms"`
	// DirectUSD: per-session cost of keeping it direct; DeferUSD: expected
	// per-session cost of loading it when needed (use share × load).
	DirectUSD float64 `json:"direct_usd"`
	DeferUSD  float64 `json:"defer_usd"`
	// ModeDeferMs and ModeDeferUSD are DeferMs and DeferUSD in the mode the
	// proposal runs (Proposal.ListScope), which the always-defer rule
	// weighs: under scope always-defer-only the search request and the
	// loads send every schema but the always-defer list's (onlyEconomy);
	// under scope mcp they equal DeferMs and DeferUSD, which the
	// never-defer rule and the budget weigh.
	ModeDeferMs  float64 `json:"mode_defer_first_reply_ms"`
	ModeDeferUSD float64 `json:"mode_defer_usd"`
	// loadUSD is one load's $ (DeferUSD at a call share of 1), which the
	// budget's bounds price the call shares' bounds with (BudgetSpread).
	loadUSD float64
	// BreakEvenShare is the before-reply share at which deferring and
	// keeping direct cost the same first-reply time; BeforeReplyLow and
	// BeforeReplyHigh the confidence bounds of the observed share, UseLow
	// and UseHigh of the call share (Wilson, each one-sided at
	// Rules.Confidence).
	BreakEvenShare  float64 `json:"break_even_share"`
	BeforeReplyLow  float64 `json:"before_first_reply_low"`
	BeforeReplyHigh float64 `json:"before_first_reply_high"`
	UseLow          float64 `json:"use_share_low"`
	UseHigh         float64 `json:"use_share_high"`
	Decision        string  `json:"decision"`
	Why             string  `json:"why"`
	// Uncertain: the shares' bounds straddle a threshold of the decision,
	// which Uncertainty describes (docs/recommend.md, small samples).
	Uncertain   bool         `json:"uncertain"`
	Uncertainty *Uncertainty `json:"uncertainty,omitempty"`
	// UncertainCounted: the decision is uncertain in a way that could
	// change a run of the proposal's mode, and Proposal.UncertainDecisions
	// counts it (summarize). Under scope always-defer-only only the
	// always-defer list is deferred, so only a decision that could join or
	// leave it counts (listUncertain); never-defer against by budget sends
	// the tool alike there.
	UncertainCounted bool `json:"uncertain_counted"`
	// listUncertain: the tool could be always-deferred, and could be not,
	// at shares within their bounds (the decision made included).
	listUncertain bool
}

// GainMs is the mean first-reply time keeping the tool direct saves.
func (a *Assessment) GainMs() float64 { return a.DeferMs - a.DirectMs }

// assess applies the rules to one tool: the never-defer rule priced with
// e (scope mcp's figures, the mode its list takes effect in), the
// always-defer rule with list (the mode the proposal runs: e itself, or
// scope always-defer-only's, onlyEconomy).
//
// sessions is how many training sessions could call it (Usage.Served), the
// denominator of its shares and their bounds; training is every training
// session.
func assess(e, list *Economy, r Rules, expensive int64, k toolKey, u *toolUsage, sessions, training int, sc Schema, local bool) Assessment {
	n := float64(max(sessions, 1))
	a := Assessment{Key: k, Schema: sc, Sessions: sessions, Training: training}
	if u != nil {
		a.OpenShare = float64(u.Opens) / n
		a.UseShare = float64(u.Uses) / n
		a.FirstTurnShare = float64(u.FirstTurn) / n
		a.BeforeReplyShare = float64(u.BeforeReply) / n
		a.CallsPerSession = float64(u.Calls) / n
	}
	t := float64(sc.Tokens)
	c := rule{r: r, tokens: sc.Tokens, expensive: expensive, roundTrip: e.RoundTripMs(), directMs: e.DirectFirstMs(t), directUSD: e.DirectUSD(t), loadUSD: e.LoadUSD(t), local: local,
		listRoundTrip: list.RoundTripMs(), listLoadUSD: list.LoadUSD(t)}
	a.DeferMs = a.BeforeReplyShare * c.roundTrip
	a.DirectMs = c.directMs
	a.DirectUSD = c.directUSD
	a.DeferUSD = a.UseShare * c.loadUSD
	a.ModeDeferMs = a.BeforeReplyShare * c.listRoundTrip
	a.ModeDeferUSD = a.UseShare * c.listLoadUSD
	a.loadUSD = c.loadUSD
	needed, used := 0, 0
	if u != nil {
		needed, used = u.BeforeReply, u.Uses
	}
	c.breakEven = a.DirectMs / c.roundTrip
	a.BreakEvenShare = c.breakEven
	a.BeforeReplyLow, a.BeforeReplyHigh = wilson(needed, sessions, r.Confidence)
	a.UseLow, a.UseHigh = wilson(used, sessions, r.Confidence)
	a.Decision = c.decide(a.BeforeReplyShare, a.UseShare, a.BeforeReplyLow)
	switch a.Decision {
	case neverDefer:
		a.Why = fmt.Sprintf("needed before the first reply in %s of sessions (>= %s at %.0f%% confidence; break-even %s): deferred it adds %s to the mean first reply, its direct schema %s; direct %s vs deferred %s per session",
			pct(a.BeforeReplyShare), pct(a.BeforeReplyLow), r.Confidence*100, pct(a.BreakEvenShare), ms(a.DeferMs), ms(a.DirectMs), usd(a.DirectUSD), usd(a.DeferUSD))
	case alwaysDefer:
		in := ""
		if list.scope == sim.ScopeAlwaysDeferOnly {
			in = " in scope always-defer-only"
		}
		a.Why = fmt.Sprintf("%d-token schema %s: direct %s vs deferred %s per session%s, no first-reply cost",
			sc.Tokens, calledIn(a.UseShare, sessions), usd(a.DirectUSD), usd(a.ModeDeferUSD), in)
	case localDirect:
		used := calledIn(a.UseShare, sessions)
		if sessions > 0 {
			used += ", " + pct(a.BeforeReplyShare) + " before the first reply"
		}
		a.Why = fmt.Sprintf("server %s is local (servers.%s.local): a run sends its schema whatever the budget, and only always_defer defers it; %s; direct %s vs deferred %s per session",
			k.Server, k.Server, used, usd(a.DirectUSD), usd(a.DeferUSD))
	default:
		a.Why = fmt.Sprintf("%s, %s before the first reply; direct %s vs deferred %s per session",
			calledIn(a.UseShare, sessions), pct(a.BeforeReplyShare), usd(a.DirectUSD), usd(a.DeferUSD))
		if sessions == 0 {
			a.Why = fmt.Sprintf("%s; direct %s vs deferred %s per session", calledIn(a.UseShare, sessions), usd(a.DirectUSD), usd(a.DeferUSD))
		}
	}
	switch {
	case sessions == 0:
		a.Why += fmt.Sprintf("; no training session could call it (none of the %d is replayed on a catalog version that serves it): its shares are of no session, a decision on no evidence", training)
	case sessions < training:
		a.Why += fmt.Sprintf("; its shares are of the %d of %s whose catalog versions serve it", sessions, nouns.Count(training, "training session"))
	}
	if a.Uncertainty = c.uncertainty(&a, normalQuantile(r.Confidence)); a.Uncertainty != nil {
		a.Uncertainty.Sessions, a.Uncertainty.training = sessions, training
		a.Uncertain = true
		a.Why += "; " + a.Uncertainty.Sentence(r.Confidence)
		// The always-defer region is a down-set of the two shares (it
		// wants both low, never-defer both high): the low corner is in it
		// if any point is, the high corner out of it if any point is.
		in := a.Decision == alwaysDefer || c.hypothetical(a.BeforeReplyLow, a.UseLow) == alwaysDefer
		out := a.Decision != alwaysDefer || c.hypothetical(a.BeforeReplyHigh, a.UseHigh) != alwaysDefer
		a.listUncertain = in && out
	}
	return a
}

// calledIn says how often a tool is called: a share of the sessions that
// could call it, or, when none could, that it was never called (not "0.0%
// of sessions", a share of no session).
func calledIn(share float64, sessions int) string {
	if sessions == 0 {
		return "never called"
	}
	return "called in " + pct(share) + " of sessions"
}

// normalQuantile is the standard normal quantile (Acklam's rational
// approximation, relative error below 1.2e-9), for p in (0, 1).
func normalQuantile(p float64) float64 {
	if p <= 0 || p >= 1 {
		return math.NaN()
	}
	a := [6]float64{-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00}
	b := [5]float64{-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01}
	c := [6]float64{-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00}
	d := [4]float64{7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00}
	const lo = 0.02425
	switch {
	case p < lo:
		q := math.Sqrt(-2 * math.Log(p))
		return (((((c[0]*q+c[1])*q+c[2])*q+c[3])*q+c[4])*q + c[5]) / ((((d[0]*q+d[1])*q+d[2])*q+d[3])*q + 1)
	case p > 1-lo:
		q := math.Sqrt(-2 * math.Log(1-p))
		return -(((((c[0]*q+c[1])*q+c[2])*q+c[3])*q+c[4])*q + c[5]) / ((((d[0]*q+d[1])*q+d[2])*q+d[3])*q + 1)
	}
	q := p - 0.5
	r := q * q
	return (((((a[0]*r+a[1])*r+a[2])*r+a[3])*r+a[4])*r + a[5]) * q / (((((b[0]*r+b[1])*r+b[2])*r+b[3])*r+b[4])*r + 1)
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", v*100) }
func ms(v float64) string  { return fmt.Sprintf("%.0f ms", v) }
func usd(v float64) string { return fmt.Sprintf("$%.5f", v) }
