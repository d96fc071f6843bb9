package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	var ex exitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ex):
		return out.String(), ex.code
	default:
		return out.String() + err.Error(), 2
	}
}

// TestDefaultRun pins that `defersim` with no arguments replays the embedded
// default and writes the results, the report and the plots.
func TestDefaultRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	dir := t.TempDir()
	out, code := runCLI(t, "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, f := range []string{"results.json", "report.html", "report.md", "plots/first-reply-cdf.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing output %s: %v", f, err)
		}
	}
	if !strings.Contains(out, "replayed 350 of 350 sessions") {
		t.Errorf("summary lacks the session counts:\n%s", out)
	}
}

// TestRunFlags pins the overrides that let a user try presets without
// writing YAML, and the JSON summary.
func TestRunFlags(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := cliIn(t, nil, "run", "-o", dir, "--strategies", "eager,claude-code-default", "--no-report", "--format", "json", "--bootstrap", "-1")
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
	var s struct {
		Results    string
		Strategies map[string]map[string]float64 `json:"strategy_means"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("--format json output is not JSON: %v\n%s", err, out)
	}
	if len(s.Strategies) != 2 || s.Strategies["claude-code-default"]["searches"] <= 0 {
		t.Errorf("strategy means = %v, want eager and claude-code-default with searches", s.Strategies)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
		t.Errorf("--no-report wrote report.html")
	}
	if out, code := runCLI(t, "run", "-o", dir, "--strategies", "no-such-preset"); code == 0 || !strings.Contains(out, "no-such-preset") {
		t.Errorf("unknown strategy: exit %d, output %q", code, out)
	}
	if out, code := runCLI(t, "run", "-o", dir, "--traces", filepath.Join(dir, "missing.jsonl")); code == 0 || !strings.Contains(out, "missing.jsonl") {
		t.Errorf("missing trace: exit %d, output %q", code, out)
	}
}

// TestRunRefusesAKeyNoComponentReads pins, through the CLI, that a
// scenario writing a strategy key none of its strategy's components reads
// (search.k under exact select: it ran clean, exit 0) stops `run` and
// `sweep` with exit status 2 before anything is replayed, naming the
// strategy, the key, its value and why; the table of cases is runner
// TestScenarioKeysNoComponentReads.
func TestRunRefusesAKeyNoComponentReads(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "s.yaml")
	doc := "traces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies:\n  - eager\n  - {name: sel, trigger: {mode: always}, search: {mode: select, k: 9}}\n"
	if err := os.WriteFile(scen, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	want := `s.yaml:5: strategies[1].search.k: strategy "sel" sets search.k to 9, which none of its components reads: its ranker "select" reads no strategy key; search.k is read by ranker "bm25"`
	for _, args := range [][]string{
		{"run", scen, "-o", filepath.Join(dir, "run")},
		{"sweep", scen, "--param", "params.cold_call_prob=0:0.1:0.1", "-o", filepath.Join(dir, "sweep")},
	} {
		out, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, want 2 with %q:\n%s", args[0], code, want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "run", "results.json")); err == nil {
		t.Error("the refused run wrote results.json")
	}
}

// TestRunJSONSaysWhichShard pins that `run --format json` of a shard names
// it, as results.json does (run.shard): the summary gave the shard's
// strategy means with no word of which share of the sessions they cover.
// A whole run names none.
func TestRunJSONSaysWhichShard(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		shard bool
	}{
		{[]string{"--shard", "1/2"}, true},
		{nil, false},
	} {
		dir := t.TempDir()
		args := append([]string{"run", "-o", dir, "--strategies", "eager", "--no-report", "--format", "json", "--bootstrap", "-1"}, tc.args...)
		out, errs, code := cliIn(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d:\n%s%s", tc.args, code, out, errs)
		}
		var s struct {
			Shard *struct{ Index, Count int } `json:"shard"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		switch {
		case !tc.shard && s.Shard != nil:
			t.Errorf("whole run: shard %+v, want none", *s.Shard)
		case tc.shard && (s.Shard == nil || s.Shard.Index != 1 || s.Shard.Count != 2):
			t.Errorf("--shard 1/2: shard %+v, want index 1 of 2", s.Shard)
		}
	}
}
