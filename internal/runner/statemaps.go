package runner

import (
	"maps"
	"slices"

	"github.com/defersim/defersim/sim"
)

// sortedMaps holds a StateFile's maps as slices sorted by key. gob writes
// a map in Go's map order, which changes from run to run, so a state
// file encoded with its maps in place differed in bytes between two runs
// of the same inputs (shard.bin, checkpoints) whenever a map was not
// empty (skip reasons, the calls counted by tool and class, or by
// requested version). WriteState
// encodes them here instead, and DecodeState puts them back; a file
// written before holds them in place, which decodes as it did.
type sortedMaps struct {
	InfoSkipReasons   []stringCount
	ReaderSkipReasons []stringCount
	Tools             []toolCount
	Ambiguities       []ambiguityCount
	StateTools        []toolCount
	StateAmbiguities  []ambiguityCount
	// MissingVersions and StateMissingVersions: since state version 5.
	MissingVersions      []versionCount
	StateMissingVersions []versionCount
	// MissingServers and StateMissingServers: since state version 7.
	MissingServers      []versionCount
	StateMissingServers []versionCount
	// StateVersionsReplayed: since state version 17 (the run info's is
	// nil: its summary names what follows from it).
	StateVersionsReplayed []versionCount
}

type versionCount struct {
	Key sim.ServerVersion
	N   int64
}

type stringCount struct {
	Key string
	N   int
}

type toolCount struct {
	Key sim.ToolClass
	N   int64
}

type ambiguityCount struct {
	Key sim.Ambiguity
	N   int64
}

// withSortedMaps returns a copy of f whose maps are nil and listed, sorted,
// in its Maps (f is not changed).
func withSortedMaps(f *StateFile) *StateFile {
	c := *f
	m := &sortedMaps{}
	for _, k := range slices.Sorted(maps.Keys(f.Info.Counts.SkipReasons)) {
		m.InfoSkipReasons = append(m.InfoSkipReasons, stringCount{k, f.Info.Counts.SkipReasons[k]})
	}
	c.Info.Counts.SkipReasons = nil
	for _, k := range slices.Sorted(maps.Keys(f.Reader.SkipReasons)) {
		m.ReaderSkipReasons = append(m.ReaderSkipReasons, stringCount{k, f.Reader.SkipReasons[k]})
	}
	c.Reader.SkipReasons = nil
	if r := f.Info.Resolution; r != nil {
		m.Tools, m.Ambiguities, m.MissingVersions = sortedResolution(&r.Resolution)
		m.MissingServers = sortedVersions(r.MissingServers)
		rc := *r
		rc.Tools, rc.Ambiguities, rc.MissingVersions, rc.MissingServers = nil, nil, nil, nil
		c.Info.Resolution = &rc
	}
	if st := f.State; st != nil {
		m.StateTools, m.StateAmbiguities, m.StateMissingVersions = sortedResolution(&st.Resolution)
		m.StateMissingServers = sortedVersions(st.Resolution.MissingServers)
		m.StateVersionsReplayed = sortedVersions(st.Resolution.VersionsReplayed)
		sc := *st
		sc.Resolution.Tools, sc.Resolution.Ambiguities, sc.Resolution.MissingVersions, sc.Resolution.MissingServers = nil, nil, nil, nil
		sc.Resolution.VersionsReplayed = nil
		c.State = &sc
	}
	c.Maps = m
	return &c
}

// restoreMaps puts the maps a file listed in Maps back in place.
func restoreMaps(f *StateFile) {
	m := f.Maps
	f.Maps = nil
	if m == nil {
		return
	}
	for _, e := range m.InfoSkipReasons {
		if f.Info.Counts.SkipReasons == nil {
			f.Info.Counts.SkipReasons = map[string]int{}
		}
		f.Info.Counts.SkipReasons[e.Key] = e.N
	}
	for _, e := range m.ReaderSkipReasons {
		if f.Reader.SkipReasons == nil {
			f.Reader.SkipReasons = map[string]int{}
		}
		f.Reader.SkipReasons[e.Key] = e.N
	}
	if r := f.Info.Resolution; r != nil {
		restoreResolution(&r.Resolution, m.Tools, m.Ambiguities, m.MissingVersions)
		r.MissingServers = restoreVersions(m.MissingServers)
	}
	if st := f.State; st != nil {
		restoreResolution(&st.Resolution, m.StateTools, m.StateAmbiguities, m.StateMissingVersions)
		st.Resolution.MissingServers = restoreVersions(m.StateMissingServers)
		st.Resolution.VersionsReplayed = restoreVersions(m.StateVersionsReplayed)
	}
}

// sortedResolution lists r's maps sorted by key.
func sortedResolution(r *sim.Resolution) (tools []toolCount, ambiguities []ambiguityCount, versions []versionCount) {
	for k, n := range r.Tools {
		tools = append(tools, toolCount{k, n})
	}
	slices.SortFunc(tools, func(a, b toolCount) int { return sim.CompareToolClass(a.Key, b.Key) })
	for k, n := range r.Ambiguities {
		ambiguities = append(ambiguities, ambiguityCount{k, n})
	}
	slices.SortFunc(ambiguities, func(a, b ambiguityCount) int { return sim.CompareAmbiguity(a.Key, b.Key) })
	return tools, ambiguities, sortedVersions(r.MissingVersions)
}

// sortedVersions lists a map keyed by server version sorted by key.
func sortedVersions(m map[sim.ServerVersion]int64) []versionCount {
	var out []versionCount
	for k, n := range m {
		out = append(out, versionCount{k, n})
	}
	slices.SortFunc(out, func(a, b versionCount) int { return sim.CompareServerVersion(a.Key, b.Key) })
	return out
}

// restoreVersions is the map sortedVersions listed (nil for none).
func restoreVersions(list []versionCount) map[sim.ServerVersion]int64 {
	var m map[sim.ServerVersion]int64
	for _, e := range list {
		if m == nil {
			m = map[sim.ServerVersion]int64{}
		}
		m[e.Key] = e.N
	}
	return m
}

// restoreResolution puts listed counts back into r's maps.
func restoreResolution(r *sim.Resolution, tools []toolCount, ambiguities []ambiguityCount, versions []versionCount) {
	for _, e := range tools {
		if r.Tools == nil {
			r.Tools = map[sim.ToolClass]int64{}
		}
		r.Tools[e.Key] = e.N
	}
	for _, e := range ambiguities {
		if r.Ambiguities == nil {
			r.Ambiguities = map[sim.Ambiguity]int64{}
		}
		r.Ambiguities[e.Key] = e.N
	}
	r.MissingVersions = restoreVersions(versions)
}
