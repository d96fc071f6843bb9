package runner

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
)

// TestStateFileBytesAreDeterministic pins that the same state encodes to
// the same bytes: gob wrote its maps (skip reasons, calls counted by tool
// and class, ambiguous calls) in Go's random map order, so two runs of a
// shard over a trace with approximate schemas wrote different shard.bin
// files. The maps round-trip exactly, and through a merge.
func TestStateFileBytesAreDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	cfg := smallConfig(t, shardStrategies[:2], 20)
	cfg.Shard = Shard{Index: 0, Count: 2}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := out.State
	// Fill every map the state file holds, with enough keys that Go's map
	// order differs between encodings.
	f.Info.Counts.SkipReasons, f.Reader.SkipReasons = map[string]int{}, map[string]int{}
	if f.Info.Resolution == nil {
		f.Info.Resolution = &sim.ResolutionInfo{}
	}
	for _, r := range []*sim.Resolution{&f.Info.Resolution.Resolution, &f.State.Resolution} {
		r.Tools, r.Ambiguities = map[sim.ToolClass]int64{}, map[sim.Ambiguity]int64{}
	}
	for i := range 40 {
		k := fmt.Sprintf("k%02d", i)
		f.Info.Counts.SkipReasons[k] = i + 1
		f.Reader.SkipReasons[k] = i + 2
		for _, r := range []*sim.Resolution{&f.Info.Resolution.Resolution, &f.State.Resolution} {
			r.Tools[sim.ToolClass{Server: "s" + k, Tool: "t", Class: "schema_approximate"}] = int64(i + 3)
			r.Ambiguities[sim.Ambiguity{Tool: "t" + k, Servers: "a,b"}] = int64(i + 4)
		}
	}
	want := *f
	first := encodeState(t, f)
	for i := 1; i < 5; i++ {
		if !bytes.Equal(encodeState(t, f), first) {
			t.Fatalf("encoding %d of the same state differs in bytes from the first", i)
		}
	}
	got, err := DecodeState(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		x, y any
	}{
		{"run.counts skip reasons", want.Info.Counts.SkipReasons, got.Info.Counts.SkipReasons},
		{"reader skip reasons", want.Reader.SkipReasons, got.Reader.SkipReasons},
		{"run resolution tools", want.Info.Resolution.Tools, got.Info.Resolution.Tools},
		{"run resolution ambiguities", want.Info.Resolution.Ambiguities, got.Info.Resolution.Ambiguities},
		{"state resolution tools", want.State.Resolution.Tools, got.State.Resolution.Tools},
		{"state resolution ambiguities", want.State.Resolution.Ambiguities, got.State.Resolution.Ambiguities},
	} {
		if d := cmp.Diff(c.x, c.y); d != "" {
			t.Errorf("%s after a round trip (-want +got):\n%s", c.name, d)
		}
	}
	if got.Maps != nil {
		t.Error("the decoded state still holds its sorted maps")
	}
	if len(f.Info.Counts.SkipReasons) != 40 || len(f.State.Resolution.Tools) != 40 || f.Maps != nil {
		t.Error("WriteState changed the state it encoded")
	}
}
