package runner

import (
	"bufio"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/version"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// StateVersion is the version of state files (checkpoints and shard.bin):
// a file is read only by a build of the version that wrote it. Bump it
// whenever the shape of what WriteState encodes changes (a field added,
// removed, renamed or retyped anywhere reachable from StateFile):
// TestStateShape fails until you do. Version 1 files lack counts added
// since (run.recorded_models, run.counts.sessions_by_timing) and read as
// zero; version 2 bounds the recorded models (sim.MaxRecordedModels);
// version 3 was two shapes on two branches: one keeping the smallest
// resolution keys (sim.MaxResolutionTools) and counting the calls of the
// others, one counting the sessions recorded with deferral
// (sim.Resolution.RecordedDeferred), which run.fidelity leaves out;
// version 4 holds both; version 5 counts the sessions a dated upgrade
// placed by 1970 times (sim.RunState.EpochDated) and the implausible
// lines read (ReaderCounts.Implausible), which results.json now records;
// version 6 counts the calls of missing versions by the server version
// asked for (sim.Resolution.MissingVersions); version 7 counts the
// sessions naming a server or version no catalog holds
// (sim.Resolution.SessionsMissingServers, MissingServers); version 8
// counts the calls a scenario upgrade made unknown
// (sim.Resolution.UpgradeRemoved), records the upgrades that change
// nothing (sim.RunInfo.UnchangedUpgrades), and records the defersim build
// that wrote the file (StateFile.Build), so that shards or a checkpoint of
// another build of the same state version are refused instead of merged
// into numbers no one build gives; version 9 counts the sessions each
// scenario upgrade applied to (sim.RunState.Upgrades), so that an upgrade
// no session reaches is said exactly over shards and resumes
// (sim.RunInfo.UnreachedUpgrades); version 10 counts the sessions read
// without a user message (ReaderCounts.NoUser), which results.json now
// records (run.counts.sessions_without_user); version 11 counts the user
// pauses after the first message and those taken from
// params.user_think_ms (sim.RunState.UserPauses, UserPausesFromParams),
// which results.json records (run.counts.user_pauses_from_params) and a
// sweep of params.user_think_ms reads, and the tool calls and those with
// no recorded duration (ToolCalls, UntimedToolCalls), which a sweep of
// params.default_tool_ms reads; version 12 carries the scenario's list
// entries that match nothing in the run's catalogs
// (sim.RunInfo.UnmatchedEntries), which results.json now records
// (run.scenario_entries_unmatched) and merge reports; version 13 counts,
// per strategy, the model requests over the model's context window
// (sim.RunState.Overflow), which results.json records
// (strategies[].context_overflow) and run and merge warn of; version 14
// carries the sweep point a run replays (sim.RunInfo.SweepPoint), which
// results.json records (run.sweep_point); version 15 carries each fidelity
// pair's cache split and recorded cached tokens (sim.FidelityPair.SimCacheRead,
// SimCacheWrite, RecordedCacheRead), which run --per-request writes; version
// 16 carries the growth point a `plan --growth` replay runs at
// (sim.RunInfo.GrowthPoint), which results.json records (run.growth_point);
// version 17 counts the sessions by the server versions they replayed
// (sim.Resolution.VersionsReplayed), from which results.json names the
// catalog versions no session replayed (run.resolution.unreplayed_versions)
// over shards and resumes; version 18 carries the catalog versions serving
// each never_defer and always_defer entry the scenario writes
// (sim.RunInfo.EntryVersions), from which results.json names the entries
// no replayed version serves (run.scenario_entries_unreplayed) over shards
// and resumes; version 19 carries the factor a growth point replays beside
// the one asked (sim.GrowthPoint.Replayed), which results.json records
// (run.growth_point.replayed_factor); version 20 has two more metrics per
// session, calls_unchecked and calls_without_result (sim.MCallsUnchecked,
// sim.MCallsWithoutResult), so a state of 19 holds fewer values; version
// 21 carries the id of each failed session beside its message
// (sim.IndexedFailure.Session), by which sweep and plan --growth group a
// session's failures over their points; version 22 carries the scenario's
// servers block and its fingerprint without it (sim.RunInfo.Servers,
// FingerprintExceptServers), which results.json records (run.servers,
// run.scenario_fingerprint_except_servers) for check --allow servers;
// version 23 counts, in calls_without_result's place,
// calls_result_unrecorded (calls marked result_unrecorded,
// sim.MCallsResultUnrecorded), where a state of 22 counted every call
// without a result, empty ones too.
const StateVersion = 23

// Kinds of state files.
const (
	// KindCheckpoint is an interrupted or running run's state.
	KindCheckpoint = "checkpoint"
	// KindShard is a completed run's (or shard's) state, ready to merge.
	KindShard = "shard"
)

// Names of state files in an output directory.
const (
	CheckpointFile = "checkpoint"
	ShardFile      = "shard.bin"
)

// stateMagic starts every state file.
const stateMagic = "defersim-state\n"

// stateHeader is the first value of a state file's gob stream, before the
// StateFile: its fields are StateFile's first two, so that the first value
// of a file of any version — a version 1 file holds the StateFile alone —
// decodes into it, and a file of another version is refused by its version
// before its body is decoded (whose types may differ).
type stateHeader struct {
	Version int
	Kind    string
}

// StateFile is what a checkpoint or a shard.bin holds: the description of
// the run (everything results.json says but the counts and fidelity) and
// its mergeable state. Its encoding (magic line, then gzip'd gob) is
// versioned by Version; a file of another version is refused.
type StateFile struct {
	Version int
	Kind    string
	// Build is the defersim build that wrote the file, as results.json's
	// generator_version and go_version name it ("v1.2.3 go1.26.1"): the
	// replay of every session of a merged or resumed run is one build's.
	Build            string
	Shard            Shard
	Info             sim.RunInfo
	Strategies       []sim.Strategy
	FidelityStrategy string
	Bootstrap        int
	Prices           *report.Prices
	SkipBad          bool
	// MaxUnresolved and AllowUnresolved are the run's resolution policy
	// (Config).
	MaxUnresolved   float64
	AllowUnresolved bool
	// Reader holds what the trace readers counted (complete runs only).
	Reader ReaderCounts
	// Traces, in a checkpoint, are the prefixes of the traces read so far
	// (a complete run's Info.Inputs has their hashes instead).
	Traces []TracePrefix
	State  *sim.RunState
	// Maps holds the maps above, sorted, in an encoded file
	// (statemaps.go); nil in memory.
	Maps *sortedMaps
	// path is the file ReadState read (not encoded), to name it.
	path string
}

// name is "shard I/N", and the file it was read from when known.
func (f *StateFile) name() string {
	s := "shard " + f.Shard.String()
	if f.Shard.Count == 0 {
		s = "the whole run's state"
	}
	if f.path != "" {
		s += " (" + f.path + ")"
	}
	return s
}

// ReaderCounts are the counts of a run that come from reading the traces
// (the same in every shard of a run).
type ReaderCounts struct {
	Files                 int
	SessionsRead          int64
	LinesRead, EventsRead int64
	LinesSkipped          int64
	SkipReasons           map[string]int
	// Incomplete counts sessions that had no session_end at the end of
	// their file (replayed as far as they were recorded).
	Incomplete int64
	// NoUser counts sessions without a user event (traces.Counts.NoUser).
	NoUser int64
	// Backwards counts events earlier than the timed event before them in
	// their session.
	Backwards int64
	// Implausible counts lines with a count or duration beyond any real
	// session's.
	Implausible int64
	// Timing counts the sessions read by their session_start meta timing.
	Timing traces.Timing
	// Unreplayed counts the events of kinds the replay does not read
	// (traces.NotReplayed), UnreplayedSessions the sessions holding any.
	Unreplayed, UnreplayedSessions int64
}

func readerCounts(files int, sessionsRead int64, counts []traces.Counts) ReaderCounts {
	rc := ReaderCounts{Files: files, SessionsRead: sessionsRead}
	for _, tc := range counts {
		rc.LinesRead += tc.Lines
		rc.EventsRead += tc.Events
		rc.LinesSkipped += tc.Skipped
		rc.Incomplete += tc.Incomplete
		rc.NoUser += tc.NoUser
		rc.Backwards += tc.Backwards
		rc.Implausible += tc.Implausible
		rc.Unreplayed += tc.Unreplayed
		rc.UnreplayedSessions += tc.UnreplayedSessions
		rc.Timing.Add(tc.Timing)
		for k, v := range tc.SkipReasons {
			if rc.SkipReasons == nil {
				rc.SkipReasons = map[string]int{}
			}
			rc.SkipReasons[string(k)] += int(v)
		}
	}
	return rc
}

// apply copies the reader counts into c.
func (rc ReaderCounts) apply(c *sim.Counts) {
	c.Files = rc.Files
	c.SessionsRead = rc.SessionsRead
	c.LinesRead = rc.LinesRead
	c.EventsRead = rc.EventsRead
	c.LinesSkipped = rc.LinesSkipped
	c.SessionsIncomplete = rc.Incomplete
	c.SessionsWithoutUser = rc.NoUser
	c.EventsTimeBackwards = rc.Backwards
	c.LinesImplausible = rc.Implausible
	c.EventsNotReplayed = rc.Unreplayed
	c.SessionsWithEventsNotReplayed = rc.UnreplayedSessions
	c.SessionsByTiming = rc.Timing
	c.SkipReasons = nil
	for k, v := range rc.SkipReasons {
		if c.SkipReasons == nil {
			c.SkipReasons = map[string]int{}
		}
		c.SkipReasons[k] = v
	}
}

// runKey is what two state files of the same run (or of two shards of it)
// share.
type runKey struct {
	Info             sim.RunInfo
	Strategies       []sim.Strategy
	FidelityStrategy string
	Bootstrap        int
	Prices           *report.Prices
	SkipBad          bool
	MaxUnresolved    float64
	AllowUnresolved  bool
}

func (f *StateFile) key() runKey {
	info := withoutPaths(f.Info)
	info.Counts, info.Fidelity, info.Resolution, info.Shard = sim.Counts{}, nil, nil, nil
	return runKey{Info: info, Strategies: f.Strategies, FidelityStrategy: f.FidelityStrategy,
		Bootstrap: resamples(f.Bootstrap), Prices: f.Prices, SkipBad: f.SkipBad,
		MaxUnresolved: f.MaxUnresolved, AllowUnresolved: f.AllowUnresolved}
}

// matches checks that f (read from disk) is a checkpoint of the run p
// describes, whose summary options are opts.
func (f *StateFile) matches(p *StateFile, opts sim.SummaryOptions) error {
	if f.Kind != KindCheckpoint {
		return fmt.Errorf("not a checkpoint (a %s state)", f.Kind)
	}
	if !f.Shard.same(p.Shard) {
		return fmt.Errorf("the checkpoint is of %s, this run of %s", shardName(f.Shard), shardName(p.Shard))
	}
	if f.Build != p.Build {
		return fmt.Errorf("the checkpoint was written by defersim %s, and this is %s: resume with the build that wrote it, or run again without --resume", f.Build, p.Build)
	}
	if d := runDiff(f, p, summaryOf(f), &opts); d != "" {
		return fmt.Errorf("the checkpoint was made by another run: it differs in %s; pass the same scenario, traces and flags", d)
	}
	return nil
}

// WriteState writes f to path atomically.
func WriteState(path string, f *StateFile) error {
	if f.State != nil {
		f.State.Complete() // a run's state may hold values back (sim.RunOptions.SummaryOnDemand)
	}
	return atomicfile.Write(path, 0o644, func(out *os.File) error {
		w := bufio.NewWriterSize(out, 1<<20)
		if _, err := io.WriteString(w, stateMagic); err != nil {
			return err
		}
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		enc := gob.NewEncoder(zw)
		if err := enc.Encode(stateHeader{Version: f.Version, Kind: f.Kind}); err != nil {
			return fmt.Errorf("encode state: %w", err)
		}
		if err := enc.Encode(withSortedMaps(f)); err != nil {
			return fmt.Errorf("encode state: %w", err)
		}
		if err := zw.Close(); err != nil {
			return err
		}
		return w.Flush()
	})
}

// ReadState reads a state file written by WriteState.
func ReadState(path string) (*StateFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read state: %w", err)
	}
	defer fh.Close()
	f, err := DecodeState(bufio.NewReaderSize(fh, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.path = path
	return f, nil
}

// DecodeState decodes a state file's content.
func DecodeState(r io.Reader) (*StateFile, error) {
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != stateMagic {
		return nil, errors.New("not a defersim state file (checkpoint or shard.bin)")
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("corrupt state file: %w", err)
	}
	dec := gob.NewDecoder(zr)
	var h stateHeader
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("corrupt state file: %w", err)
	}
	if h.Version != StateVersion {
		return nil, otherVersion(h)
	}
	var f StateFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("corrupt state file: %w", err)
	}
	if err := atEnd(dec); err != nil {
		return nil, err
	}
	restoreMaps(&f)
	if f.Version != StateVersion || f.Kind != h.Kind {
		return nil, errors.New("corrupt state file: its header and body differ")
	}
	if f.State == nil || (f.Kind != KindCheckpoint && f.Kind != KindShard) {
		return nil, errors.New("corrupt state file: no state")
	}
	if err := f.State.Check(f.Strategies, f.State.Options); err != nil {
		return nil, fmt.Errorf("corrupt state file: %w", err)
	}
	return &f, nil
}

// otherVersion explains that a state file of version h.Version cannot be
// read, and what to do instead.
func otherVersion(h stateHeader) error {
	what := fmt.Sprintf("written by another defersim build (state file version %d; this build reads version %d only", h.Version, StateVersion)
	if h.Version < StateVersion {
		what += fmt.Sprintf(": a version %d file lacks counts this build reports", h.Version)
	}
	switch h.Kind {
	case KindShard:
		return fmt.Errorf("%s); re-run that shard (defersim run --shard I/N) with this build, or merge with the build that wrote it", what)
	case KindCheckpoint:
		return fmt.Errorf("%s); run again without --resume, or resume with the build that wrote it", what)
	}
	return fmt.Errorf("%s)", what)
}

// atEnd checks that the gob stream ends after the StateFile: reading on to
// the end of the gzip stream is what verifies its checksum (gzip checks the
// CRC-32 and length of the data only at its end), so a file whose body was
// changed, or whose end was cut, is refused instead of decoded into other
// numbers. A gob stream that goes on holds data no build writes.
func atEnd(dec *gob.Decoder) error {
	var extra stateHeader
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
		return nil
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("corrupt state file: cut short (its end is missing)")
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
		return fmt.Errorf("corrupt state file: %w", err)
	default:
		return errors.New("corrupt state file: data after the state")
	}
}

// shardName is "shard I/N", or "the whole run" (no --shard, or 0/1).
func shardName(s Shard) string {
	if s.Whole() {
		return "the whole run"
	}
	return "shard " + s.String()
}

// resamples is the number of bootstrap resamples a run's Bootstrap draws
// (report.BuildOptions): 0 is report.DefaultBootstrap, any negative value
// none (-1). Runs that draw the same are the same run: `--bootstrap 1000`
// and no flag give the same results.
func resamples(n int) int {
	switch {
	case n == 0:
		return report.DefaultBootstrap
	case n < 0:
		return -1
	}
	return n
}

// thisBuild names the running defersim build, as StateFile.Build does.
func thisBuild() string {
	v := version.Get()
	return v.Product + " " + v.Go
}
