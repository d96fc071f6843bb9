package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/defersim/defersim/sim"
)

// runPart is one part of a run's description two state files of one run
// share: its name in messages, the two values compared, and how to show
// them (nil: the name alone).
type runPart struct {
	name string
	x, y any
	show func(x, y any) string
}

// sameRun explains how f and o differ as runs ("" when they do not),
// naming the most specific part that differs with its two values — the
// defersim build that wrote them first, since another build may differ in
// any other part —: a seed
// given with --seed changes the scenario's fingerprint too, and is named
// as the seed. Inputs are compared by content: the same files at other
// paths are the same run. Summary options (--exact-sessions,
// --per-request) are compared when both files hold a state.
func (f *StateFile) sameRun(o *StateFile) string {
	return runDiff(f, o, summaryOf(f), summaryOf(o))
}

// summaryOf is f's summary options (nil when f holds no state).
func summaryOf(f *StateFile) *sim.SummaryOptions {
	if f.State == nil {
		return nil
	}
	return &f.State.Options
}

// runDiff is sameRun with the two runs' summary options given (nil: not
// compared).
func runDiff(f, o *StateFile, fo, oo *sim.SummaryOptions) string {
	if f.Build != o.Build {
		return fmt.Sprintf("defersim build (%s and %s)", f.Build, o.Build)
	}
	if d := inputsDiff(f.Info.Inputs, o.Info.Inputs); d != "" {
		return d
	}
	if fo != nil && oo != nil {
		if d := summaryDiff(*fo, *oo); d != "" {
			return d
		}
	}
	a, b := f.key(), o.key()
	parts := []runPart{
		{"seed", a.Info.Seed, b.Info.Seed, plain},
		{"strategies", strategyNames(a.Strategies), strategyNames(b.Strategies), plain},
		{"baseline", a.Info.Baseline, b.Info.Baseline, plain},
	}
	if len(a.Strategies) == len(b.Strategies) {
		for i := range a.Strategies {
			parts = append(parts, runPart{"the parameters of strategy " + a.Strategies[i].Name, a.Strategies[i], b.Strategies[i], nil})
		}
	}
	parts = append(parts,
		runPart{"--bootstrap", a.Bootstrap, b.Bootstrap, resampleCounts},
		runPart{"--skip-bad", a.SkipBad, b.SkipBad, onOff},
		runPart{"--max-unresolved", a.MaxUnresolved, b.MaxUnresolved, plain},
		runPart{"--allow-unresolved", a.AllowUnresolved, b.AllowUnresolved, onOff},
		runPart{"model", a.Info.Model, b.Info.Model, plain},
		runPart{"tokenizer", a.Info.Tokenizer, b.Info.Tokenizer, plain},
		runPart{"cache model", a.Info.CacheModel, b.Info.CacheModel, plain},
		runPart{"prices", a.Prices, b.Prices, nil},
		runPart{"fidelity strategy", a.FidelityStrategy, b.FidelityStrategy, plain},
	)
	if d := assumptionsDiff(a.Info.Assumptions, b.Info.Assumptions); d != "" {
		parts = append(parts, runPart{d, 0, 1, nil})
	}
	info := func(k runKey) sim.RunInfo {
		i := k.Info
		i.Scenario, i.ScenarioFingerprint, i.FingerprintExceptServers, i.Servers = "", "", "", nil
		return i
	}
	parts = append(parts,
		runPart{"model and assumptions", info(a), info(b), nil},
		runPart{"scenario", a.Info.Scenario, b.Info.Scenario, plain},
		runPart{"scenario contents", a.Info.ScenarioFingerprint, b.Info.ScenarioFingerprint, fingerprints},
	)
	if fo != nil && oo != nil {
		parts = append(parts, runPart{"summary options", *fo, *oo, func(x, y any) string { return fmt.Sprintf("%+v and %+v", x, y) }})
	}
	for _, p := range parts {
		x, _ := json.Marshal(p.x)
		y, _ := json.Marshal(p.y)
		if bytes.Equal(x, y) {
			continue
		}
		if p.show == nil {
			return p.name
		}
		return p.name + " (" + p.show(p.x, p.y) + ")"
	}
	return ""
}

// summaryDiff names the flag that set the option of the run's summary
// that differs between a and b ("" when none does, or when the options
// that differ follow from other parts: the seed, the baseline).
func summaryDiff(a, b sim.SummaryOptions) string {
	exact := func(n int) string {
		if n <= 0 {
			return "every session"
		}
		return fmt.Sprint(n)
	}
	pairs := func(n int) string {
		if n <= 0 {
			return "on"
		}
		return "off"
	}
	switch {
	case a == b:
		return ""
	case a.ExactSessions != b.ExactSessions:
		return fmt.Sprintf("--exact-sessions (%s and %s; --sessions-csv keeps every session)", exact(a.ExactSessions), exact(b.ExactSessions))
	case (a.FidelityPairs <= 0) != (b.FidelityPairs <= 0):
		return fmt.Sprintf("--per-request (%s and %s)", pairs(a.FidelityPairs), pairs(b.FidelityPairs))
	}
	return "" // the others follow from the seed, baseline and build: compared last
}

// assumptionsDiff names the first assumption a and b hold with other
// values, or that one holds alone ("" when none).
func assumptionsDiff(a, b []sim.Assumption) string {
	value := func(list []sim.Assumption, name string) (string, bool) {
		for _, x := range list {
			if x.Name == name {
				return x.Value, true
			}
		}
		return "", false
	}
	for _, x := range a {
		switch v, ok := value(b, x.Name); {
		case !ok:
			return fmt.Sprintf("assumption %s (%q and none)", x.Name, x.Value)
		case v != x.Value:
			return fmt.Sprintf("assumption %s (%q and %q)", x.Name, x.Value, v)
		}
	}
	for _, y := range b {
		if _, ok := value(a, y.Name); !ok {
			return fmt.Sprintf("assumption %s (none and %q)", y.Name, y.Value)
		}
	}
	return ""
}

func plain(x, y any) string { return fmt.Sprintf("%v and %v", x, y) }

func onOff(x, y any) string {
	s := func(v any) string {
		if v == true {
			return "on"
		}
		return "off"
	}
	return s(x) + " and " + s(y)
}

// fingerprints shows two scenario fingerprints by their first 12 digits.
func fingerprints(x, y any) string {
	s := func(v any) string {
		t, _ := v.(string)
		if len(t) > 12 {
			t = t[:12] + "…"
		}
		if t == "" {
			return "none"
		}
		return t
	}
	return "fingerprints " + s(x) + " and " + s(y)
}

func strategyNames(ss []sim.Strategy) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Name
	}
	return strings.Join(names, ",")
}

// resampleCounts shows two resamples() values (-1: none).
func resampleCounts(x, y any) string {
	s := func(v any) string {
		if v == -1 {
			return "none"
		}
		return fmt.Sprint(v)
	}
	return s(x) + " and " + s(y)
}
