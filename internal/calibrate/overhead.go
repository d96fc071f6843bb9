package calibrate

import (
	"fmt"
	"math"

	"github.com/defersim/defersim/sim"
)

// OverheadFit is the fitted prompt overhead: tokens the recorded prompts
// held that the trace does not carry.
type OverheadFit struct {
	FitSessions int `json:"fit_sessions"`
	FitRequests int `json:"fit_requests"`
	// Fitted parameters (scenario params keys).
	RequestOverheadTokens int64 `json:"request_overhead_tokens"`
	MessageOverheadTokens int64 `json:"message_overhead_tokens"`
	ToolOverheadTokens    int64 `json:"tool_overhead_tokens"`
	// TokenScale is params.token_scale for a model whose tokenizer is a
	// stand-in (0 for any other): fitted when TokenScaleFitted, else the
	// scenario's, kept (a note says why).
	TokenScale       float64 `json:"token_scale,omitzero"`
	TokenScaleFitted bool    `json:"token_scale_fitted,omitzero"`
	// TokenScaleHalfWidth is the half-width of the fitted scale's 95%
	// interval (of the estimate before it is rounded to TokenScaleStep;
	// the interval's larger side), from the profile, rounded to TokenScaleHalfWidthPlaces as
	// the text prints it.
	TokenScaleHalfWidth float64 `json:"token_scale_ci95_half_width,omitzero"`
	// TokenScaleLow and TokenScaleHigh bound that interval, rounded as
	// the half-width; the interval need not be symmetric, and the
	// half-width is its larger side.
	TokenScaleLow  float64 `json:"token_scale_ci95_low,omitzero"`
	TokenScaleHigh float64 `json:"token_scale_ci95_high,omitzero"`
	// Notes say how each parameter was decided when it was not a free fit.
	Notes []string `json:"notes,omitempty"`
	// Residuals of recorded − simulated prompt tokens on the fit set.
	FitResiduals Residuals `json:"fit_residuals_tokens"`
	// Held-out error before (the scenario's params) and after, from the
	// engine's fidelity pairs.
	Before *sim.Fidelity `json:"held_out_before,omitempty"`
	After  *sim.Fidelity `json:"held_out_after,omitempty"`
	// KS distance between the simulated and recorded prompt sizes of the
	// held-out requests, after and before.
	HeldOutKS       float64 `json:"held_out_ks"`
	HeldOutKSBefore float64 `json:"held_out_ks_before"`
	// HeldOutSessions counts the held-out sessions with a request that
	// records usage: the sessions the held-out errors come from.
	HeldOutSessions int `json:"held_out_sessions"`
	// scaleReplays counts the fit sessions' replays the token_scale fit
	// took at grid scales (scaleFit.Replays; 0 when it was not fitted).
	scaleReplays int
}

// heldOutUsageSessions counts the held-out sessions of reqs with a request
// that records usage.
func heldOutUsageSessions(reqs []Request) int {
	seen := map[string]bool{}
	for i := range reqs {
		if r := &reqs[i]; r.Role == HeldOut && r.HasUsage {
			seen[r.Session] = true
		}
	}
	return len(seen)
}

// promptKS is the KS distance between simulated (under the params reqs
// were collected with) and recorded prompt sizes of the held-out requests
// with usage.
func promptKS(reqs []Request) float64 {
	var sim, rec []float64
	for i := range reqs {
		if r := &reqs[i]; r.Role == HeldOut && r.HasUsage && r.RecordedInput() > 0 {
			sim = append(sim, float64(r.SimUncached+r.SimRead))
			rec = append(rec, float64(r.RecordedInput()))
		}
	}
	return ksDistance(sim, rec)
}

// Apply returns p with the fitted overheads.
func (f *OverheadFit) Apply(p sim.Params) sim.Params {
	p.RequestOverheadTokens = f.RequestOverheadTokens
	p.MessageOverheadTokens = f.MessageOverheadTokens
	p.ToolOverheadTokens = f.ToolOverheadTokens
	if f.TokenScaleFitted {
		p.TokenScale = f.TokenScale
	}
	return p
}

// fitOverhead fits recorded − Sim0 ≈ request + message·MsgUnits +
// tool·ToolUnits on the fit requests with recorded usage. A column that
// does not vary (every request shows the same tools) cannot be told from
// the per-request constant: its coefficient keeps the scenario's value and
// the constant takes the rest. Negative slopes are fixed at zero; every
// value is rounded to whole tokens and the constant refitted after. With
// scale (the model's tokenizer is a stand-in), params.token_scale is
// fitted first, jointly with them (fitTokenScale), and the overheads are
// fitted on what the rounded scale leaves.
func fitOverhead(reqs []Request, params sim.Params, loss Loss, scale bool, replay scaleReplay) (*OverheadFit, error) {
	var rows []*Request
	for i := range reqs {
		if r := &reqs[i]; r.Fit() && r.HasUsage && r.RecordedInput() > 0 {
			rows = append(rows, r)
		}
	}
	if len(rows) < 3 {
		return nil, fmt.Errorf("prompt overhead: %d fit requests with recorded usage (need 3 or more)", len(rows))
	}
	f := &OverheadFit{FitSessions: sessionsOf(rows), FitRequests: len(rows)}
	y := make([]float64, len(rows))
	msg := make([]float64, len(rows))
	tool := make([]float64, len(rows))
	for i, r := range rows {
		y[i] = float64(r.RecordedInput() - r.Sim0)
		msg[i] = float64(r.MsgUnits)
		tool[i] = float64(r.ToolUnits)
	}
	fitMsg := variance(msg) > 0
	fitTool := variance(tool) > 0
	m, t := float64(params.MessageOverheadTokens), float64(params.ToolOverheadTokens)
	if !fitTool {
		f.Notes = append(f.Notes, fmt.Sprintf("tool_overhead_tokens cannot be fitted: every request showed the same %g tool definitions, so their framing cannot be told from the per-request constant (the scenario's %d is kept unless the constant needs less)", tool[0], params.ToolOverheadTokens))
	}
	if !fitMsg {
		f.Notes = append(f.Notes, "message_overhead_tokens kept: the message count does not vary")
	}
	// scaled[i] is what the fitted token_scale adds to Sim0 (0 unless
	// fitted).
	scaled := make([]float64, len(rows))
	if scale {
		s0 := params.TokenScale
		sf, err := fitTokenScale(rows, y, msg, tool, fitMsg, fitTool, s0, loss, replay)
		if err != nil {
			return nil, err
		}
		f.TokenScale, f.scaleReplays = sf.Scale, sf.Replays
		if sf.Note != "" {
			f.Notes = append(f.Notes, sf.Note)
		} else {
			f.TokenScaleFitted = true
			f.TokenScaleHalfWidth, f.TokenScaleLow, f.TokenScaleHigh = sf.Half, sf.Lo, sf.Hi
			f.Notes = append(f.Notes, fitScaleNote(sf))
			for i := range rows {
				scaled[i] = sf.Added[i]
				y[i] -= scaled[i]
			}
		}
	}
	for range 3 {
		var cols [][]float64
		var names []string
		if fitMsg {
			cols, names = append(cols, msg), append(names, "message")
		}
		if fitTool {
			cols, names = append(cols, tool), append(names, "tool")
		}
		x := make([][]float64, len(rows))
		yy := make([]float64, len(rows))
		for i := range rows {
			x[i] = []float64{1}
			for _, c := range cols {
				x[i] = append(x[i], c[i])
			}
			yy[i] = y[i]
			if !fitMsg {
				yy[i] -= m * msg[i]
			}
			if !fitTool {
				yy[i] -= t * tool[i]
			}
		}
		reg, err := Fit(x, yy, loss)
		if err != nil {
			return nil, fmt.Errorf("prompt overhead: %w", err)
		}
		again := false
		for j, name := range names {
			v := reg.Beta[j+1]
			if v < 0 {
				f.Notes = append(f.Notes, fmt.Sprintf("%s_overhead_tokens fitted negative (%.2f): fixed at 0", name, v))
				if name == "message" {
					fitMsg, m = false, 0
				} else {
					fitTool, t = false, 0
				}
				again = true
			} else if name == "message" {
				m = v
			} else {
				t = v
			}
		}
		if !again {
			break
		}
	}
	f.MessageOverheadTokens = int64(math.Round(m))
	f.ToolOverheadTokens = int64(math.Round(t))
	// Refit the constant with the rounded slopes.
	x := make([][]float64, len(rows))
	yy := make([]float64, len(rows))
	for i := range rows {
		x[i] = []float64{1}
		yy[i] = y[i] - float64(f.MessageOverheadTokens)*msg[i] - float64(f.ToolOverheadTokens)*tool[i]
	}
	reg, err := Fit(x, yy, loss)
	if err != nil {
		return nil, fmt.Errorf("prompt overhead: %w", err)
	}
	c := math.Round(reg.Beta[0])
	if c < 0 && !fitTool && f.ToolOverheadTokens > 0 && tool[0] > 0 {
		// The constant and the (constant) tool framing share one number:
		// lower the tool framing before giving up.
		total := c + float64(f.ToolOverheadTokens)*tool[0]
		t2 := max(0, math.Floor(total/tool[0]))
		f.Notes = append(f.Notes, fmt.Sprintf("the per-request constant came out %.0f with tool_overhead_tokens %d: tool framing lowered to %.0f so that the two together give the fitted %.0f tokens",
			c, f.ToolOverheadTokens, t2, total))
		f.ToolOverheadTokens = int64(t2)
		c = total - t2*tool[0]
	}
	if c < 0 {
		f.Notes = append(f.Notes, fmt.Sprintf("request_overhead_tokens fitted negative (%.0f): fixed at 0 — the replay counts more than was recorded (another tokenizer, or a system prompt longer than the one sent)", c))
		c = 0
	}
	f.RequestOverheadTokens = int64(c)
	pred := make([]float64, len(rows))
	rec := make([]float64, len(rows))
	for i, r := range rows {
		rec[i] = float64(r.RecordedInput())
		pred[i] = float64(r.Sim0) + scaled[i] + c + float64(f.MessageOverheadTokens)*msg[i] + float64(f.ToolOverheadTokens)*tool[i]
	}
	f.FitResiduals = residualQuantiles(pred, rec)
	return f, nil
}

// worseNote is a warning when the fitted overhead does worse on the
// held-out sessions than the starting params (median |error| higher): the
// fit does not transfer, so the fitted and the held-out sessions differ.
func (o *OverheadFit) worseNote() string {
	if o.Before == nil || o.After == nil || o.After.InputMedianAbsRelErr <= o.Before.InputMedianAbsRelErr {
		return ""
	}
	return fmt.Sprintf("the fitted prompt overhead does worse on the held-out sessions than the scenario's "+
		"(median |error| %s against %s): the fitted sessions' prompts differ from the held-out ones' "+
		"(another system prompt, tool set or client?); the fitted values are written, check them before use",
		pct(o.After.InputMedianAbsRelErr), pct(o.Before.InputMedianAbsRelErr))
}

// fitScaleNote is the note of a fitted token_scale: its 95% interval as
// "± half" when symmetric, else as its bounds.
func fitScaleNote(sf scaleFit) string {
	ci := fmt.Sprintf("%g ± %.3f (95%%, rounded to %g)", sf.Scale, sf.Half, TokenScaleStep)
	if !sf.Symmetric {
		ci = fmt.Sprintf("%g (95%%: %.3f to %.3f around %.3f, rounded to %g)", sf.Scale, sf.Lo, sf.Hi, sf.Estimate, TokenScaleStep)
	}
	return "token_scale fitted with the overheads: " + ci + "; the stand-in tokenizer's counts times it match the recorded usage" + sf.cappedNote()
}
