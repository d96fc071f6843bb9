package runner

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// encodeV1 encodes f as builds of state file version 1 wrote it: the
// magic line, then the gzip'd gob of the StateFile alone (no header).
func encodeV1(t *testing.T, f *StateFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString(stateMagic)
	zw := gzip.NewWriter(&buf)
	if err := gob.NewEncoder(zw).Encode(withSortedMaps(f)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestStateOfOlderBuildRefused pins that a shard.bin or checkpoint written
// by an earlier build (state file version 1, which lacks the recorded
// models and sessions-by-timing counts) is refused, naming the file, its
// version and what to do, instead of being merged or resumed with those
// counts silently at zero.
func TestStateOfOlderBuildRefused(t *testing.T) {
	for _, tc := range []struct {
		kind, advice string
	}{
		{KindShard, "re-run that shard (defersim run --shard I/N) with this build"},
		{KindCheckpoint, "run again without --resume"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			f := smallState(t)
			f.Version, f.Kind = 1, tc.kind
			p := filepath.Join(t.TempDir(), ShardFile)
			if err := os.WriteFile(p, encodeV1(t, f), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadState(p)
			if err == nil {
				t.Fatal("a version 1 state file was read")
			}
			head := fmt.Sprintf("written by another defersim build (state file version 1; this build reads version %d only", StateVersion)
			for _, want := range []string{p + ": ", head, tc.advice} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}
