package runner

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// smallState is a valid state file of two strategies and three sessions.
func smallState(t testing.TB) *StateFile {
	t.Helper()
	strategies := []sim.Strategy{{Name: "a"}, {Name: "b"}}
	st, err := sim.NewRunState(strategies, sim.SummaryOptions{ExactSessions: 2, EqualTolerance: 1e-9, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		st.AddSession(int64(i), "s", [][sim.NumMetrics]float64{{float64(i)}, {float64(2 * i)}})
	}
	return &StateFile{Version: StateVersion, Kind: KindShard, Strategies: strategies, Info: sim.RunInfo{Seed: 1}, State: st}
}

func encodeState(t testing.TB, f *StateFile) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), ShardFile)
	if err := WriteState(p, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// throughFile writes f and reads it back, as `defersim merge` and
// --resume read a state file.
func throughFile(t testing.TB, f *StateFile) *StateFile {
	t.Helper()
	p := filepath.Join(t.TempDir(), ShardFile)
	if err := WriteState(p, f); err != nil {
		t.Fatal(err)
	}
	got, err := ReadState(p)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestDecodeStateErrors(t *testing.T) {
	good := encodeState(t, smallState(t))
	if _, err := DecodeState(bytes.NewReader(good)); err != nil {
		t.Fatalf("valid state: %v", err)
	}
	other := smallState(t)
	other.Version = StateVersion + 1
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"empty", "not a defersim state file (checkpoint or shard.bin)", nil},
		{"results file", "not a defersim state file (checkpoint or shard.bin)", []byte(`{"schema_version":1}`)},
		{"truncated", "corrupt state file", good[:len(good)/2]},
		{"other version", fmt.Sprintf("written by another defersim build (state file version %d; this build reads version %d only)", StateVersion+1, StateVersion), encodeState(t, other)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeState(bytes.NewReader(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
}

// FuzzDecodeState checks that no input makes the state decoder panic, and
// that a state it accepts can be summarised.
func FuzzDecodeState(f *testing.F) {
	good := encodeState(f, smallState(f))
	f.Add(good)
	f.Add(good[:len(good)-8])
	f.Add([]byte(stateMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := DecodeState(bytes.NewReader(data))
		if err != nil {
			return
		}
		o := sf.State.Outcomes(sf.Strategies)
		if len(o.Values) != len(sf.Strategies) {
			t.Fatalf("outcomes of %d strategies for %d", len(o.Values), len(sf.Strategies))
		}
		_ = sf.State.FidelitySummary("a")
	})
}
