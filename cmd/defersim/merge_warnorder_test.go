package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
)

// TestMergeWarnsAsRun pins that merge prints a run's warnings in run's
// order: merge deferred its warning calls, so they came in reverse (the
// recommended_for warning before the unmatched entries and the context
// window), unlike the whole run over the same sessions. A merge of three
// shards now prints stderr identical to the whole run's, and run's order
// is input notes, unmatched entries, unreplayed entries, context window,
// unreplayed catalog versions, recommended_for.
func TestMergeWarnsAsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions four times")
	}
	dir := t.TempDir()
	sc := filepath.Join(dir, "warns.yaml")
	yaml := "name: warns\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\n" +
		"model: {preset: claude-sonnet-4.5, context_window: 8000}\n" +
		"strategies:\n  - eager\n" +
		"  - {name: a, base: claude-code-default, never_defer: [screenshott], recommended_for: {model: gpt-4o}}\n"
	if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(out string, extra ...string) string {
		t.Helper()
		args := append([]string{"run", sc, "--catalogs", "embedded:catalog", "-q", "--no-report", "--bootstrap", "-1", "-o", out}, extra...)
		stdout, stderr, code := cliRun(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		return stderr
	}
	whole := run(filepath.Join(dir, "whole"))
	var shards []string
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		out := filepath.Join(dir, "shard"+s[:1])
		run(out, "--shard", s)
		shards = append(shards, out)
	}
	stdout, merged, code := cliRun(t, append([]string{"merge", "-q", "--no-report", filepath.Join(dir, "merged")}, shards...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, merged)
	}

	// The warnings the scenario triggers, in run's order.
	want := []string{
		"defersim: warning: the scenario names tools or servers the run's catalogs do not have",
		"defersim: warning: requests over the context window:",
		"defersim: warning: Strategy a was recommended for model gpt-4o",
	}
	var got []string
	for _, l := range strings.Split(whole, "\n") {
		if strings.HasPrefix(l, "defersim: warning: ") {
			got = append(got, l)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("run: %d warnings, want %d:\n%s", len(got), len(want), whole)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("run: warning %d is %q, want it to start %q", i+1, got[i], w)
		}
	}
	if merged != whole {
		t.Errorf("merge of 3 shards: stderr differs from the whole run's\nmerge:\n%s\nrun:\n%s", merged, whole)
	}
}

// TestSweepWarnsInRunsOrder pins that sweep prints the run's warnings in
// run's order, as TestMergeWarnsAsRun pins for merge: sweep deferred each
// warning call, so they came in reverse (recommended_for first, then the
// unmatched entries, the input notes and the context window last); and
// sweep never said the catalog versions no session replayed, which run
// says (a trace over old catalogs replayed against old and a newer
// version). sweep now ends with run's helper (runWarnings).
func TestSweepWarnsInRunsOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions twice")
	}
	dir := t.TempDir()
	sc := filepath.Join(dir, "warns.yaml")
	yaml := "name: warns\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\n" +
		"model: {preset: claude-sonnet-4.5, context_window: 8000}\n" +
		"strategies:\n  - eager\n" +
		"  - {name: a, base: claude-code-default, never_defer: [screenshott], recommended_for: {model: gpt-4o}}\n"
	if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	up := upgradeFixture(t)
	tests := []struct {
		name string
		args []string
		want []string
		line string // a line of the warnings' that must be there too
	}{
		{"scenario", []string{sc, "--catalogs", "embedded:catalog"}, []string{
			"defersim: warning: the scenario names tools or servers the run's catalogs do not have",
			"defersim: warning: requests over the context window in the sweep:",
			"defersim: warning: at every value: Strategy a was recommended for model gpt-4o",
		}, ""},
		{"unreplayed version", []string{"--traces", filepath.Join(up, "gen", "trace.jsonl.gz"), "--catalogs", filepath.Join(up, "cat", "both"), "--strategies", "eager,claude-code-default"}, []string{
			"defersim: warning: catalog versions no session replayed",
		}, "  chrome-devtools-mcp 1.11.0 (the sessions replayed 0.17.0; to replay it, add servers.chrome-devtools-mcp.upgrades"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"sweep"}, tc.args...)
			args = append(args, "-q", "--bootstrap", "-1", "--param", "strategy.warm.max_tools=2:4:2",
				"-o", filepath.Join(dir, tc.name), "--format", "csv")
			stdout, stderr, code := cliRun(t, args...)
			if code != 0 {
				t.Fatalf("sweep: exit %d\n%s%s", code, stdout, stderr)
			}
			var got []string
			for _, l := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(l, "defersim: warning: ") {
					got = append(got, l)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d warnings, want %d:\n%s", len(got), len(tc.want), stderr)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("warning %d is %q, want it to start %q", i+1, got[i], w)
				}
			}
			if !strings.Contains(stderr, "\n"+tc.line) {
				t.Errorf("stderr lacks the line %q:\n%s", tc.line, stderr)
			}
		})
	}
}

// TestMergeExitsOnShardsSkippedSessions pins what 839160f claimed without
// a test: merge lists the sessions a shard failed to replay and exits 1,
// as run does (skippedSessions). A shard's state is given one failed
// session (a RunState failure, as a replay error records it); the merge
// lists it as "defersim: skipped …" and exits 1, and a merge of the
// shards as written exits 0.
func TestMergeExitsOnShardsSkippedSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions twice")
	}
	dir := t.TempDir()
	var shards []string
	for _, s := range []string{"0/2", "1/2"} {
		out := filepath.Join(dir, "shard"+s[:1])
		args := []string{"run", "--catalogs", "embedded:catalog", "--strategies", "eager", "-q", "--no-report", "--bootstrap", "-1", "--shard", s, "-o", out}
		if stdout, stderr, code := cliRun(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		shards = append(shards, out)
	}
	merge := func(name string) (string, int) {
		t.Helper()
		_, stderr, code := cliRun(t, append([]string{"merge", "-q", "--no-report", filepath.Join(dir, name)}, shards...)...)
		return stderr, code
	}
	if stderr, code := merge("clean"); code != 0 || strings.Contains(stderr, "defersim: skipped") {
		t.Fatalf("merge of the shards as written: exit %d, want 0 and no skipped line\n%s", code, stderr)
	}

	path := filepath.Join(shards[1], runner.ShardFile)
	f, err := runner.ReadState(path)
	if err != nil {
		t.Fatal(err)
	}
	const msg = "session s-broken: internal error (please report): validator bug"
	f.State.Replayed--
	f.State.Skipped++
	f.State.Failures = append(f.State.Failures, sim.IndexedFailure{Index: 3, Msg: msg + "\ngoroutine 7 [running]:"})
	if err := runner.WriteState(path, f); err != nil {
		t.Fatal(err)
	}
	stderr, code := merge("failed")
	if code != 1 {
		t.Errorf("merge with a shard's failed session: exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{"defersim: skipped " + msg + "\n", "1 session failed to replay and was skipped (see above); results cover the rest"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("merge stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "goroutine") {
		t.Errorf("merge listed more than the failure's first line:\n%s", stderr)
	}
}
