package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// The flags of `defersim run` that defersim-beam does not carry over
// (docs/beam.md, "run's flags"). Those whose only effect is how the replay
// goes, not what it writes, are accepted and ignored, with a note; those
// that change what the run writes are refused before the job starts, so
// that a job moved from `run` never gives another answer silently.

// inapplicable is a flag of run accepted and ignored: why says why.
type inapplicable struct {
	why  string
	set  bool
	bool bool // a boolean flag (takes no value)
}

func (f *inapplicable) String() string { return "" }

func (f *inapplicable) Set(v string) error {
	if f.bool {
		if _, err := strconv.ParseBool(v); err != nil {
			return err
		}
	}
	f.set = true
	return nil
}

// IsBoolFlag lets a boolean flag be given without a value.
func (f *inapplicable) IsBoolFlag() bool { return f.bool }

// runOnly are run's flags and what defersim-beam does with each, by name.
type runOnly struct {
	ignored map[string]*inapplicable
	refused map[string]*inapplicable
}

// registerRunOnly defines run's flags that defersim-beam does not carry
// over on fs.
func registerRunOnly(fs *flag.FlagSet) *runOnly {
	r := &runOnly{ignored: map[string]*inapplicable{}, refused: map[string]*inapplicable{}}
	add := func(m map[string]*inapplicable, name string, isBool bool, why, usage string) {
		f := &inapplicable{why: why, bool: isBool}
		m[name] = f
		fs.Var(f, name, usage)
	}
	add(r.ignored, "workers", false,
		"the runner decides how many sessions are replayed at once (its workers and their threads; on Dataflow --max_num_workers); results do not depend on it",
		"not applicable: the runner decides the parallelism (accepted and ignored, with a note)")
	add(r.ignored, "checkpoint-every", false,
		"a Beam job keeps no checkpoint (an interrupted job is run again; the runner retries failed work); results do not depend on it",
		"not applicable: a Beam job keeps no checkpoint (accepted and ignored, with a note)")
	add(r.ignored, "memory-limit", false,
		"the runner's workers are separate processes whose memory the runner sizes (on Dataflow the worker machine type, on Flink the task managers); GOMEMLIMIT in the workers' environment sets a Go soft limit there; results do not depend on it",
		"not applicable: the runner sizes its workers' memory (accepted and ignored, with a note)")
	add(r.refused, "shard", false,
		"the runner spreads the sessions over its workers and writes one results.json; for shard.bin files use defersim run --shard and defersim merge",
		"not supported (refused): the runner spreads the work")
	add(r.refused, "resume", false,
		"a Beam job keeps no checkpoint to resume: run the job again",
		"not supported (refused): a Beam job keeps no checkpoint")
	add(r.refused, "sessions-csv", true,
		"sessions.csv needs every session's values in one place; use defersim run --sessions-csv",
		"not supported (refused): needs every session's values in one place")
	add(r.refused, "per-request", false,
		"the per-request file needs every fidelity pair in one place; use defersim run --per-request",
		"not supported (refused): needs every fidelity pair in one place")
	add(r.refused, "json", true,
		"use --format json (run's --json is a deprecated alias of it)",
		"not supported (refused): use --format json")
	return r
}

// check refuses a refused flag that was given, naming it and why, and
// writes a note for each ignored one on notes (nil: no notes).
func (r *runOnly) check(notes io.Writer) error {
	for _, name := range sortedNames(r.refused) {
		if f := r.refused[name]; f.set {
			return fmt.Errorf("--%s is not supported by defersim-beam: %s", name, f.why)
		}
	}
	if notes == nil {
		return nil
	}
	for _, name := range sortedNames(r.ignored) {
		if f := r.ignored[name]; f.set {
			fmt.Fprintf(notes, "defersim-beam: note: --%s is ignored: %s\n", name, f.why)
		}
	}
	return nil
}

func sortedNames(m map[string]*inapplicable) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
