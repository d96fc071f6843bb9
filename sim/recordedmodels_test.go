package sim

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestRecordedModelsMergeExact pins that the bounded model counts are the
// same however the sessions are split into parts and in whatever order
// parts and sessions come (shards merged, resumed runs, Beam's combines):
// the MaxRecordedModels smallest names with their full counts, the rest
// counted together, split by whether they are the run's model.
func TestRecordedModelsMergeExact(t *testing.T) {
	var sessions []string
	for i := range 3 * MaxRecordedModels {
		for range 1 + i%3 {
			sessions = append(sessions, fmt.Sprintf("m-%04d", i))
		}
	}
	isRun := func(m string) bool { return strings.HasSuffix(m, "7") }
	var want RecordedModels
	for _, m := range sessions {
		want.add(m, 1, isRun(m))
	}
	if len(want.Names) != MaxRecordedModels || want.Names[0].Model != "m-0000" || want.Other == 0 || want.OtherScenario == 0 {
		t.Fatalf("one part: %d names from %q, %d other (%d the run's)", len(want.Names), want.Names[0].Model, want.Other, want.OtherScenario)
	}
	if want.Total() != int64(len(sessions)) {
		t.Fatalf("total %d, want %d", want.Total(), len(sessions))
	}
	for _, parts := range []int{2, 3, 7} {
		for seed := range uint64(5) {
			r := rand.New(rand.NewPCG(seed, uint64(parts)))
			order := r.Perm(len(sessions))
			split := make([]RecordedModels, parts)
			for _, i := range order {
				p := r.IntN(parts)
				split[p].add(sessions[i], 1, isRun(sessions[i]))
			}
			var got RecordedModels
			for _, p := range r.Perm(parts) {
				if len(split[p].Names) > MaxRecordedModels {
					t.Fatalf("a part keeps %d names", len(split[p].Names))
				}
				got.merge(split[p])
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%d parts, seed %d: merged %+v, want %+v", parts, seed, got, want)
			}
		}
	}
}
