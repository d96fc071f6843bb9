package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParamsUnreadStopRunButNotASweepOfWhatReadsThem pins that `run` of a
// scenario writing params.nudge_tokens while nudge_prob is 0 exits 2 with
// the file, line and reason before anything is replayed, and that `sweep
// --param params.nudge_prob=…` over the same file, which reads it at every
// value above 0, runs.
func TestParamsUnreadStopRunButNotASweepOfWhatReadsThem(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps the embedded data")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	text := "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nparams:\n  nudge_tokens: 100\nstrategies: [eager, claude-code-default]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, "run", path, "-o", filepath.Join(dir, "run"), "-q", "--no-report")
	want := path + ":4: params.nudge_tokens: 100 changes nothing: params.nudge_prob is 0"
	if code != 2 || !strings.Contains(out, want) {
		t.Errorf("run: exit %d, output %q; want 2 and %q", code, out, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "run", "results.json")); err == nil {
		t.Error("run wrote results.json")
	}
	out, code = runCLI(t, "sweep", path, "--param", "params.nudge_prob=0:0.2:0.2", "-o", filepath.Join(dir, "sweep"), "-q", "--bootstrap", "-1")
	if code != 0 {
		t.Errorf("sweep of nudge_prob: exit %d, output %s", code, out)
	}
}

// TestParamsUnreadStopRecommendAndCalibrate pins that recommend and
// calibrate refuse, as run does, a scenario writing a param its other
// values leave unread (nudge_tokens with nudge_prob 0): both took the
// scenario's params and answered as if the value mattered.
func TestParamsUnreadStopRecommendAndCalibrate(t *testing.T) {
	dir := t.TempDir()
	if out, code := runCLI(t, "trace", "gen", "-o", dir, "--sessions", "20", "--seed", "3", "-q"); code != 0 {
		t.Fatalf("trace gen: exit %d: %s", code, out)
	}
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte("params:\n  nudge_tokens: 100\nstrategies: [eager, claude-code-default]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "trace.jsonl.gz")
	want := path + ":2: params.nudge_tokens: 100 changes nothing: params.nudge_prob is 0"
	for _, args := range [][]string{
		{"recommend", trace, "--scenario", path, "-q"},
		{"calibrate", trace, "--scenario", path, "-o", filepath.Join(dir, "cal.yaml"), "-q"},
	} {
		out, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, output %q; want 2 and %q", args[0], code, out, want)
		}
	}
}

// TestParamsNoStrategyReadsStopRunAndSweep pins that `run --strategies
// eager` of a scenario writing params.select_prob, which only a strategy
// that searches with a ranker reads, exits 2 with the line and reason
// before anything is written, and that `sweep --param params.select_prob`
// with the same strategies exits 2 before any point is replayed (both
// ran clean, changing nothing).
func TestParamsNoStrategyReadsStopRunAndSweep(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	text := "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nparams:\n  select_prob: 0.9\nstrategies: [eager, claude-code-default]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, "run", path, "--strategies", "eager", "-o", filepath.Join(dir, "run"), "-q", "--no-report")
	want := path + `:4: params.select_prob: 0.9 changes nothing: no strategy of the run reads it: strategy "eager": its trigger "never" never turns deferred mode on`
	if code != 2 || !strings.Contains(out, want) {
		t.Errorf("run: exit %d, output %q; want 2 and %q", code, out, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "run", "results.json")); err == nil {
		t.Error("run wrote results.json")
	}
	if err := os.WriteFile(path, []byte(strings.Replace(text, "params:\n  select_prob: 0.9\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runCLI(t, "sweep", path, "--strategies", "eager", "--param", "params.select_prob=0:1:0.5", "-o", filepath.Join(dir, "sweep"), "-q", "--bootstrap", "-1")
	want = `sweep params.select_prob changes nothing at any value: no strategy of the run reads it: strategy "eager"`
	if code != 2 || !strings.Contains(out, want) {
		t.Errorf("sweep: exit %d, output %q; want 2 and %q", code, out, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "sweep", "sweep.json")); err == nil {
		t.Error("sweep wrote sweep.json")
	}
}
