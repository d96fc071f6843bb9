package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runSRDCmd runs "defersim srd ARGS..." and returns stdout and the exit status.
// runSRDCmd runs `defersim srd ARGS` and returns stdout (with stderr after
// it when the command fails: progress lines on stderr are not part of a
// report) and the exit status.
func runSRDCmd(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"srd"}, args...))
	err := root.Execute()
	var ex exitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ex):
		return out.String() + errb.String(), ex.code
	default:
		return err.Error(), 2
	}
}

func TestSRDLintCmd(t *testing.T) {
	lint := filepath.Join("..", "..", "srd", "testdata", "lint")
	out, code := runSRDCmd(t, "lint", filepath.Join(lint, "good.yaml"), "--catalogs", filepath.Join(lint, "catalogs"))
	if code != 0 || !strings.Contains(out, "2 SRDs, no problems") {
		t.Errorf("good.yaml: exit %d, output %q", code, out)
	}
	out, code = runSRDCmd(t, "lint", filepath.Join(lint, "rules.yaml"))
	if code != 1 || !strings.Contains(out, "rules.yaml:13: priority: 12 is out of bounds (0..10)") {
		t.Errorf("rules.yaml: exit %d, output %q", code, out)
	}
	if _, code := runSRDCmd(t, "lint", filepath.Join(lint, "missing.yaml")); code != 2 {
		t.Errorf("missing file: exit %d, want 2", code)
	}
	if _, code := runSRDCmd(t, "lint", filepath.Join(lint, "good.yaml"), "--catalogs", t.TempDir()); code != 2 {
		t.Errorf("empty catalog dir: exit %d, want 2", code)
	}
}

func TestSRDEvalCmd(t *testing.T) {
	eval := filepath.Join("..", "..", "internal", "retrieval", "testdata", "eval")
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"eval", "--set", filepath.Join(eval, "set.yaml"), "--catalogs", filepath.Join(eval, "catalogs"),
		"--srd", filepath.Join(eval, "srd"), "--rankers", "bm25", "--resamples", "50", "--counter", "bytes/4", "-o", dir}
	out, code := runSRDCmd(t, args...)
	if code != 0 || !strings.Contains(out, "| tool recall@5 |") {
		t.Fatalf("eval: exit %d, output %q", code, out)
	}
	for _, f := range []string{"results.json", "report.md", "recall_at_k.png", "recall_at_k.svg", "domain_recall_at_k.png", "domain_recall_at_k.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	first, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if _, code := runSRDCmd(t, args...); code != 0 {
		t.Fatal("second run failed")
	}
	second, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if !bytes.Equal(first, second) {
		t.Error("results.json differs between two identical runs")
	}
	js, code := runSRDCmd(t, append(args[:len(args)-2], "--format", "json")...)
	if code != 0 || !strings.Contains(js, `"schema": "defersim.srd-eval/v2"`) {
		t.Errorf("--json: exit %d, output %.200q", code, js)
	}
	for _, bad := range [][]string{
		{"eval"},
		{"eval", "--set", "nope"},
		{"eval", "--set", filepath.Join(eval, "set.yaml"), "--catalogs", filepath.Join(eval, "catalogs"), "--rankers", "nope"},
		{"eval", "--set", filepath.Join(eval, "set.yaml"), "--catalogs", filepath.Join(eval, "catalogs"), "--domain-weight", "2"},
	} {
		if _, code := runSRDCmd(t, bad...); code == 0 {
			t.Errorf("%v: exit 0", bad)
		}
	}
}

// TestSRDConvertCmd: the draft's example and its neighbour convert to v1
// files that lint clean; a set with lint problems converts nothing.
func TestSRDConvertCmd(t *testing.T) {
	draft := filepath.Join("..", "..", "srd", "testdata", "draft")
	dir := filepath.Join(t.TempDir(), "v1")
	out, code := runSRDCmd(t, "convert", filepath.Join(draft, "kb-internal.json"), filepath.Join(draft, "web-search.yaml"), "-o", dir)
	if code != 0 || !strings.Contains(out, "2 SRDs, 2 converted to v1") {
		t.Fatalf("convert: exit %d, output %q", code, out)
	}
	if out, code := runSRDCmd(t, "lint", dir); code != 0 || !strings.Contains(out, "2 SRDs, no problems") {
		t.Errorf("converted files: exit %d, output %q", code, out)
	}
	out, code = runSRDCmd(t, "convert", filepath.Join(draft, "kb-internal.json"), filepath.Join(draft, "web-search.yaml"))
	if code != 0 || strings.Count(out, "srd_version: 1") != 2 || !strings.Contains(out, "server: web-search") {
		t.Errorf("convert to stdout: exit %d, output %q", code, out)
	}
	out, code = runSRDCmd(t, "convert", draft)
	if code != 1 || !strings.Contains(out, "lonely.yaml:7: disambiguation: names no other domain") {
		t.Errorf("convert of a set with a problem: exit %d, output %q", code, out)
	}
}

// TestRunReadsSRDWithAToolOnlyOlderVersionsServe pins that run --srd reads
// an SRD whose group names a tool only an older catalog version serves
// (good.yaml's save_doc, served by acme-files@1.0.0 alone): srd lint warns
// of it, and the warning is no reason to stop a run (exit 2) that replays
// sessions of either version.
func TestRunReadsSRDWithAToolOnlyOlderVersionsServe(t *testing.T) {
	lint := filepath.Join("..", "..", "srd", "testdata", "lint")
	dir := t.TempDir()
	trace := `{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T10:00:00Z","servers":[{"name":"acme-files","version":"1.0.0"},{"name":"acme-chat","version":"1.0.0"}]}
{"type":"user","session":"s1","t":"2026-01-01T10:00:05Z","text":"store this text"}
{"type":"model_request","session":"s1","t":"2026-01-01T10:00:06Z","id":"r1","usage":{"input":100,"output":10}}
{"type":"tool_call","session":"s1","t":"2026-01-01T10:00:07Z","request":"r1","call_id":"c1","tool":"save_doc","server":"acme-files","status":"ok","args":{}}
{"type":"session_end","session":"s1","t":"2026-01-01T10:00:10Z"}
`
	tracePath := filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(tracePath, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := cliRun(t, "run", "--traces", tracePath, "--catalogs", filepath.Join(lint, "catalogs"),
		"--srd", filepath.Join(lint, "good.yaml"), "--strategies", "eager,claude-code-default", "-o", filepath.Join(dir, "out"), "--no-report", "--bootstrap", "-1")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
}
