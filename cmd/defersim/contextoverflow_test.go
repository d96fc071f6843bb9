package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// writeOverflowFixture writes, under dir, a catalog directory whose server
// "notes" holds a tool "dump" with a description of about words words,
// and a trace of two sessions that each call the other tool of that server
// once; it returns the catalog directory and the trace file.
func writeOverflowFixture(t *testing.T, dir string, words int) (cats, trace string) {
	t.Helper()
	cats = filepath.Join(dir, "catalogs")
	if err := os.MkdirAll(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	var desc strings.Builder
	for i := range words {
		fmt.Fprintf(&desc, "w%d ", i%997)
	}
	cat := map[string]any{"tools": []map[string]any{
		{"name": "echo", "description": "Echo a message.", "inputSchema": map[string]any{"type": "object",
			"properties": map[string]any{"message": map[string]any{"type": "string"}}, "required": []string{"message"}}},
		{"name": "dump", "description": desc.String(), "inputSchema": map[string]any{"type": "object"}},
	}}
	b, err := json.Marshal(cat)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cats, "notes@1.0.0.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range []string{"s1", "s2"} {
		lines = append(lines,
			`{"v":1,"type":"session_start","session":"`+s+`","t":"2026-01-01T10:00:00Z","servers":[{"name":"notes","version":"1.0.0"}]}`,
			`{"type":"user","session":"`+s+`","t":"2026-01-01T10:00:05Z","text":"echo hi"}`,
			`{"type":"model_request","session":"`+s+`","t":"2026-01-01T10:00:06Z","id":"r1","usage":{"input":100,"output":10}}`,
			`{"type":"tool_call","session":"`+s+`","t":"2026-01-01T10:00:07Z","request":"r1","call_id":"c1","tool":"echo","server":"notes","status":"ok","args":{"message":"hi"}}`,
			`{"type":"model_request","session":"`+s+`","t":"2026-01-01T10:00:08Z","id":"r2","usage":{"input":100,"output":10}}`,
			`{"type":"assistant","session":"`+s+`","t":"2026-01-01T10:00:09Z","request":"r2","text":"hi"}`,
			`{"type":"session_end","session":"`+s+`","t":"2026-01-01T10:00:10Z"}`)
	}
	trace = filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(trace, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return cats, trace
}

// TestRunSaysRequestsOverTheContextWindow pins that a run whose strategy
// sends requests larger than the model's context window (eager over a
// catalog holding one outsized tool, under claude-sonnet-4.5's 200,000
// tokens) says so: a note on stderr naming the outsized tool, a warning
// naming the strategy, its requests, sessions and largest input, the
// field strategies[].context_overflow in results.json (equal after a
// merge of shards), a finding in report.md, a warning from merge, and one
// from check against a baseline whose requests fit (--quiet silences the
// note, not the warning). Before, every one of
// them was silent and the run priced the refused requests as sent.
func TestRunSaysRequestsOverTheContextWindow(t *testing.T) {
	dir := t.TempDir()
	cats, trace := writeOverflowFixture(t, filepath.Join(dir, "big"), 120000)
	smallCats, _ := writeOverflowFixture(t, filepath.Join(dir, "small"), 10)
	run := func(name, cats string, extra ...string) (out, stderr string) {
		out = filepath.Join(dir, name)
		args := append([]string{"run", "--traces", trace, "--catalogs", cats, "--strategies", "eager,claude-code-default",
			"--bootstrap", "-1", "-o", out}, extra...)
		stdout, stderr, code := cliRun(t, args...)
		if code != 0 {
			t.Fatalf("run %s: exit %d\n%s%s", name, code, stdout, stderr)
		}
		return out, stderr
	}
	whole, stderr := run("whole", cats)
	for _, want := range []string{
		`defersim: note: notes@1.0.0: tool "dump" is `,
		"defersim: warning: requests over the context window: the run's model claude-sonnet-4.5 takes at most 200000 input tokens, " +
			"and eager sends 4 model requests over it in 2 of 2 sessions, the largest ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("run: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "claude-code-default sends") {
		t.Errorf("run: claude-code-default defers the tool, yet is said to overflow:\n%s", stderr)
	}
	small, stderr := run("small", smallCats)
	if strings.Contains(stderr, "context window") || strings.Contains(stderr, "note: notes@") {
		t.Errorf("run over the small catalog warns:\n%s", stderr)
	}
	s0, stderr := run("s0", cats, "--shard", "0/2", "--quiet")
	if strings.Contains(stderr, "note: notes@") || !strings.Contains(stderr, "warning: requests over the context window") {
		t.Errorf("run --quiet: want the warning without the note:\n%s", stderr)
	}
	s1, _ := run("s1", cats, "--shard", "1/2")
	merged := filepath.Join(dir, "merged")
	stdout, stderr, code := cliRun(t, "merge", merged, s0, s1)
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "eager sends 4 model requests over it in 2 of 2 sessions") {
		t.Errorf("merge: stderr does not warn of the overflow:\n%s", stderr)
	}
	var want *report.Results
	for _, out := range []string{whole, merged} {
		res, err := report.ReadResults(filepath.Join(out, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		c := res.Strategies[0].ContextOverflow
		if c == nil || c.Window != 200000 || c.Requests != 4 || c.Sessions != 2 || c.MaxInput <= 200000 || c.MaxSession != "s1" {
			t.Errorf("%s: eager's context_overflow = %+v, want 4 requests in 2 sessions over 200000, the largest in s1", filepath.Base(out), c)
		}
		if c := res.Strategies[1].ContextOverflow; c != nil {
			t.Errorf("%s: claude-code-default's context_overflow = %+v, want none", filepath.Base(out), c)
		}
		if want == nil {
			want = res
		} else if *res.Strategies[0].ContextOverflow != *want.Strategies[0].ContextOverflow {
			t.Errorf("merged shards: %+v, whole run: %+v", res.Strategies[0].ContextOverflow, want.Strategies[0].ContextOverflow)
		}
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), "requests over the context window: ") {
			t.Errorf("%s: report.md has no finding of the overflow", filepath.Base(out))
		}
	}
	stdout, stderr, code = cliRun(t, "check", "--baseline", filepath.Join(small, "results.json"), filepath.Join(whole, "results.json"))
	if code == 2 {
		t.Fatalf("check: exit 2\n%s%s", stdout, stderr)
	}
	if !strings.Contains(stdout, "warning: current: eager sends 4 model requests over the model's context window of 200000 tokens in 2 of 2 sessions") ||
		!strings.Contains(stdout, "where the baseline's sent none") {
		t.Errorf("check does not warn of the overflow:\n%s", stdout)
	}
}
