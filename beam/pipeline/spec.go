// Package pipeline runs defersim's replay as an Apache Beam pipeline: it
// reads trace files through Beam's filesystems (local paths, gs://, s3://),
// replays batches of sessions on the workers with the engine `defersim run`
// uses (internal/runner's Distributed), merges the workers' states with a
// CombineFn over the mergeable run state, and writes results.json and the
// report. Its results are byte-identical to `defersim run` on the same
// traces, scenario and flags (TestPipelineEqualsRun). docs/beam.md has the
// commands.
package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// DefaultBatchSessions is how many sessions one element of the pipeline
// carries from the reading step to the replaying step.
const DefaultBatchSessions = 1024

// Spec is everything the workers need to rebuild the run: the scenario's
// text (workers may not see the launcher's files) and the options of
// `defersim run` the pipeline supports. It travels in the pipeline as JSON.
type Spec struct {
	// Scenario is the scenario file's path as given ("" = the embedded
	// default) and ScenarioYAML its text, read by the launcher.
	Scenario     string `json:"scenario,omitempty"`
	ScenarioYAML []byte `json:"scenario_yaml,omitempty"`
	// Overrides of the scenario, as `defersim run` flags.
	Traces     []string `json:"traces,omitempty"`
	Catalogs   []string `json:"catalogs,omitempty"`
	Strategies []string `json:"strategies,omitempty"`
	Baseline   string   `json:"baseline,omitempty"`
	Seed       *int64   `json:"seed,omitempty"`
	// Model is run's --model: a model preset replacing the scenario's
	// model as a whole ("" = the scenario's).
	Model string `json:"model,omitempty"`
	// SRD is run's --srd: routing description files or directories, local
	// or URLs (nil: the scenario's srd:, else the embedded set).
	SRD []string `json:"srd,omitempty"`
	// AllowUnresolved and MaxUnresolved are run's --allow-unresolved and
	// --max-unresolved (nil: the scenario's max_unresolved, else the
	// default).
	AllowUnresolved bool     `json:"allow_unresolved,omitempty"`
	MaxUnresolved   *float64 `json:"max_unresolved,omitempty"`
	// Options, as `defersim run` flags.
	SkipBad   bool `json:"skip_bad,omitempty"`
	Strict    bool `json:"strict,omitempty"`
	Bootstrap int  `json:"bootstrap,omitempty"`
	// BootstrapMemory is run's --bootstrap-memory in bytes (0 = default).
	BootstrapMemory int64 `json:"bootstrap_memory,omitempty"`
	ExactSessions   int   `json:"exact_sessions,omitempty"`
	// Out is the output directory (a local path or a Beam filesystem URL).
	Out      string `json:"out"`
	NoReport bool   `json:"no_report,omitempty"`
	// BatchSessions is how many sessions one element carries (0 = DefaultBatchSessions).
	BatchSessions int `json:"batch_sessions,omitempty"`
}

func (s Spec) batch() int {
	if s.BatchSessions <= 0 {
		return DefaultBatchSessions
	}
	return s.BatchSessions
}

// key identifies the run a spec describes (workers share one prepared run
// per key).
func (s Spec) key() string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("spec is not JSON: %v", err)) // it only holds plain fields
	}
	return string(b)
}

// isURL reports whether path names a file through a filesystem scheme
// (gs://, s3://, …) rather than a local path.
func isURL(path string) bool { return strings.Contains(path, "://") }

// Config resolves the spec into the run configuration `defersim run`
// builds from the same scenario and flags. Catalogs and routing
// descriptions given as URLs are read through Beam's filesystems.
func (s Spec) Config() (runner.Config, error) {
	sc, err := s.scenario()
	if err != nil {
		return runner.Config{}, err
	}
	if err := s.catalogsKnown(sc); err != nil {
		return runner.Config{}, err
	}
	cfg, err := runner.FromScenario(sc, s.overrides(), defaultdata.FS())
	if err != nil {
		return runner.Config{}, err
	}
	cfg.SkipBad, cfg.Strict, cfg.Bootstrap, cfg.ExactSessions = s.SkipBad, s.Strict, s.Bootstrap, s.ExactSessions
	cfg.BootstrapMemory = s.BootstrapMemory
	if cfg.SRDFiles, err = srdFiles(context.Background(), cfg.SRD); err != nil {
		return runner.Config{}, err
	}
	for i, src := range cfg.Catalogs {
		if src.FS == nil && isURL(src.Path) {
			cfg.Catalogs[i] = runner.Source{Path: src.Path, FS: dirFS{root: strings.TrimSuffix(src.Path, "/")}, Name: "."}
		}
	}
	return cfg, nil
}

// catalogsKnown refuses a run whose catalogs would come from a trace
// named by a URL. Without --catalogs, a run over --traces (or a scenario
// naming no catalogs) replays each trace against its own catalog, found
// from the trace's first line or beside it (runner's catalogsFor), which
// is read on the launcher from a local file only: the runner met a URL
// as a missing local trace ("open trace: open gs://…: no such file or
// directory").
func (s Spec) catalogsKnown(sc *scenarios.Scenario) error {
	if len(s.Catalogs) > 0 || len(s.Traces) == 0 && len(sc.Catalogs) > 0 {
		return nil
	}
	paths := s.Traces
	if len(paths) == 0 {
		paths = sc.Traces
	}
	for _, p := range paths {
		if isURL(p) {
			return fmt.Errorf("trace %s: give its catalogs with --catalogs (or the scenario's catalogs:): defersim-beam finds a trace's own catalog (docs/trace-format.md#catalog) only for a local trace file", p)
		}
	}
	return nil
}

// Notes are the notes `defersim run` prints before it replays, in its
// order: that the spec's model replaces the one the scenario file wrote
// (scenarios.ModelFlagNote), and that the scenario's max_unresolved does
// not apply to the run (runner.LimitNotCarried). None when neither
// applies.
func (s Spec) Notes() ([]string, error) {
	sc, replaced, err := s.scenarioModel()
	if err != nil {
		return nil, err
	}
	var notes []string
	if s.Scenario != "" { // the embedded default's model is replaced without a word, as by run
		if note := scenarios.ModelFlagNote(s.Model, replaced); note != "" {
			notes = append(notes, note)
		}
	}
	if note := runner.LimitNotCarried(sc, s.overrides()); note != "" {
		notes = append(notes, note)
	}
	return notes, nil
}

// overrides are the scenario's values the spec's flags replace.
func (s Spec) overrides() runner.Overrides {
	return runner.Overrides{Traces: s.Traces, Catalogs: s.Catalogs, Strategies: s.Strategies, Baseline: s.Baseline, Seed: s.Seed,
		SRD: s.SRD, AllowUnresolved: s.AllowUnresolved, MaxUnresolved: s.MaxUnresolved}
}

// scenario parses the spec's scenario and refuses, as `defersim run`
// does, one that sets a parameter the run would not read
// (Scenario.CheckParams).
func (s Spec) scenario() (*scenarios.Scenario, error) {
	sc, _, err := s.scenarioModel()
	return sc, err
}

// scenarioModel is scenario, with the description of the model the spec's
// model replaced (Scenario.UseModel; "" none).
func (s Spec) scenarioModel() (sc *scenarios.Scenario, replaced string, err error) {
	switch {
	case s.Scenario == "":
		sc, err = scenarios.Default()
	case isURL(s.Scenario):
		sc, err = scenarios.Parse(s.ScenarioYAML, s.Scenario, "") // its paths must be absolute
	default:
		sc, err = scenarios.Parse(s.ScenarioYAML, s.Scenario, filepath.Dir(s.Scenario)) // as scenarios.Load
	}
	if err != nil {
		return nil, "", err
	}
	if s.Model != "" {
		if replaced, err = sc.UseModel(s.Model); err != nil {
			return nil, "", err
		}
	}
	if err := sc.CheckParams(""); err != nil {
		return nil, "", err
	}
	return sc, replaced, nil
}
