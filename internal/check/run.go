package check

import (
	"fmt"
	"os"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
)

// Config is one `defersim check` invocation.
type Config struct {
	BaselinePath string
	CurrentPath  string
	// Rules in force (DefaultRules when nil).
	Rules []Rule
	// Strategies limits the check to these names (nil = every strategy).
	Strategies []string
	Allow      Allow
	// Noise is NoiseAuto (when empty), NoiseCI or NoisePaired.
	Noise string
	// ReadFile reads a results file (nil = os.ReadFile); the CLI reads "-"
	// from stdin through it.
	ReadFile func(path string) ([]byte, error)
}

// Run reads both files, checks they can be compared, and compares them.
// The error is an *Incomparable when the files cannot be compared.
func Run(cfg Config) (*Report, error) {
	read := cfg.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	base, cur, err := readPair(cfg.BaselinePath, cfg.CurrentPath, read)
	if err != nil {
		return nil, err
	}
	if inc := checkComparable(base, cur, cfg.Strategies, cfg.Allow); inc != nil {
		return nil, inc
	}
	rules := cfg.Rules
	if rules == nil {
		rules = defaultRules()
	}
	rep := &Report{BaselinePath: cfg.BaselinePath, CurrentPath: cfg.CurrentPath, Baseline: fileInfo(base), Current: fileInfo(cur)}
	rep.Warnings = append(versionWarnings(base, cur), unresolvedWarnings(base, cur)...)
	rep.Warnings = append(rep.Warnings, overflowWarnings(base, cur, cfg.Strategies)...)
	rep.Warnings = append(rep.Warnings, recommendedForWarnings(cur, cfg.Strategies)...)
	rep.Unreplayed, rep.AllowUnreplayed = unreplayedChanges(base, cur), cfg.Allow.Unreplayed
	for _, u := range rep.Unreplayed {
		rep.Warnings = append(rep.Warnings, unreplayedWarning(u, cfg.Allow.Unreplayed))
	}
	if base.Run.ScenarioFingerprint != cur.Run.ScenarioFingerprint {
		if !serversOnly(base, cur) {
			diffs, _ := scenarioDiffsBesideServers(base, cur)
			var words []string
			for _, d := range diffs {
				words = append(words, d.text())
			}
			rep.Notes = append(rep.Notes, "policy change allowed: "+strings.Join(words, ", "))
		}
		if ch := serverChanges(base, cur); len(ch) > 0 {
			rep.Notes = append(rep.Notes, "servers change allowed: "+strings.Join(ch, "; "))
		}
	}
	sameTraces := inputDiff(base, cur, "trace") == ""
	sameSessions := sameTraces && sessionsDiff(base, cur) == ""
	switch {
	case cfg.Allow.Traces && !sameTraces:
		rep.Notes = append(rep.Notes, "different trace files allowed: the runs replay different sessions")
	case cfg.Allow.Traces && !sameSessions:
		rep.Notes = append(rep.Notes, "different session sets allowed: "+sessionsDiff(base, cur))
	case sameSessions && base.Run.Shard != nil && cur.Run.Shard != nil:
		rep.Notes = append(rep.Notes, fmt.Sprintf("both files are of shard %s of their runs: the same sessions", base.Run.Shard))
	case sameSessions && partial(base):
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("both runs replayed %d of the %s they read (a shard's share each): "+
			"the comparison is paired only if it is the same shard of each run", base.Sessions, nouns.Count(base.Run.Counts.SessionsRead, "session")))
	}
	noise := cfg.Noise
	switch noise {
	case "", NoiseAuto:
		noise = NoiseCI
		if sameSessions && base.Run.Seed == cur.Run.Seed {
			noise = NoisePaired
		}
	case NoiseCI, NoisePaired:
	default:
		return nil, fmt.Errorf("noise model %q: want auto, ci or paired", cfg.Noise)
	}
	if noise == NoisePaired {
		rep.Notes = append(rep.Notes, "paired: both runs replayed the same trace files with the same seed, so their confidence intervals (session sampling) are shared and tolerances alone decide")
	} else {
		rep.Notes = append(rep.Notes, "independent samples: a worsening must exceed both the tolerance and the combined half-widths of the two runs' 95% intervals")
	}
	rep.Rows = compare(base, cur, rules, Options{Strategies: cfg.Strategies, Noise: noise})
	rep.Warnings = append(rep.Warnings, unfailableWarnings(base, rep.Rows)...)
	rep.Summary = summarize(rep.Rows)
	rep.CatalogChanges = catalogChanges(base, cur)
	rep.Changes = structuralDiff(base, cur)
	return rep, nil
}

// versionWarnings warns when the two files were written by different
// builds: a changed engine changes numbers by itself.
func versionWarnings(base, cur *report.Results) []string {
	name := func(v string) string {
		if v == "" {
			return "an unrecorded version"
		}
		return v
	}
	var out []string
	if base.GeneratorVersion != cur.GeneratorVersion {
		out = append(out, fmt.Sprintf("the files were written by different defersim versions (baseline %s, current %s): differences may come from defersim itself, not from the change under test",
			name(base.GeneratorVersion), name(cur.GeneratorVersion)))
	}
	if base.GoVersion != cur.GoVersion {
		out = append(out, fmt.Sprintf("the files were written by defersim builds of different Go versions (baseline %s, current %s)",
			name(base.GoVersion), name(cur.GoVersion)))
	}
	return out
}

// unresolvedWarnings warns when a run replayed although more of its calls
// than its limit did not resolve (--allow-unresolved): those tools are in
// neither file's numbers, so no check sees what they cost or how the
// change under test moves them.
func unresolvedWarnings(base, cur *report.Results) []string {
	const tail = ", so no check sees what they cost or how the change moves them"
	b, c := report.UnresolvedPastLimit(base), report.UnresolvedPastLimit(cur)
	switch {
	case b != "" && b == c:
		return []string{"both runs: " + b + tail}
	case b != "" && c != "":
		return []string{"baseline: " + b + tail, "current: " + c + tail}
	case b != "":
		return []string{"baseline: " + b + tail}
	case c != "":
		return []string{"current: " + c + tail}
	}
	return nil
}
