package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// ModelFinding is the finding recordedModelFinding gives for run: sweep
// notes it once for its points, which share their traces and model.
func ModelFinding(run *sim.RunInfo) string { return recordedModelFinding(run) }

// recordedModelFinding says, when replayed sessions record a model other
// than the run's, how many and which (up to five), and that they are
// priced and timed as the run's model; when none does but some record no
// model at all, how many of them the run priced and timed as its model,
// which they do not name.
func recordedModelFinding(run *sim.RunInfo) string {
	other, total, list := OtherModels(run.RecordedModels, run.OtherModels)
	if other == 0 {
		if none := WithoutModel(run.RecordedModels); none > 0 {
			return fmt.Sprintf("%s of %s %s no model; they are priced and timed as %s (the scenario's model: its prices, prompt cache and latency), which they do not name (results.json sessions_without_model). To price them as the model they ran with, replay them with --model and its preset, or under a scenario whose model: names it.",
				fmtInt(float64(none)), fmtNoun(total, "session"), nouns.Form(none, "records", "record"), run.Model)
		}
		return ""
	}
	one, apart := ReplayApart(run.RecordedModels, run.OtherModels, other, total)
	them := "a model's sessions"
	if one {
		them = "them"
	}
	return fmt.Sprintf("%s of %s %s recorded with another model than the run's (%s); they are priced and timed as %s (the scenario's model: its prices, prompt cache and latency), not as recorded. To see %s as recorded, replay them%s %s.",
		fmtInt(float64(other)), fmtNoun(total, "session"), nouns.Form(other, "was", "were"), list, run.Model,
		them, apart, ReplayAs(run.RecordedModels))
}

// ReplayApart says how a note speaks of the other sessions of
// OtherModels(models, beyond) = other, total: one is true when they are
// one model's (a vendor's spellings of a preset counted as one), so "them"
// rather than "a model's sessions"; apart is " apart" when they are to be
// replayed apart from the rest (several models, or other < total: sessions
// of the priced model, or recording none), else "". The run's note and
// recommend's share it: both said "apart" of sessions that were all one
// model's.
func ReplayApart(models []sim.RecordedModel, beyond *sim.OtherModels, other, total int64) (one bool, apart string) {
	n := otherModelCount(models, beyond)
	if n > 1 || other < total {
		apart = " apart"
	}
	return n <= 1, apart
}

// otherModelCount counts the models of models (runner.RecordedModels;
// beyond, runner.OtherModels, may be nil) other than the run's, a vendor's
// spellings of one preset as one model (presets.ResolveModel); the
// sessions of names beyond the ones kept count as one more model at least.
func otherModelCount(models []sim.RecordedModel, beyond *sim.OtherModels) int {
	seen := map[string]bool{}
	for _, m := range models {
		if m.Model == "" || m.Scenario {
			continue
		}
		key := strings.TrimSpace(m.Model)
		if p, ok := presets.ResolveModel(m.Model); ok {
			key = p
		}
		seen[key] = true
	}
	n := len(seen)
	if beyond != nil && beyond.Sessions > beyond.Scenario {
		n++
	}
	return n
}

// ReplayAs says how to replay the sessions of the recorded models that are
// not the run's under their own: with --model and the preset each resolves
// to (presets.ResolveModel: "gpt-4o-2024-08-06" is gpt-4o), up to five, the
// most sessions first, one model at a time when several; a model no preset
// holds only under a scenario whose model: describes it.
func ReplayAs(models []sim.RecordedModel) string {
	var flags []string
	unknown := false
	for _, m := range models {
		if m.Model == "" || m.Scenario {
			continue
		}
		p, ok := presets.ResolveModel(m.Model)
		switch {
		case !ok:
			unknown = true
		case !slices.Contains(flags, "--model "+p):
			flags = append(flags, "--model "+p)
		}
	}
	const scenario = "under a scenario whose model: names it"
	switch {
	case len(flags) == 0:
		return scenario
	case len(flags) > maxModelFlags:
		flags = append(flags[:maxModelFlags], "…")
	}
	out := "with " + nouns.Or(flags)
	if len(flags) > 1 {
		out += ", one model's sessions at a time"
	}
	if unknown {
		return out + ", and the models no preset holds " + scenario
	}
	return out + " (or " + scenario + ")"
}

// maxModelFlags bounds the --model suggestions ReplayAs lists, as the
// recorded models' list names five.
const maxModelFlags = 5

// WithoutModel counts the sessions of models (runner.RecordedModels) that
// record no model: a run, plan and recommend price and time them as the
// scenario's model, which they do not name.
func WithoutModel(models []sim.RecordedModel) int64 {
	var n int64
	for _, m := range models {
		if m.Model == "" {
			n += m.Sessions
		}
	}
	return n
}

// OtherModels counts the sessions of models (runner.RecordedModels, the
// most sessions first; beyond, runner.OtherModels, the sessions of names
// past the ones kept, may be nil) recorded with another model than the one
// they are priced as, and of all, and lists those models with their
// sessions, up to five then how many more, then the sessions of names
// beyond the ones kept, then how many sessions record no model
// (`"gpt-4.1-mini" in 50, … (2 more models); 3 record no model`). other is
// 0 when every session that names a model names that one.
func OtherModels(models []sim.RecordedModel, beyond *sim.OtherModels) (other, total int64, list string) {
	var none int64
	var names []string
	for _, m := range models {
		total += m.Sessions
		switch {
		case m.Model == "":
			none += m.Sessions
		case !m.Scenario:
			other += m.Sessions
			names = append(names, fmt.Sprintf("%q in %s", m.Model, fmtInt(float64(m.Sessions))))
		}
	}
	var past int64
	if beyond != nil {
		total += beyond.Sessions
		past = beyond.Sessions - beyond.Scenario
		other += past
	}
	var parts []string
	if len(names) > 0 {
		l := strings.Join(names[:min(len(names), 5)], ", ")
		if more := len(names) - 5; more > 0 {
			l += fmt.Sprintf(", … (%d more models)", more)
		}
		parts = append(parts, l)
	}
	if past > 0 {
		parts = append(parts, fmt.Sprintf("%s with models beyond the first %d names (bytewise), counted together: run.recorded_models_other",
			fmtInt(float64(past)), beyond.Names))
	}
	list = strings.Join(parts, "; ")
	if none > 0 {
		if list != "" {
			list += "; "
		}
		list += fmt.Sprintf("%s record no model", fmtInt(float64(none)))
	}
	return other, total, list
}
