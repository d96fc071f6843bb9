package calibrate

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/sim"
)

// UnresolvedError refuses to calibrate a model group when more than
// Limit — by default sim.DefaultMaxUnresolved, the share at which
// `defersim run` stops — of its fit or held-out sessions' tool calls do
// not resolve against the catalogs. The recorded prompts carried those
// tools' definitions and the replay cannot send them: the fitted prompt
// overhead would absorb them (and count them twice once a catalog that
// serves them is given), and the latency fit would time prompts without
// them.
type UnresolvedError struct {
	Fit, HeldOut *sim.Resolution
	// Limit is the share refused above; Given is true when
	// --max-unresolved set it (Config.MaxUnresolved).
	Limit float64
	Given bool
}

func (e *UnresolvedError) Error() string {
	var parts []string
	for _, x := range []struct {
		r     *sim.Resolution
		whose string
	}{{e.Fit, "fitted"}, {e.HeldOut, "held-out"}} {
		if overLimit(x.r, e.Limit) {
			parts = append(parts, unresolvedCount(x.r, x.whose))
		}
	}
	limit := fmt.Sprintf("the %s at which a run stops (docs/engine.md §9)", sim.SharePercent(e.Limit))
	if e.Given {
		limit = fmt.Sprintf("the %s --max-unresolved %g allows", sim.SharePercent(e.Limit), e.Limit)
	}
	return fmt.Sprintf("%s do not resolve against the catalogs, more than %s: "+
		"the recorded prompts carried these tools' definitions and the replay cannot send them, so the fitted request_overhead_tokens "+
		"(where usage is recorded) would absorb them (and count them again once a catalog that serves them is given) and the latency fit would time prompts without them. "+
		"Pass the catalogs that serve these tools (--catalogs); or allow a larger share with --max-unresolved SHARE (a share of the calls: 0.05 = 5%%), "+
		"or calibrate whatever the share with --allow-unresolved (the fit then says what absorbed them); nothing was written",
		strings.Join(parts, ", and "), limit)
}

// overLimit reports whether more than limit of r's calls do not resolve.
func overLimit(r *sim.Resolution, limit float64) bool {
	return r != nil && r.UnresolvedShare() > limit
}

// unresolvedRefusal returns an UnresolvedError for a group whose fit or
// held-out calls do not resolve beyond the configured share, unless the
// configuration allows it.
func unresolvedRefusal(cfg *Config, mf *ModelFit) error {
	limit := cfg.maxUnresolved()
	if cfg.AllowUnresolved || (!overLimit(mf.FitResolution, limit) && !overLimit(mf.Resolution, limit)) {
		return nil
	}
	return &UnresolvedError{Fit: mf.FitResolution, HeldOut: mf.Resolution, Limit: limit, Given: cfg.MaxUnresolved != nil}
}

// unresolvedCount says how many of the whose sessions' tool calls do not
// resolve, and the three most called of their tools.
func unresolvedCount(r *sim.Resolution, whose string) string {
	names := topUnresolved(r)
	more := ""
	if n := r.Distinct(unresolvedClasses()...); n > len(names) {
		more = fmt.Sprintf(", … (%d tools in all)", n)
	}
	return fmt.Sprintf("%d of the %s sessions' %d tool calls (%.1f%%: %s%s)",
		r.Unresolved(), whose, r.Calls, 100*r.UnresolvedShare(), strings.Join(names, ", "), more)
}

// absorbedNote says, for a group calibrated although more of its fitted
// sessions' calls than a run accepts by default (sim.DefaultMaxUnresolved)
// do not resolve — with --allow-unresolved, or under a larger
// --max-unresolved — what absorbed the definitions the replay could not
// send: how many tokens they held per request is not known without their
// schemas ("" when nothing did).
func absorbedNote(cfg *Config, mf *ModelFit) string {
	r := mf.FitResolution
	if !overLimit(r, sim.DefaultMaxUnresolved) || (mf.Overhead == nil && mf.Latency == nil) {
		return ""
	}
	how := "--allow-unresolved"
	if !cfg.AllowUnresolved && cfg.MaxUnresolved != nil {
		how = fmt.Sprintf("--max-unresolved %g", *cfg.MaxUnresolved)
	}
	n := r.Distinct(sim.ClassUnknownTool, sim.ClassUnknownServer, sim.ClassVersionMissing)
	what := "the latency fit timed the recorded prompts without them"
	if mf.Overhead != nil {
		what = fmt.Sprintf("the fitted request_overhead_tokens %d (with tool_overhead_tokens %d) absorbed them, however many prompt tokens per request they held "+
			"(not known without their schemas): a run of this scenario with a catalog that serves them counts them a second time, so calibrate again with that catalog",
			mf.Params.RequestOverheadTokens, mf.Params.ToolOverheadTokens)
	}
	return fmt.Sprintf("calibrated with %s: %s do not resolve against the catalogs; the recorded prompts carried the definitions of these %d tools, "+
		"which the replay could not send, and %s", how, unresolvedCount(r, "fitted"), n, what)
}

// unresolvedClasses are the resolution classes of calls that do not
// resolve (sim.Resolution.Unresolved).
func unresolvedClasses() []string {
	return []string{sim.ClassUnknownTool, sim.ClassUnknownServer, sim.ClassVersionMissing}
}

// topUnresolved names the three tools most called among those that do not
// resolve, each with its calls ("server/tool 12").
func topUnresolved(r *sim.Resolution) []string {
	var names []string
	for _, t := range r.Top(3, unresolvedClasses()...) {
		names = append(names, fmt.Sprintf("%s %d", sim.ToolLabel(t.Server, t.Tool), t.Calls))
	}
	return names
}
