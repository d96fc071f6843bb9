package sim

import (
	"encoding/json"
	"fmt"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// Counts says what a run read, replayed and skipped.
type Counts struct {
	Files            int            `json:"files"`
	LinesRead        int64          `json:"lines_read"`
	EventsRead       int64          `json:"events_read"`
	SessionsRead     int64          `json:"sessions_read"`
	SessionsReplayed int64          `json:"sessions_replayed"`
	SessionsSkipped  int64          `json:"sessions_skipped"`
	LinesSkipped     int64          `json:"lines_skipped"`
	SkipReasons      map[string]int `json:"skip_reasons,omitempty"`
	// SessionsIncomplete counts sessions read without a session_end (a
	// file cut short, a session split across files, a recorder that
	// stopped); they are replayed as far as they were recorded.
	SessionsIncomplete int64 `json:"sessions_incomplete,omitempty"`
	// SessionsWithoutUser counts sessions read without a user event
	// (traces.Counts.NoUser): their first_reply_ms runs from the
	// session's start to its end, not to a first reply (docs/engine.md
	// §5; absent when 0).
	SessionsWithoutUser int64 `json:"sessions_without_user,omitempty"`
	// EventsTimeBackwards counts events whose time is before the timed
	// event before them in their session: a user pause that would be
	// negative is taken as 0.
	EventsTimeBackwards int64 `json:"events_time_backwards,omitempty"`
	// LinesImplausible counts trace lines holding a count or duration
	// beyond any real session's (traces.Counts.Implausible): kept as
	// recorded, they dominate the figures that use them (absent when 0).
	LinesImplausible int64 `json:"lines_implausible,omitempty"`
	// SessionsEpochDated counts the replayed sessions that a dated upgrade
	// (servers.NAME.upgrades[].at) placed before it by a start in 1970 or
	// earlier: times that look like placeholders put them on the old
	// version (absent when 0).
	SessionsEpochDated int64 `json:"sessions_epoch_dated,omitempty"`
	// SessionsByTiming counts the sessions read by their session_start
	// meta timing: a synthetic session's user pauses are
	// params.user_think_ms, not recorded (absent in files of earlier
	// builds).
	SessionsByTiming traces.Timing `json:"sessions_by_timing,omitzero"`
	// UserPausesFromParams counts the user messages after the first, in
	// the replayed sessions, that have no recorded pause before them (a
	// synthetic session's, or one whose events lack times): the replay
	// took params.user_think_ms as their pause, so session_ms and cache
	// expiry rest on it (absent when 0: every pause was recorded).
	UserPausesFromParams int64 `json:"user_pauses_from_params,omitempty"`
	// EventsNotReplayed counts events of kinds the replay reads but does
	// not use (traces.NotReplayed: deferral_change), in
	// SessionsWithEventsNotReplayed sessions.
	EventsNotReplayed             int64 `json:"events_not_replayed,omitempty"`
	SessionsWithEventsNotReplayed int64 `json:"sessions_with_events_not_replayed,omitempty"`
	// StepsRemoved counts recorded steps removed from the need because the
	// recording runtime's own deferral caused them (its searches, rejected calls).
	StepsRemoved int64 `json:"steps_removed"`
}

// Input identifies one input file by content.
type Input struct {
	Kind   string `json:"kind"` // trace | catalog | scenario
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
	// Server and Version, for catalogs.
	Server  string `json:"server,omitempty"`
	Version string `json:"version,omitempty"`
	Tools   int    `json:"tools,omitempty"`
}

// Assumption is one named parameter or modelling choice in force in a run.
type Assumption struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Source says where the value comes from (a dataset, a doc, "default").
	Source string `json:"source,omitempty"`
}

// ScenarioServer is one entry of a scenario's servers block, as
// results.json records it (run.servers, by server name).
type ScenarioServer struct {
	Server   string            `json:"server"`
	Local    bool              `json:"local,omitempty"`
	Upgrades []ScenarioUpgrade `json:"upgrades,omitempty"`
}

// ScenarioUpgrade is one servers.NAME.upgrades entry as the scenario
// writes it: To, at At (RFC 3339) when set, else after AfterSession
// sessions. AfterSession is no pointer: a gob-encoded state drops a
// pointer to 0 ("after_session: 0" would come back from a shard unset).
type ScenarioUpgrade struct {
	To           string
	AfterSession int64
	At           string
}

// scenarioUpgradeJSON is ScenarioUpgrade's JSON form: "after_session" or
// "at", as the scenario writes it.
type scenarioUpgradeJSON struct {
	To           string `json:"to"`
	AfterSession *int64 `json:"after_session,omitempty"`
	At           string `json:"at,omitempty"`
}

// MarshalJSON writes "after_session" (0 included) when At is unset.
func (u ScenarioUpgrade) MarshalJSON() ([]byte, error) {
	j := scenarioUpgradeJSON{To: u.To, At: u.At}
	if u.At == "" {
		j.AfterSession = &u.AfterSession
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (u *ScenarioUpgrade) UnmarshalJSON(b []byte) error {
	var j scenarioUpgradeJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*u = ScenarioUpgrade{To: j.To, At: j.At}
	if j.AfterSession != nil {
		u.AfterSession = *j.AfterSession
	}
	return nil
}

// RunInfo describes a run for its results file.
type RunInfo struct {
	Scenario            string `json:"scenario"`
	ScenarioFingerprint string `json:"scenario_fingerprint"`
	// FingerprintExceptServers is the scenario's fingerprint without its
	// servers block, when it has one (absent: it equals
	// ScenarioFingerprint); Servers is that block. `check --allow
	// servers` compares two runs whose scenarios differ in it alone.
	FingerprintExceptServers string           `json:"scenario_fingerprint_except_servers,omitempty"`
	Servers                  []ScenarioServer `json:"servers,omitempty"`
	Seed                     int64            `json:"seed"`
	Baseline                 string           `json:"baseline"`
	Tokenizer                string           `json:"tokenizer"`
	Model                    string           `json:"model"`
	CacheModel               string           `json:"cache_model"`
	Assumptions              []Assumption     `json:"assumptions"`
	Inputs                   []Input          `json:"inputs"`
	Counts                   Counts           `json:"counts"`
	// Shard names the share of the sessions a `run --shard I/N` replayed
	// (N > 1); nil for a whole run and for merged shards.
	Shard *ShardInfo `json:"shard,omitempty"`
	// SweepPoint names the swept parameter and the value a `defersim
	// sweep` set in this run, in place of the scenario's own; nil for a
	// run of the scenario as written.
	SweepPoint *SweepPoint `json:"sweep_point,omitempty"`
	// GrowthPoint names the catalog size a `plan --growth` replayed this
	// run at, the scenario's catalog grown by added servers; nil for a run
	// of the scenario's own catalog.
	GrowthPoint *GrowthPoint `json:"growth_point,omitempty"`
	Fidelity    *Fidelity    `json:"fidelity,omitempty"`
	// Resolution says how the traces' calls, search results and catalog
	// changes resolved against the catalogs (absent in files of earlier
	// builds).
	Resolution *ResolutionInfo `json:"resolution,omitempty"`
	// CatalogNotes says, by kind, what loading the run's catalogs read
	// differently from what the servers serve (a missing or null input
	// schema, read as {"type":"object"}) and which server versions serve
	// no tools: a count and up to catalog.MaxNoteItems names each. Absent
	// when there is nothing to note.
	CatalogNotes []catalog.Note `json:"catalog_notes,omitempty"`
	// UnchangedUpgrades lists the scenario's upgrades to a version serving
	// the same tools as the version before it (Engine.UnchangedUpgrades):
	// they change nothing in the replay. Absent when there is none.
	UnchangedUpgrades []UnchangedUpgrade `json:"upgrades_unchanged,omitempty"`
	// UnmatchedEntries lists, one line each with the name most likely
	// meant, the entries of the lists the scenario file writes
	// (never_defer, always_defer, search families, permissions, servers)
	// that match nothing in the run's catalogs when these are not the
	// scenario's own (--catalogs, or the traces'): they change nothing in
	// the replay. Absent when there is none.
	UnmatchedEntries []string `json:"scenario_entries_unmatched,omitempty"`
	// EntryVersions records, for each never_defer and always_defer entry
	// the scenario file writes that some catalog version serves, the
	// versions that serve it, so that the run's end, a merge or a resume
	// can tell UnreplayedEntries from the versions replayed. State only:
	// results.json keeps what follows from it.
	EntryVersions []EntryVersions `json:"-"`
	// UnreplayedEntries lists the entries of EntryVersions that no server
	// version a session replayed serves (a tool only another version of
	// its server has: removed, renamed or not yet added): they change
	// nothing in the replay. Absent when there is none.
	UnreplayedEntries []UnreplayedEntry `json:"scenario_entries_unreplayed,omitempty"`
	// UnreachedUpgrades lists the scenario's upgrades that applied to no
	// replayed session (RunState.UnreachedUpgrades): they change nothing in
	// the replay. Absent when there is none.
	UnreachedUpgrades []UnreachedUpgrade `json:"upgrades_unreached,omitempty"`
	// SRD names the routing descriptions the run's routed search modes and
	// by-domain directory read (absent in files of earlier builds).
	SRD *SRDInfo `json:"srd,omitempty"`
	// Deferrable says, per strategy, how many of the catalogs' tools it may
	// defer and a digest of which (equal digests: the same tools).
	Deferrable []DeferrableTools `json:"deferrable,omitempty"`
	// RecordedModels counts the replayed sessions by the model their
	// session_start records, and says which are the run's Model (absent
	// in files of earlier builds).
	RecordedModels []RecordedModel `json:"recorded_models,omitempty"`
	// OtherModels counts the replayed sessions whose recorded model is
	// not among the MaxRecordedModels names RecordedModels lists (absent
	// when there are none).
	OtherModels *OtherModels `json:"recorded_models_other,omitempty"`
	// ModelPreset names the preset Model was built from when Model's name
	// does not resolve to it (presets.PresetNotNamed: model: {preset:
	// claude-sonnet-4.5, name: my-sonnet}); "" when it does, and for a
	// model written out in full. What the model's own tokenizer is
	// depends on it (presets.StandInFor), so results.json carries it and a
	// report re-rendered from the file says what the run's said. Absent
	// when "" and in files of earlier builds, whose renamed preset models
	// read as the model their name resolves to, if any.
	ModelPreset string `json:"model_preset,omitempty"`
}

// RecordedModel is how many replayed sessions record one model.
type RecordedModel struct {
	// Model as session_start records it; "" for the sessions that record
	// none (no model, or no session_start).
	Model    string `json:"model"`
	Sessions int64  `json:"sessions"`
	// Scenario says the model is the run's: the same name, or names that
	// resolve to the same preset (presets.ResolveModel). Sessions of
	// another model (or none) are priced and timed as the run's model.
	Scenario bool `json:"scenario_model"`
}

// OtherModels counts the replayed sessions of the model names beyond the
// MaxRecordedModels names a run counts one by one (the smallest, bytewise).
type OtherModels struct {
	Sessions int64 `json:"sessions"`
	// Scenario of them record a name of the run's model.
	Scenario int64 `json:"scenario_model_sessions"`
	// Names is MaxRecordedModels: how many names RecordedModels lists at
	// most.
	Names int `json:"names_counted"`
}

// ShardInfo is shard Index of Count: the sessions whose id hashes to
// Index modulo Count.
type ShardInfo struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// String returns "I/N".
func (s ShardInfo) String() string {
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// DeferrableTools is what a strategy may defer of a run's catalogs
// (Engine.Deferrable).
type DeferrableTools struct {
	Strategy string `json:"strategy"`
	Tools    int    `json:"tools"`
	Digest   string `json:"digest"`
}

// ResolutionInfo is a run's Resolution with what follows from it: the
// unresolved share, the threshold above which a run stops, and the tools
// behind the counts.
type ResolutionInfo struct {
	Resolution
	// Unresolved = UnknownTool + UnknownServer + VersionMissing;
	// UnresolvedShare = Unresolved / Calls.
	Unresolved      int64   `json:"unresolved"`
	UnresolvedShare float64 `json:"unresolved_share"`
	// MaxUnresolvedShare is the share of calls above which the run stops
	// (exit status 2) unless AllowUnresolved.
	MaxUnresolvedShare float64 `json:"max_unresolved_share"`
	AllowUnresolved    bool    `json:"allow_unresolved"`
	// TopUnresolved lists the most called unresolved tools; NotExact the
	// most called tools whose schema the import marked approximate or
	// missing.
	TopUnresolved []ToolCount `json:"top_unresolved,omitempty"`
	NotExact      []ToolCount `json:"schema_not_exact,omitempty"`
	// UnresolvedTools and NotExactTools count the distinct tools behind
	// each list (the lists name at most 20), among the MaxResolutionTools
	// smallest (server, tool, class) keys a run tells apart;
	// UnresolvedOtherCalls and NotExactOtherCalls count the calls of the
	// tools beyond them, which neither the counts nor the lists include.
	UnresolvedTools      int   `json:"unresolved_tools,omitempty"`
	UnresolvedOtherCalls int64 `json:"unresolved_tools_other_calls,omitempty"`
	NotExactTools        int   `json:"schema_not_exact_tools,omitempty"`
	NotExactOtherCalls   int64 `json:"schema_not_exact_tools_other_calls,omitempty"`
	// TopAmbiguous lists the most called tool names that calls named
	// without a server although several servers of the session serve
	// them, with the server chosen (Resolution.Ambiguous, AmbiguousRule);
	// AmbiguousTools counts the distinct (tool, servers) behind it, among
	// the MaxResolutionTools smallest, and AmbiguousOtherCalls the calls
	// of those beyond.
	TopAmbiguous        []AmbiguousCount `json:"top_ambiguous,omitempty"`
	AmbiguousTools      int              `json:"ambiguous_tools,omitempty"`
	AmbiguousOtherCalls int64            `json:"ambiguous_tools_other_calls,omitempty"`
	// TopMissingVersions lists the server versions the VersionMissing
	// calls' sessions asked for, most calls first, each with the versions
	// the catalogs hold; MissingVersions counts the distinct (server,
	// version) behind it, among the MaxResolutionTools smallest, and
	// MissingVersionsOtherCalls the calls of those beyond.
	TopMissingVersions        []VersionCount `json:"top_missing_versions,omitempty"`
	MissingVersionsCount      int            `json:"missing_versions,omitempty"`
	MissingVersionsOtherCalls int64          `json:"missing_versions_other_calls,omitempty"`
	// SessionsMissingShare is SessionsMissingServers / Sessions: the share
	// of sessions naming a server or version no catalog holds, which the
	// stop rule holds to MaxUnresolvedShare as it does the unresolved calls
	// (PastLimit). TopMissingServers lists those server versions, most
	// sessions first, each with the versions the catalogs hold of the
	// server (none: no catalog holds it); MissingServersCount counts the
	// distinct (server, version) behind it, among the MaxResolutionTools
	// smallest, and MissingServersOtherSessions the sessions of those
	// beyond. All absent when no session names one.
	SessionsMissingShare        float64          `json:"sessions_missing_servers_share,omitempty"`
	TopMissingServers           []ServerSessions `json:"top_missing_servers,omitempty"`
	MissingServersCount         int              `json:"missing_servers,omitempty"`
	MissingServersOtherSessions int64            `json:"missing_servers_other_sessions,omitempty"`
	// UnreplayedVersions lists, for each server some session replayed,
	// the catalog versions newer than the newest one replayed that no
	// session replayed (Resolution.VersionsReplayed): an upgrade in the
	// catalogs that no figure of the run measures. Absent when none.
	UnreplayedVersions []UnreplayedVersions `json:"unreplayed_versions,omitempty"`
}

// EntryVersions is one list entry of a scenario's strategy and the
// catalog versions that serve a tool it matches (RunInfo.EntryVersions).
type EntryVersions struct {
	Strategy string
	Key      string // never_defer or always_defer
	Index    int
	Entry    string
	Serving  []ServerVersion
}

// UnreplayedEntry is a list entry that no replayed server version serves
// (RunInfo.UnreplayedEntries): Serving are the versions that do, Replayed
// the versions of their servers that sessions replayed (none: no session
// replayed the server), each "server@version", sorted.
type UnreplayedEntry struct {
	Strategy string   `json:"strategy"`
	Key      string   `json:"key"`
	Index    int      `json:"index"`
	Entry    string   `json:"entry"`
	Serving  []string `json:"served_by"`
	Replayed []string `json:"replayed,omitempty"`
}

// UnreplayedVersions is one server's catalog versions no session replayed
// (ResolutionInfo.UnreplayedVersions), newer than every version that was.
type UnreplayedVersions struct {
	Server string `json:"server"`
	// Versions are the unreplayed versions, Replayed those sessions
	// replayed, each in release order.
	Versions []string `json:"versions"`
	Replayed []string `json:"replayed"`
}

// CallsPastLimit says the share of unresolved calls is above the limit;
// SessionsPastLimit that the share of sessions naming a server or version
// no catalog holds is.
func (r *ResolutionInfo) CallsPastLimit() bool { return r.UnresolvedShare > r.MaxUnresolvedShare }

// SessionsPastLimit: see CallsPastLimit.
func (r *ResolutionInfo) SessionsPastLimit() bool {
	return r.SessionsMissingShare > r.MaxUnresolvedShare
}

// PastLimit says the run's inputs are past its stop rule (docs/engine.md
// §9): the share of unresolved calls, or of sessions naming a server or
// version no catalog holds, above MaxUnresolvedShare. The run stops
// unless AllowUnresolved.
func (r *ResolutionInfo) PastLimit() bool { return r.CallsPastLimit() || r.SessionsPastLimit() }

// SRDInfo names a set of routing descriptions (docs/srd.md).
type SRDInfo struct {
	// Source is "embedded" (the project's own, built into the binary) or
	// the paths given (--srd, scenario key srd).
	Source   string `json:"source"`
	Embedded bool   `json:"embedded"`
	// Count of SRDs (servers described) and SHA256 over their files (name
	// and bytes, in load order).
	Count  int    `json:"count"`
	SHA256 string `json:"sha256"`
	// ServersDescribed of the run's Servers (catalog servers) have an SRD;
	// the others are each a domain of their own.
	ServersDescribed int `json:"servers_described"`
	Servers          int `json:"servers"`
	// UsedBy lists the strategies whose search mode or directory reads the
	// descriptions (none: they change no number of this run).
	UsedBy []string `json:"used_by,omitempty"`
}

// Fidelity compares an eager replay of recorded sessions with what was recorded.
type Fidelity struct {
	Strategy string `json:"strategy"`
	Requests int64  `json:"requests"`
	// Input tokens: absolute relative error |sim-rec|/rec per request.
	InputMedianAbsRelErr float64 `json:"input_median_abs_rel_err"`
	InputP90AbsRelErr    float64 `json:"input_p90_abs_rel_err"`
	InputMeanRelErr      float64 `json:"input_mean_rel_err"`
	// Latency, where recorded.
	LatencyRequests        int64   `json:"latency_requests"`
	LatencyMedianAbsRelErr float64 `json:"latency_median_abs_rel_err,omitempty"`
	LatencyP90AbsRelErr    float64 `json:"latency_p90_abs_rel_err,omitempty"`
	// OtherStrategy counts the sessions left out of the comparison because
	// they were recorded under another strategy than this one (a deferral
	// rule: traces.RecordedDeferred); absent when 0.
	OtherStrategy int64 `json:"sessions_recorded_other_strategy,omitempty"`
}
