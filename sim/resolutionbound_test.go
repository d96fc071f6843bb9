package sim

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestResolutionMergeExact pins that the bounded resolution tables
// (Resolution.Tools, Resolution.Ambiguities, and since it was added
// Resolution.MissingVersions) are the same however the
// calls are split into parts and in whatever order parts and calls come
// (shards merged, resumed runs, Beam's combines): the MaxResolutionTools
// smallest keys with their full counts, the calls of the others counted
// together (by class for Tools). Before, each table kept the first keys
// it met, so which tools a merged run named depended on the split.
func TestResolutionMergeExact(t *testing.T) {
	type call struct {
		server, tool, class string
		servers             []string // an ambiguous call's registry servers
	}
	classes := []string{ClassUnknownTool, ClassUnknownServer, ClassVersionMissing, ClassSchemaApproximate, ClassSchemaMissing}
	var calls []call
	for i := range 2*MaxResolutionTools + 100 {
		c := call{server: fmt.Sprintf("s%d", i%3), tool: fmt.Sprintf("t%05d", i), class: classes[i%len(classes)]}
		if i%2 == 0 {
			c.servers = []string{"a", fmt.Sprintf("b%d", i%5)}
		}
		for range 1 + i%3 {
			calls = append(calls, c)
		}
	}
	file := func(r *Resolution, c call) {
		r.count(c.server, c.tool, c.class)
		if c.servers != nil {
			r.ambiguous(c.tool, c.servers)
		}
		// A requested version per tool, filed for the ambiguous calls (only
		// the table's bound is under test here): more than a run keeps.
		if c.servers != nil {
			r.addMissingVersion(ServerVersion{c.server, "v" + c.tool}, 1)
		}
	}
	var want Resolution
	for _, c := range calls {
		file(&want, c)
	}

	// One part: the smallest keys, with full counts, and the rest counted.
	if len(want.Tools) != MaxResolutionTools || len(want.Ambiguities) != MaxResolutionTools {
		t.Fatalf("one part keeps %d tools and %d ambiguities, want %d each", len(want.Tools), len(want.Ambiguities), MaxResolutionTools)
	}
	distinct := map[ToolClass]bool{}
	for _, c := range calls {
		distinct[ToolClass{c.server, c.tool, c.class}] = true
	}
	smallest := slices.SortedFunc(maps.Keys(distinct), CompareToolClass)[:MaxResolutionTools]
	if keys := slices.SortedFunc(maps.Keys(want.Tools), CompareToolClass); !slices.Equal(keys, smallest) {
		t.Fatalf("tools kept from %+v to %+v, want the smallest keys, %+v to %+v", keys[0], keys[len(keys)-1], smallest[0], smallest[len(smallest)-1])
	}
	var kept int64
	for _, n := range want.Tools {
		kept += n
	}
	all := []string{ClassUnknownTool, ClassUnknownServer, ClassVersionMissing, ClassSchemaApproximate, ClassSchemaMissing}
	if beyond := want.ToolsBeyond.Of(all...); beyond == 0 || kept+beyond != want.Calls-want.Resolved {
		t.Fatalf("tools: %d calls kept + %d beyond, want %d", kept, beyond, want.Calls-want.Resolved)
	}
	kept = 0
	for _, n := range want.Ambiguities {
		kept += n
	}
	if want.AmbiguousBeyond == 0 || kept+want.AmbiguousBeyond != want.Ambiguous {
		t.Fatalf("ambiguities: %d calls kept + %d beyond, want %d", kept, want.AmbiguousBeyond, want.Ambiguous)
	}
	kept = 0
	for _, n := range want.MissingVersions {
		kept += n
	}
	if len(want.MissingVersions) != MaxResolutionTools || want.MissingVersionsBeyond == 0 || kept+want.MissingVersionsBeyond != want.Ambiguous {
		t.Fatalf("missing versions: %d keys, %d calls kept + %d beyond, want %d keys, %d calls", len(want.MissingVersions), kept,
			want.MissingVersionsBeyond, MaxResolutionTools, want.Ambiguous)
	}

	for _, parts := range []int{2, 3, 7} {
		for seed := range uint64(3) {
			r := rand.New(rand.NewPCG(seed, uint64(parts)))
			split := make([]Resolution, parts)
			for _, i := range r.Perm(len(calls)) {
				file(&split[r.IntN(parts)], calls[i])
			}
			var got Resolution
			for _, p := range r.Perm(parts) {
				if len(split[p].Tools) > MaxResolutionTools || len(split[p].Ambiguities) > MaxResolutionTools || len(split[p].MissingVersions) > MaxResolutionTools {
					t.Fatalf("a part keeps %d tools, %d ambiguities", len(split[p].Tools), len(split[p].Ambiguities))
				}
				got.Merge(&split[p])
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%d parts, seed %d: merged tables differ from one part's (%d tools, beyond %+v; want %d, %+v; ambiguous beyond %d, want %d)",
					parts, seed, len(got.Tools), got.ToolsBeyond, len(want.Tools), want.ToolsBeyond, got.AmbiguousBeyond, want.AmbiguousBeyond)
			}
		}
	}
}
