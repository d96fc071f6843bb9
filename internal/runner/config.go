// Package runner executes a replay end to end: it loads catalogs and
// traces, builds the engine, replays every session under every strategy,
// and summarises the outcomes into results; it also owns the default set of
// components a run can name (DefaultRegistry) and the run's checkpoint and
// shard files. The CLI only parses flags and calls it.
package runner

import (
	"io/fs"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// Source is one input file, on disk or in an fs.FS (the embedded default).
type Source struct {
	// Path names the file in messages and results.
	Path string
	// FS, when set, holds the file under Name; otherwise Path is opened.
	FS   fs.FS
	Name string
	// spool, when set, holds the bytes of a source that cannot be read
	// twice (see Rereadable).
	spool *spooled
}

// Config is a fully resolved run.
type Config struct {
	Scenario            string
	ScenarioFingerprint string
	// FingerprintExceptServers and Servers are the scenario's fingerprint
	// without its servers block and that block (sim.RunInfo's fields of
	// those names; "" and nil without a servers block).
	FingerprintExceptServers string
	Servers                  []sim.ScenarioServer
	Seed                     int64
	Baseline                 string
	Strategies               []sim.Strategy
	Model                    sim.Model
	// ModelPreset names the preset Model was built from ("" for a model
	// written out in full): the assumptions say whose latency defaults the
	// run used, whatever the model is called.
	ModelPreset string
	Params      sim.Params
	Traces      []Source
	// Catalogs are directories or files (or an fs.FS directory).
	Catalogs []Source
	// CatalogsFrom says where Catalogs come from, in words, for the
	// results' assumptions ("" = the scenario).
	CatalogsFrom string
	// SRD lists the user's routing descriptions (files or directories) the
	// routed search modes and the by-domain directory read; empty: the
	// embedded set. Ignored when Registry is set.
	SRD []string
	// SRDFiles, when set, are the files SRD stands for, already read by the
	// caller through another filesystem (the Beam pipeline reads URLs):
	// the run parses them instead of opening SRD's paths, which still name
	// the set in the results. Ignored when Registry is set.
	SRDFiles []SRDFile
	// CatalogFingerprint is what tool fingerprints cover ("" = model).
	CatalogFingerprint catalog.FingerprintScope
	LocalServers       []string
	Upgrades           []sim.Upgrade
	// Allow and Deny are the permission lists (scenario permissions).
	Allow, Deny []string
	// MaxUnresolved is the share of tool calls that may fail to resolve
	// against the catalogs before the run stops with an *UnresolvedError
	// (nil: DefaultMaxUnresolved); AllowUnresolved never stops.
	MaxUnresolved   *float64
	AllowUnresolved bool
	// Notes are the scenario's free-form documented assumptions.
	Notes []sim.Assumption
	// SweepPoint, when set, names the parameter and value a sweep set in
	// place of the scenario's own: results.json records it
	// (run.sweep_point) and the swept key's assumption names it as its
	// source.
	SweepPoint *sim.SweepPoint
	// GrowthPoint, when set, names the catalog size `plan --growth`
	// replays the scenario at (its catalogs then hold the added servers):
	// results.json records it (run.growth_point).
	GrowthPoint *sim.GrowthPoint
	// CheckReads, when set, refuses a params key the scenario file writes
	// that no strategy of the run reads, and a strategy key it writes that
	// no component of its strategy reads (scenarios.Scenario.CheckRunReads;
	// FromScenario sets it). It is called
	// with the run's registry and strategies before anything is read.
	CheckReads func(reg *sim.Registry, strategies []sim.Strategy) error
	// Wrote, when set, reports whether the scenario file writes a strategy
	// key on a strategy (scenarios.Scenario.Wrote; FromScenario sets it):
	// checkNames checks only the lists the file writes.
	Wrote func(strategy, key string) bool
	// FlagUnmatched lists, in Output.UnmatchedNames, the entries of the
	// lists the scenario file writes that match nothing in catalogs that
	// are not the scenario's (checkNames refuses them only in the
	// scenario's own). FromScenario sets it unless every catalog of the
	// scenario is embedded: a scenario written for the embedded data (the
	// default) is run on a user's catalogs as a template.
	FlagUnmatched bool

	Workers int
	// SkipBad skips malformed trace lines (counted and reported) instead of stopping.
	SkipBad bool
	// Strict stops at the first session that fails to replay.
	Strict bool
	// Bootstrap resamples for confidence intervals (0 = default, <0 = none).
	Bootstrap int
	// BootstrapMemory limits the bytes the bootstrap may allocate
	// (report.BuildOptions.BootstrapMemory: 0 = default, <0 = no limit). A
	// Bootstrap beyond it is refused before the replay starts.
	BootstrapMemory int64
	// Progress, when set, is told how far the run is.
	Progress Progress
	// Registry of search modes (nil = built-ins plus sim/search rankers).
	Registry *sim.Registry
	// Validator of stale-schema calls (nil = the JSON Schema validator).
	Validator sim.ArgValidator

	// Shard, when its Count is set, replays only that share of the sessions.
	Shard Shard
	// ExactSessions bounds the sessions whose per-session values are kept
	// (0 = sim.DefaultExactSessions, < 0 = every session); beyond it the
	// statistics are streamed (docs/performance.md).
	ExactSessions int
	// KeepFidelityPairs keeps every fidelity pair (for --per-request).
	KeepFidelityPairs bool
	// Checkpoint is the path of the checkpoint file ("" = none): written
	// every CheckpointEvery replayed sessions (0 = only when interrupted).
	Checkpoint      string
	CheckpointEvery int
	// Resume continues the run saved in Checkpoint.
	Resume bool
	// Select, when set, keeps only the sessions it returns true for (the
	// others are read and counted, not replayed).
	Select func(id string) bool
	// Transform, when set, changes each session after it is read, before
	// it is replayed (plan --growth offers added servers this way, without
	// writing a copy of the trace).
	Transform func(*traces.Session)
	// AfterSession, when set, is called after each replayed session with the
	// number replayed so far (from one goroutine).
	AfterSession func(replayed int64)

	// hooks lets tests look inside a run (nil in every other use).
	hooks *runHooks
}

// runHooks are called at points of Run that tests check.
type runHooks struct {
	// engine is called with the run's engine once it is built.
	engine func(*sim.Engine)
	// statistics is called after the replay, before the statistics.
	statistics func()
}
