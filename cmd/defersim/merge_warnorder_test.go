package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// unmatched entries, the input notes and the context window last).
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
	stdout, stderr, code := cliRun(t, "sweep", sc, "--catalogs", "embedded:catalog", "-q", "--bootstrap", "-1",
		"--param", "strategy.warm.max_tools=2:4:2", "-o", filepath.Join(dir, "sweep"), "--format", "csv")
	if code != 0 {
		t.Fatalf("sweep: exit %d\n%s%s", code, stdout, stderr)
	}
	want := []string{
		"defersim: warning: the scenario names tools or servers the run's catalogs do not have",
		"defersim: warning: requests over the context window in the sweep:",
		"defersim: warning: Strategy a was recommended for model gpt-4o",
	}
	var got []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "defersim: warning: ") {
			got = append(got, l)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d warnings, want %d:\n%s", len(got), len(want), stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("warning %d is %q, want it to start %q", i+1, got[i], w)
		}
	}
}
