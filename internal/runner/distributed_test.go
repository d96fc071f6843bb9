package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// splitTrace writes the sessions of the trace at path into two files (the
// first n, then the rest) and returns their paths.
func splitTrace(t *testing.T, path string, n int) []string {
	t.Helper()
	sessions, _, err := traces.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out []string
	for i, part := range [][]*traces.Session{sessions[:n], sessions[n:]} {
		p := filepath.Join(dir, []string{"a.jsonl", "b.jsonl.gz"}[i])
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w := traces.NewWriter(f, i == 1)
		for _, s := range part {
			if err := w.WriteSession(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestDistributedEqualsRun pins the entry point the Beam pipeline uses:
// reading the traces elsewhere, replaying the sessions in batches (each
// at its stream index), merging the batches' states in any order and
// finishing gives byte-identical results.json to Run — across two trace
// files, with an upgrade that depends on the stream index, with every
// session kept and with streamed statistics.
func TestDistributedEqualsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a generated trace several times")
	}
	for _, tc := range []struct {
		name  string
		exact int
		batch int
	}{
		{"exact, batches of 7", 0, 7},
		{"streamed, batches of 16", 20, 16},
		{"one batch", 0, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, shardStrategies, 60)
			cfg.Traces = PathSources(splitTrace(t, cfg.Traces[0].Path, 23)...)
			cfg.ExactSessions = tc.exact
			cat, err := LoadCatalogs(cfg.Catalogs)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range cat.ServerNames() {
				if all := catalogVersions(cat.All(), name); len(all) > 1 {
					cfg.Upgrades = append(cfg.Upgrades, sim.Upgrade{Server: name, To: all[len(all)-1], AfterSession: 31})
					break
				}
			}
			if len(cfg.Upgrades) == 0 {
				t.Fatal("the generated catalog has no server in two versions")
			}
			single, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			d, err := NewDistributed(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var parts []*sim.RunState
			var read []TraceRead
			var idx int64
			for _, src := range cfg.Traces {
				sessions, counts, err := traces.ReadAll(src.Path)
				if err != nil {
					t.Fatal(err)
				}
				data, err := os.ReadFile(src.Path)
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(data)
				read = append(read, TraceRead{Input: TraceInput(src.Path, hex.EncodeToString(sum[:]), int64(len(data))),
					Counts: counts, Sessions: int64(len(sessions))})
				for i := 0; i < len(sessions); i += tc.batch {
					batch := sessions[i:min(i+tc.batch, len(sessions))]
					st, err := d.ReplayBatch(context.Background(), idx+int64(i), batch, 2)
					if err != nil {
						t.Fatal(err)
					}
					parts = append(parts, st)
				}
				idx += int64(len(sessions))
			}
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
			merged, err := d.NewState()
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range parts {
				if err := merged.Merge(p); err != nil {
					t.Fatal(err)
				}
			}
			out, err := d.Finish(context.Background(), merged, read, 1)
			if err != nil {
				t.Fatal(err)
			}
			want, got := resultsBytes(t, single), resultsBytes(t, out)
			if !bytes.Equal(want, got) {
				t.Fatalf("distributed results differ from Run's:\n%s", cmp.Diff(string(want), string(got)))
			}
		})
	}
}

// catalogVersions lists the versions of server in servers, in order.
func catalogVersions(servers []*catalog.Server, name string) []string {
	var out []string
	for _, s := range servers {
		if s.Name == name {
			out = append(out, s.Version)
		}
	}
	return out
}

// BenchmarkReplayBatchOffset measures what a batch's stream offset costs
// ReplayBatch: the engine walks that many placeholder sessions before the
// batch (docs/beam.md). ns/op of first=1000000 minus first=0, divided by
// a million, is the cost of one placeholder.
func BenchmarkReplayBatchOffset(b *testing.B) {
	t := &testing.T{}
	cfg := smallConfig(t, shardStrategies[:1], 1)
	d, err := NewDistributed(cfg)
	if err != nil {
		b.Fatal(err)
	}
	sessions, _, err := traces.ReadAll(cfg.Traces[0].Path)
	if err != nil {
		b.Fatal(err)
	}
	for _, first := range []int64{0, 1_000_000} {
		b.Run("first="+strconv.FormatInt(first, 10), func(b *testing.B) {
			for b.Loop() {
				if _, err := d.ReplayBatch(context.Background(), first, sessions, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
