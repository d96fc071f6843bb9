package sim

import (
	"cmp"
	"slices"
)

// ModelCount is how many sessions record one model in their session_start.
type ModelCount struct {
	Model    string
	Sessions int64
}

// RecordedModels counts sessions by the model their session_start records
// ("" for a session_start naming none), sorted by model, so that it
// encodes and merges the same whatever the order sessions came in.
type RecordedModels []ModelCount

// add counts n sessions recording model.
func (m *RecordedModels) add(model string, n int64) {
	i, ok := slices.BinarySearchFunc(*m, model, func(c ModelCount, t string) int { return cmp.Compare(c.Model, t) })
	if ok {
		(*m)[i].Sessions += n
		return
	}
	*m = slices.Insert(*m, i, ModelCount{Model: model, Sessions: n})
}

// merge adds o's counts to m.
func (m *RecordedModels) merge(o RecordedModels) {
	for _, c := range o {
		m.add(c.Model, c.Sessions)
	}
}

// Total is the number of sessions counted.
func (m RecordedModels) Total() int64 {
	var n int64
	for _, c := range m {
		n += c.Sessions
	}
	return n
}
