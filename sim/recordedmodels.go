package sim

import (
	"cmp"
	"slices"
)

// MaxRecordedModels bounds the recorded model names a run counts
// sessions by: the MaxRecordedModels smallest names (bytewise) keep their
// counts, and the sessions of every other name are counted together
// (RecordedModels.Other), so that a trace whose model names are unique
// per session (a timestamp or deployment id in the name) does not grow
// the run's state. Keeping the smallest names is exact under shards,
// merges and resumes: a name among the smallest of the whole run is among
// the smallest of every part it occurs in, so every part keeps its full
// count.
const MaxRecordedModels = 64

// ModelCount is how many sessions record one model in their session_start.
type ModelCount struct {
	Model    string
	Sessions int64
	// Scenario says Model is the run's model (Config.RunModel), for the
	// count of Other sessions of the run's model once Model is dropped.
	Scenario bool
}

// RecordedModels counts sessions by the model their session_start records
// ("" for a session_start naming none): the MaxRecordedModels smallest
// names, sorted by name, so that it encodes and merges the same whatever
// the order sessions came in, and the sessions of other names.
type RecordedModels struct {
	Names []ModelCount
	// Other counts the sessions whose model is not in Names (beyond
	// MaxRecordedModels names); OtherScenario those of them whose model is
	// the run's.
	Other, OtherScenario int64
}

// add counts n sessions recording model; scenario says model is the
// run's.
func (m *RecordedModels) add(model string, n int64, scenario bool) {
	i, ok := slices.BinarySearchFunc(m.Names, model, func(c ModelCount, t string) int { return cmp.Compare(c.Model, t) })
	switch {
	case ok:
		m.Names[i].Sessions += n
		return
	case i >= MaxRecordedModels:
		m.addOther(n, scenario)
		return
	}
	m.Names = slices.Insert(m.Names, i, ModelCount{Model: model, Sessions: n, Scenario: scenario})
	if last := len(m.Names) - 1; last >= MaxRecordedModels {
		m.addOther(m.Names[last].Sessions, m.Names[last].Scenario)
		m.Names = m.Names[:last]
	}
}

func (m *RecordedModels) addOther(n int64, scenario bool) {
	m.Other += n
	if scenario {
		m.OtherScenario += n
	}
}

// merge adds o's counts to m.
func (m *RecordedModels) merge(o RecordedModels) {
	for _, c := range o.Names {
		m.add(c.Model, c.Sessions, c.Scenario)
	}
	m.Other += o.Other
	m.OtherScenario += o.OtherScenario
}

// Total is the number of sessions counted.
func (m RecordedModels) Total() int64 {
	n := m.Other
	for _, c := range m.Names {
		n += c.Sessions
	}
	return n
}
