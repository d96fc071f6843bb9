// Package scenarios loads scenario files: the YAML that names a replay's
// traces, catalogs, model, parameters and strategies (docs/scenarios.md),
// and the embedded default scenario. Loading resolves presets, expands
// matrices, normalizes and validates every strategy (component names
// against a sim.Registry: ParseWith), and reports any problem as
// FILE:LINE: FIELD: REASON.
package scenarios

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// EmbeddedPrefix marks a path inside the embedded default data
// ("embedded:catalog", "embedded:trace.jsonl.gz"); such paths are not
// resolved against the scenario's directory.
const EmbeddedPrefix = "embedded:"

// Scenario is a resolved scenario file: presets expanded, defaults filled,
// every value validated.
type Scenario struct {
	// File is the name the scenario was loaded from (its path, or
	// "default.yaml" for the embedded default).
	File        string `json:"file"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Seed        int64  `json:"seed"`
	// Traces and Catalogs are paths resolved against the scenario file's
	// directory, or EmbeddedPrefix paths.
	Traces   []string `json:"traces"`
	Catalogs []string `json:"catalogs"`
	// SRD lists the user's routing descriptions (SRD files or directories
	// of them, v1 or v0.1), resolved like Traces; empty: the embedded set.
	SRD []string `json:"srd,omitempty"`
	// MaxUnresolved is the share of tool calls that may fail to resolve
	// against the catalogs before a run stops (nil: the runner's default).
	MaxUnresolved *float64 `json:"max_unresolved,omitempty"`
	// CatalogFingerprint is what a tool's fingerprint covers, and so when
	// a fingerprint-keyed warm set sees a tool as changed: "model" (name,
	// description, input schema; the default) or "served" (the whole tool
	// object, annotations, title, icons and _meta included); "" when the
	// file does not say (model).
	CatalogFingerprint catalog.FingerprintScope `json:"catalog_fingerprint,omitempty"`

	Model sim.Model `json:"model"`
	// ModelPreset names the preset the model was built from (model: NAME,
	// or {preset: NAME, ...}, which may rename it), "" for a model written
	// out in full. Not part of the fingerprint: Model holds every value.
	ModelPreset string     `json:"-"`
	Params      sim.Params `json:"params"`
	// Strategies are normalized and valid, with unique names, in file order
	// (strategies first, then matrix expansions).
	Strategies []sim.Strategy `json:"strategies"`
	// Baseline names the strategy others are compared with.
	Baseline string `json:"baseline"`
	// RecommendedFor holds, by strategy name, what defersim recommend
	// chose a strategy for (its recommended_for key; inherited by the
	// strategies based on it). Not in the fingerprint: it changes nothing
	// replayed.
	RecommendedFor map[string]RecommendedFor `json:"recommended_for,omitempty"`

	// Data for later stages, validated but not interpreted here.
	Permissions Permissions       `json:"permissions"`
	Servers     map[string]Server `json:"servers,omitempty"`
	Sweep       *Sweep            `json:"sweep,omitempty"`
	Check       *Check            `json:"check,omitempty"`
	Assumptions []string          `json:"assumptions,omitempty"`

	// pathLines maps each trace, catalog and SRD path from the file to its line.
	pathLines map[string]int
	// lines maps each field path the file sets to its line (Where).
	lines map[string]int
	// settings are the strategy keys the file writes on each of its
	// strategies, by name (CheckReads).
	settings map[string][]setting
	// paramsWritten are the params keys the file writes with a value
	// other than 0 and the default (CheckParamReads).
	paramsWritten []writtenParam
	// fileStrategies are the strategies the scenario itself runs, kept
	// when SelectStrategies (--strategies) replaces Strategies
	// (CheckParamReads); nil until then.
	fileStrategies []sim.Strategy
	// paramsUnread are those of them that change nothing with its other
	// values (CheckParams).
	paramsUnread []unreadParam
}

// Permissions are checked at execution for every call, deferred or not.
// Entries are tool names or prefixes ending in "*", optionally scoped
// "server:name". Deny wins over allow; an empty allow list allows all.
type Permissions struct {
	Allow []string `yaml:"allow" json:"allow,omitempty"`
	Deny  []string `yaml:"deny" json:"deny,omitempty"`
}

// Server holds per-server settings, keyed by server name.
type Server struct {
	// Local marks the server's tools as built-in/local (direct unless
	// always-deferred) rather than MCP.
	Local bool `yaml:"local" json:"local,omitempty"`
	// Upgrades move the server to another catalog version during the run.
	Upgrades []Upgrade `yaml:"upgrades" json:"upgrades,omitempty"`
}

// Upgrade moves a server to catalog version To, either after a number of
// sessions (AfterSession, counted in trace order) or at a point in trace
// time (At, RFC 3339). Exactly one of the two is set.
type Upgrade struct {
	To           string `yaml:"to" json:"to"`
	AfterSession *int64 `yaml:"after_session" json:"after_session,omitempty"`
	At           string `yaml:"at" json:"at,omitempty"`
}

// Sweep varies one numeric parameter over [From, To] in steps of Step.
// Param is a path: "params.KEY", "model.KEY[.KEY]" or "strategy.KEY[.KEY]"
// (the latter applies to every strategy).
type Sweep struct {
	Param string  `yaml:"param" json:"param"`
	From  float64 `yaml:"from" json:"from"`
	To    float64 `yaml:"to" json:"to"`
	Step  float64 `yaml:"step" json:"step"`
}

// Check holds regression-gate tolerances: relative changes of a metric
// against a baseline run that are accepted.
type Check struct {
	// Tolerance applies to every metric without its own entry.
	Tolerance float64 `yaml:"tolerance" json:"tolerance"`
	// Metrics maps a metric name to its own relative tolerance.
	Metrics map[string]float64 `yaml:"metrics" json:"metrics,omitempty"`
	// Absolute maps a metric name ("metric" or "metric.p95") to an absolute
	// tolerance in the metric's unit (docs/check.md).
	Absolute map[string]float64 `yaml:"absolute" json:"absolute,omitempty"`
}

// Time parses At.
func (u Upgrade) Time() (time.Time, error) {
	t, err := time.Parse(time.RFC3339, u.At)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not an RFC 3339 time (e.g. 2026-05-01T09:00:00Z)", u.At)
	}
	return t, nil
}

// Where locates a field the file sets (a path such as
// "servers.github.upgrades[0]") as scenario errors print it:
// "FILE:LINE: FIELD". Checks made after loading, against the catalogs a
// run reads, prefix their messages with it.
func (s *Scenario) Where(field string) string {
	return (&Error{File: s.File, Line: lineIn(s.lines, field), Field: field}).where()
}

// Strategy returns the scenario's strategy called name.
func (s *Scenario) Strategy(name string) (sim.Strategy, bool) {
	for _, st := range s.Strategies {
		if st.Name == name {
			return st, true
		}
	}
	return sim.Strategy{}, false
}

// Fingerprint is the hex SHA-256 of a canonical JSON form of everything
// that changes replay numbers: seed, model, params, strategies (without
// their prose description and source), baseline, permissions and servers.
// Two results with the same fingerprint (and the same input files) are
// comparable. Key order, comments and anchors in the YAML do not matter.
func (s *Scenario) Fingerprint() string {
	return s.fingerprint(s.Servers)
}

// FingerprintExceptServers is Fingerprint of the scenario without its
// servers block: equal for two scenarios that differ in their servers
// block alone (an upgrade, a local server), which `check --allow servers`
// compares. It equals Fingerprint when the scenario has no servers block.
func (s *Scenario) FingerprintExceptServers() string {
	return s.fingerprint(nil)
}

// fingerprint is Fingerprint with servers for the servers block.
func (s *Scenario) fingerprint(servers map[string]Server) string {
	strategies := make([]sim.Strategy, len(s.Strategies))
	for i, st := range s.Strategies {
		st.Description, st.Source = "", ""
		strategies[i] = st
	}
	params := s.Params
	if params.TokenScale == 1 { // the default is left out (omitzero), so fingerprints of scenarios that do not set it are unchanged
		params.TokenScale = 0
	}
	canon := struct {
		Version     int               `json:"v"`
		Seed        int64             `json:"seed"`
		Model       sim.Model         `json:"model"`
		Params      sim.Params        `json:"params"`
		Strategies  []sim.Strategy    `json:"strategies"`
		Baseline    string            `json:"baseline"`
		Permissions Permissions       `json:"permissions"`
		Servers     map[string]Server `json:"servers"`
		// Fingerprint is "" for the default scope, so the fingerprints of
		// scenarios that do not set it are unchanged.
		Fingerprint catalog.FingerprintScope `json:"catalog_fingerprint,omitempty"`
	}{1, s.Seed, s.Model, params, strategies, s.Baseline, s.Permissions, servers, s.fingerprintScope()}
	b, err := json.Marshal(canon)
	if err != nil {
		// The value holds only strings, numbers, bools, slices and maps
		// with string keys: Marshal cannot fail on it.
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// fingerprintScope is CatalogFingerprint, "" for the default (model, said
// or not).
func (s *Scenario) fingerprintScope() catalog.FingerprintScope {
	if s.CatalogFingerprint == catalog.FingerprintModel {
		return ""
	}
	return s.CatalogFingerprint
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
