package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeSaysWhatAnArgumentIs pins the messages of merge for an
// argument that is not a shard's output directory. Before, each was Go's
// "read state: open DIR/shard.bin: no such file or directory" (or "not a
// directory"), which neither said what DIR was nor what to pass: a whole
// run's output, an empty directory, a file, a shard.bin given itself, a
// shard whose shard.bin is gone, and the checkpoint of an interrupted
// shard or whole run.
func TestMergeSaysWhatAnArgumentIs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "20")
	base := t.TempDir()
	dir := func(name string) string { return filepath.Join(base, name) }
	run := func(ctx context.Context, out string, extra ...string) {
		t.Helper()
		args := append([]string{"run", "-q", "--traces", trace, "--catalogs", cat, "--strategies", "eager,claude-code-default",
			"--bootstrap", "-1", "--no-report", "-o", out}, extra...)
		if msg, code := runCLIContext(t, ctx, args...); (code == 0) != (ctx.Err() == nil) {
			t.Fatalf("run %v: exit %d\n%s", extra, code, msg)
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	run(context.Background(), dir("whole"))
	run(context.Background(), dir("s0"), "--shard", "0/2")
	run(context.Background(), dir("s1"), "--shard", "1/2")
	run(context.Background(), dir("gone"), "--shard", "1/2")
	if err := os.Remove(filepath.Join(dir("gone"), "shard.bin")); err != nil {
		t.Fatal(err)
	}
	run(cancelled, dir("cut-shard"), "--shard", "1/2")
	run(cancelled, dir("cut-whole"))
	if err := os.Mkdir(dir("empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir("file.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		arg  string
		want string
	}{
		{dir("whole"), dir("whole") + " has no shard.bin: it is a whole run's output (its results.json covers every session and needs no merge); merge reads the output directory of each shard of one run (defersim run --shard I/N -o DIR)"},
		{dir("empty"), dir("empty") + " has no shard.bin: it is empty; merge reads"},
		{dir("missing"), dir("missing") + " does not exist; merge reads"},
		{dir("file.txt"), dir("file.txt") + " is a file, not a directory; merge reads"},
		{filepath.Join(dir("s1"), "shard.bin"), filepath.Join(dir("s1"), "shard.bin") + " is a shard's state file: pass its directory, " + dir("s1")},
		{dir("gone"), dir("gone") + " has no shard.bin: it holds the results of shard 1/2 without its state (removed since?): run that shard again (defersim run --shard 1/2 -o " + dir("gone") + ")"},
		{dir("cut-shard"), dir("cut-shard") + " has no shard.bin: it holds the checkpoint of shard 1/2, interrupted: resume it (defersim run with the same scenario and flags and --resume " + dir("cut-shard") + "), then merge it with the other shards"},
		{dir("cut-whole"), dir("cut-whole") + " has no shard.bin: it holds the checkpoint of an interrupted whole run: resume it (defersim run with the same scenario and flags and --resume " + dir("cut-whole") + "); a whole run needs no merge"},
	} {
		t.Run(filepath.Base(tc.arg), func(t *testing.T) {
			out, code := runCLI(t, "merge", dir("out"), dir("s0"), tc.arg)
			if code != 2 || !strings.Contains(out, "merge: "+tc.want) {
				t.Errorf("merge … %s: exit %d, want 2 and %q in\n%s", tc.arg, code, tc.want, out)
			}
			if strings.Contains(out, "read state: open") {
				t.Errorf("merge … %s still prints Go's open error:\n%s", tc.arg, out)
			}
		})
	}
	// The shards themselves still merge.
	if out, code := runCLI(t, "merge", dir("out"), dir("s0"), dir("s1")); code != 0 {
		t.Fatalf("merge of both shards: exit %d\n%s", code, out)
	}
}
