package sim

import (
	"cmp"
	"fmt"
)

// MaxResolutionTools bounds the keys Resolution.Tools,
// Resolution.Ambiguities and Resolution.MissingVersions each hold: the MaxResolutionTools smallest keys
// (CompareToolClass, CompareAmbiguity) keep their counts, and the calls of
// every other key are counted together (Resolution.ToolsBeyond by class,
// Resolution.AmbiguousBeyond, Resolution.MissingVersionsBeyond), so that a trace of many distinct unknown
// tools does not grow the run's state. Keeping the smallest keys is exact
// under shards, merges and resumes, whatever order the parts saw their
// calls in: a key among the smallest of the whole run is among the
// smallest of every part it occurs in, so every part keeps its full count
// (as MaxRecordedModels).
const MaxResolutionTools = 4096

// BeyondToolsText names, after a count of calls, the tools beyond those a
// run tells apart (Resolution.ToolsBeyond, Resolution.AmbiguousBeyond).
var BeyondToolsText = fmt.Sprintf("further tools, beyond the first %d (bytewise) a run tells apart, counted together", MaxResolutionTools)

// CompareToolClass orders the keys of Resolution.Tools: by server, tool,
// then class, bytewise.
func CompareToolClass(a, b ToolClass) int {
	return cmp.Or(cmp.Compare(a.Server, b.Server), cmp.Compare(a.Tool, b.Tool), cmp.Compare(a.Class, b.Class))
}

// CompareAmbiguity orders the keys of Resolution.Ambiguities: by tool
// name, then servers, bytewise.
func CompareAmbiguity(a, b Ambiguity) int {
	return cmp.Or(cmp.Compare(a.Tool, b.Tool), cmp.Compare(a.Servers, b.Servers))
}

// ClassCalls counts calls by the classes Resolution.Tools keys.
type ClassCalls struct {
	SchemaApproximate, SchemaMissing, UnknownTool, UnknownServer, VersionMissing int64
}

func (c *ClassCalls) add(class string, n int64) {
	switch class {
	case ClassSchemaApproximate:
		c.SchemaApproximate += n
	case ClassSchemaMissing:
		c.SchemaMissing += n
	case ClassUnknownTool:
		c.UnknownTool += n
	case ClassUnknownServer:
		c.UnknownServer += n
	case ClassVersionMissing:
		c.VersionMissing += n
	}
}

func (c *ClassCalls) merge(o ClassCalls) {
	c.SchemaApproximate += o.SchemaApproximate
	c.SchemaMissing += o.SchemaMissing
	c.UnknownTool += o.UnknownTool
	c.UnknownServer += o.UnknownServer
	c.VersionMissing += o.VersionMissing
}

// Of sums the calls of classes.
func (c ClassCalls) Of(classes ...string) int64 {
	var n int64
	for _, class := range classes {
		switch class {
		case ClassSchemaApproximate:
			n += c.SchemaApproximate
		case ClassSchemaMissing:
			n += c.SchemaMissing
		case ClassUnknownTool:
			n += c.UnknownTool
		case ClassUnknownServer:
			n += c.UnknownServer
		case ClassVersionMissing:
			n += c.VersionMissing
		}
	}
	return n
}

// boundedAdd adds n to m[k], keeping in m the MaxResolutionTools smallest
// keys under compare; *largest is m's largest key once m is full. When m
// is full and k is new, the largest of k and m's keys is left out:
// boundedAdd returns it and its count, with ok. Only a key smaller than
// *largest costs a pass over m.
func boundedAdd[K comparable](m map[K]int64, largest *K, k K, n int64, compare func(a, b K) int) (out K, outN int64, ok bool) {
	if _, seen := m[k]; seen || len(m) < MaxResolutionTools {
		m[k] += n
		if !seen && len(m) == MaxResolutionTools {
			*largest = maxKey(m, compare)
		}
		return out, 0, false
	}
	if compare(k, *largest) > 0 {
		return k, n, true
	}
	out, outN = *largest, m[*largest]
	delete(m, out)
	m[k] = n
	*largest = maxKey(m, compare)
	return out, outN, true
}

// maxKey returns the largest key of m under compare.
func maxKey[K comparable](m map[K]int64, compare func(a, b K) int) K {
	var best K
	first := true
	for k := range m {
		if first || compare(k, best) > 0 {
			best, first = k, false
		}
	}
	return best
}
