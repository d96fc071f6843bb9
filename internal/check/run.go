package check

import (
	"fmt"
	"strings"
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
}

// Run reads both files, checks they can be compared, and compares them.
// The error is an *Incomparable when the files cannot be compared.
func Run(cfg Config) (*Report, error) {
	base, cur, err := readPair(cfg.BaselinePath, cfg.CurrentPath)
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
	rep := &Report{BaselinePath: cfg.BaselinePath, CurrentPath: cfg.CurrentPath}
	if base.Run.ScenarioFingerprint != cur.Run.ScenarioFingerprint {
		rep.Notes = append(rep.Notes, "policy change allowed: "+strings.Join(scenarioDifferences(base, cur), ", "))
	}
	if cfg.Allow.Traces && inputDiff(base, cur, "trace") != "" {
		rep.Notes = append(rep.Notes, "different trace files allowed: the runs replay different sessions")
	}
	noise := cfg.Noise
	switch noise {
	case "", NoiseAuto:
		noise = NoiseCI
		if inputDiff(base, cur, "trace") == "" && base.Run.Seed == cur.Run.Seed {
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
	rep.Summary = summarize(rep.Rows)
	rep.CatalogChanges = catalogChanges(base, cur)
	rep.Diff = structuralDiff(base, cur)
	return rep, nil
}
