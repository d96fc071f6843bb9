package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
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

// TestParamsNoStrategyReadsStopRunAndSweep pins that `run` of a scenario
// writing params.select_prob, which only a strategy that searches with a
// ranker reads, under strategies that never load a tool (eager) exits 2
// with the line and reason before anything is written, and that `sweep
// --param params.select_prob` with such strategies exits 2 before any
// point is replayed (both ran clean, changing nothing). When the file's
// own strategies read the key and --strategies eager replaced them, the
// run goes on and results.json states select_prob as not read.
func TestParamsNoStrategyReadsStopRunAndSweep(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	text := "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nparams:\n  select_prob: 0.9\nstrategies: [eager, claude-code-default]\n"
	if err := os.WriteFile(path, []byte(strings.Replace(text, "[eager, claude-code-default]", "[eager]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, "run", path, "-o", filepath.Join(dir, "run"), "-q", "--no-report")
	want := path + `:4: params.select_prob: 0.9 changes nothing: no strategy of the run reads it: strategy "eager": its trigger "never" never turns deferred mode on`
	if code != 2 || !strings.Contains(out, want) {
		t.Errorf("run: exit %d, output %q; want 2 and %q", code, out, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "run", "results.json")); err == nil {
		t.Error("run wrote results.json")
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runCLI(t, "run", path, "--strategies", "eager", "-o", filepath.Join(dir, "run2"), "-q", "--no-report"); code != 0 {
		t.Errorf("run --strategies eager over a file whose strategies read select_prob: exit %d\n%s", code, out)
	} else {
		res, err := report.ReadResults(filepath.Join(dir, "run2", "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(res.Run.Assumptions, func(a sim.Assumption) bool { return a.Name == "select_prob" })
		if i < 0 || res.Run.Assumptions[i].Value != "not read" || !strings.Contains(res.Run.Assumptions[i].Source, `strategy "eager"`) {
			t.Errorf("select_prob assumption %+v, want not read under eager", res.Run.Assumptions[max(i, 0)])
		}
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
