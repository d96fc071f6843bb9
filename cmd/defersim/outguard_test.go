package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// genData writes a generated trace (with recorded timings and usage) and
// its catalog into a new directory and returns the trace and catalog paths.
func genData(t *testing.T, sessions string) (trace, catalogDir string) {
	t.Helper()
	dir := t.TempDir()
	if out, code := runCLI(t, "trace", "gen", "--sessions", sessions, "--recorded", "-o", dir); code != 0 {
		t.Fatalf("trace gen: exit %d\n%s", code, out)
	}
	return filepath.Join(dir, "trace.jsonl.gz"), filepath.Join(dir, "catalog")
}

// TestOutputOntoInputRefused pins issue 18.2: each of these commands wrote
// onto one of its own inputs (or into its input catalog directory, or
// replaced another run's results.json) and exited 0. Each is now refused
// with exit 2 and a message naming the output, and the input is unchanged.
func TestOutputOntoInputRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "30")
	runDir := filepath.Join(t.TempDir(), "run")
	if out, code := runCLI(t, "run", "--traces", trace, "--catalogs", cat, "-o", runDir, "--bootstrap", "-1",
		"--no-report", "--shard", "0/1"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	results := filepath.Join(runDir, "results.json")
	otherDir := filepath.Join(t.TempDir(), "other")
	if out, code := runCLI(t, "run", "--traces", trace, "--catalogs", cat, "-o", otherDir, "--bootstrap", "-1",
		"--no-report", "--seed", "9"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	conv := filepath.Join(t.TempDir(), "conversations.jsonl")
	if data, err := os.ReadFile(filepath.Join("..", "..", "traces", "importers", "openaimsg", "testdata", "conversations.jsonl")); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(conv, data, 0o644); err != nil {
		t.Fatal(err)
	}
	params := filepath.Join(t.TempDir(), "params.yaml")
	if err := os.WriteFile(params, []byte("sessions: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link.jsonl.gz")
	if err := os.Symlink(trace, link); err != nil {
		t.Fatal(err)
	}
	catFiles, err := filepath.Glob(filepath.Join(cat, "*.json"))
	if err != nil || len(catFiles) == 0 {
		t.Fatalf("no catalog file in %s (%v)", cat, err)
	}
	catFile := catFiles[0]
	draftDir := t.TempDir()
	draftSrc := filepath.Join("..", "..", "srd", "testdata", "draft")
	for _, name := range []string{"kb-internal.json", "web-search.yaml"} {
		data, err := os.ReadFile(filepath.Join(draftSrc, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(draftDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	draft := filepath.Join(draftDir, "web-search.yaml")
	inputs := []string{trace, results, conv, params, filepath.Join(otherDir, "results.json"), filepath.Join(runDir, "shard.bin"), catFile, draft}
	before := map[string][]byte{}
	for _, p := range inputs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		before[p] = b
	}
	for _, tc := range []struct {
		name string
		args []string
		want string // the refused path (in the message)
	}{
		{"run --per-request", []string{"run", "--traces", trace, "--catalogs", cat, "-o", t.TempDir(), "--per-request", trace}, trace},
		{"run --per-request (a link)", []string{"run", "--traces", trace, "--catalogs", cat, "-o", t.TempDir(), "--per-request", link}, link},
		{"run -o CATALOG_DIR", []string{"run", "--traces", trace, "--catalogs", cat, "-o", cat}, filepath.Join(cat, "checkpoint")},
		{"recommend -o", []string{"recommend", trace, "--catalogs", cat, "-o", trace}, trace},
		{"recommend --json", []string{"recommend", trace, "--catalogs", cat, "--json", trace}, trace},
		{"recommend --results", []string{"recommend", trace, "--catalogs", cat, "--results", trace}, trace},
		{"calibrate -o", []string{"calibrate", trace, "--catalogs", cat, "-o", trace}, trace},
		{"calibrate --json", []string{"calibrate", trace, "--catalogs", cat, "--json", trace}, trace},
		{"trace import -o", []string{"trace", "import", "--from", "openai-messages", "-o", conv, conv}, conv},
		{"check --markdown", []string{"check", "--baseline", results, results, "--markdown", results}, results},
		{"report -o OTHER_DIR", []string{"report", results, "-o", otherDir}, filepath.Join(otherDir, "results.json")},
		{"merge onto its shard", []string{"merge", runDir, runDir}, filepath.Join(runDir, "shard.bin")},
		{"sweep -o CATALOG_DIR", []string{"sweep", "--traces", trace, "--catalogs", cat, "--param", "params.cold_call_prob=0:0.1:0.1", "-o", cat}, filepath.Join(cat, "sweep.json")},
		{"plan --growth -o CATALOG_DIR", []string{"plan", results, "--sessions-per-day", "10", "--growth", "1,1.1", "--traces", trace, "--catalogs", cat, "-o", cat}, filepath.Join(cat, "plan.json")},
		// Commands that print a report with -o FILE (issue 18: each wrote
		// over its input and exited 0).
		{"trace stats -o", []string{"trace", "stats", trace, "-o", trace}, trace},
		{"trace validate -o", []string{"trace", "validate", trace, "--catalogs", cat, "-o", trace}, trace},
		{"tokens -o", []string{"tokens", conv, "-o", conv}, conv},
		{"catalog stats -o", []string{"catalog", "stats", catFile, "-o", catFile}, catFile},
		{"catalog diff -o", []string{"catalog", "diff", catFile, catFile, "-o", catFile}, catFile},
		{"catalog history -o CATALOG_DIR", []string{"catalog", "history", cat, "-o", filepath.Join(cat, "history.txt")}, filepath.Join(cat, "history.txt")},
		{"srd convert -o over a v0.1 input", []string{"srd", "convert", filepath.Join(draftDir, "kb-internal.json"), draft, "-o", draftDir}, draft},
		{"trace gen over its params", []string{"trace", "gen", "--params", params, "-o", filepath.Dir(params)}, filepath.Join(filepath.Dir(params), "params.yaml")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, tc.args...)
			out := stdout + stderr
			if code != 2 || !strings.Contains(out, "refusing to write "+tc.want+": ") {
				t.Errorf("exit %d, want 2 and a refusal of %s:\n%s", code, tc.want, out)
			}
			for _, p := range inputs {
				if b, err := os.ReadFile(p); err != nil || !bytes.Equal(b, before[p]) {
					t.Fatalf("input %s changed (%v)", p, err)
				}
			}
		})
	}
}

// fifoOf makes a FIFO fed with the bytes of file from a goroutine, and
// returns its path.
func fifoOf(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "trace.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	return path
}

// pipeOf returns /dev/fd/N of a pipe fed with the bytes of file: what a
// shell's process substitution `<(zcat t.gz)` passes.
func pipeOf(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	go func() {
		w.Write(data)
		w.Close()
	}()
	path := fmt.Sprintf("/dev/fd/%d", r.Fd())
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no /dev/fd here: %v", err)
	}
	return path
}

// TestTracesFromFIFOAndPipe pins issue 18.1: run read its traces twice (a
// FIFO hung; a process substitution replayed 0 sessions), and sweep and
// calibrate read them once per pass. Each now gives, over a FIFO or a
// pipe, what it gives over the file.
func TestTracesFromFIFOAndPipe(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "40")
	norm := func(s, path string) string { return strings.ReplaceAll(s, path, "TRACE") }
	type job struct {
		name string
		args func(trace, out string) []string
		read func(out string) string // what must not depend on the source
	}
	readFile := func(name string) func(string) string {
		return func(out string) string {
			b, err := os.ReadFile(filepath.Join(out, name))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	for _, j := range []job{
		{"run", func(tr, out string) []string {
			return []string{"run", "-q", "--traces", tr, "--catalogs", cat, "-o", out, "--bootstrap", "50", "--no-report"}
		}, readFile("results.json")},
		{"sweep", func(tr, out string) []string {
			return []string{"sweep", "--traces", tr, "--catalogs", cat, "--strategies", "eager,claude-code-default",
				"--param", "params.cold_call_prob=0:0.2:0.2", "--bootstrap", "-1", "-o", out}
		}, readFile(filepath.Join("params.cold_call_prob=0.2", "results.json"))},
		{"calibrate", func(tr, out string) []string {
			return []string{"calibrate", tr, "--catalogs", cat, "--json", filepath.Join(out, "calibration.json")}
		}, readFile("calibration.json")},
	} {
		want := func() string {
			out := t.TempDir()
			if stdout, stderr, code := cliRun(t, j.args(trace, out)...); code != 0 {
				t.Fatalf("%s over the file: exit %d\n%s%s", j.name, code, stdout, stderr)
			}
			return norm(j.read(out), trace)
		}()
		for _, src := range []struct {
			kind string
			path func() string
		}{{"FIFO", func() string { return fifoOf(t, trace) }}, {"pipe", func() string { return pipeOf(t, trace) }}} {
			t.Run(j.name+" over a "+src.kind, func(t *testing.T) {
				p, out := src.path(), t.TempDir()
				stdout, stderr, code := cliRun(t, j.args(p, out)...)
				if code != 0 {
					t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
				}
				if got := norm(j.read(out), p); got != want {
					t.Errorf("output over a %s differs from the output over the file", src.kind)
				}
			})
		}
	}
}

// TestControlCharactersEscaped pins issue 18.6: ESC, NUL and newlines in
// tool and server names were printed raw by trace stats, catalog stats and
// catalog diff (a name could clear the screen or forge a line of output).
// They are printed escaped.
func TestControlCharactersEscaped(t *testing.T) {
	dir := t.TempDir()
	const evil = `ev\u001b[2J\u0000il\nFORGED\tline\u202e`
	cat := func(name string, tools ...string) string {
		var parts []string
		for _, tl := range tools {
			parts = append(parts, `{"name":"`+tl+`","description":"d","inputSchema":{"type":"object"}}`)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(`{"tools":[`+strings.Join(parts, ",")+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v1 := cat("srv@1.json", "plain", evil)
	v2 := cat("srv@2.json", "plain", evil+"2")
	trace := filepath.Join(dir, "t.jsonl")
	lines := `{"v":1,"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z"}
{"type":"tool_call","session":"s","t":"2026-01-01T00:00:01Z","call_id":"c","tool":"` + evil + `","server":"s` + evil + `","status":"ok"}
{"type":"session_end","session":"s","t":"2026-01-01T00:00:02Z"}
`
	if err := os.WriteFile(trace, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"trace", "stats", trace},
		{"catalog", "stats", v1},
		{"catalog", "diff", v1, v2},
	} {
		stdout, stderr, code := cliRun(t, args...)
		out := stdout + stderr
		if code > 1 || !strings.Contains(out, `ev\x1b[2J\x00il\nFORGED\tline\u202e`) {
			t.Errorf("%v: exit %d, the name is not printed escaped:\n%s", args, code, out)
		}
		for i := 0; i < len(out); i++ {
			if c := out[i]; c < 0x20 && c != '\n' || c == 0x7f {
				t.Errorf("%v prints the control byte %#x", args, c)
				break
			}
		}
		if strings.Contains(out, "\nFORGED") || strings.Contains(out, "\u202e") {
			t.Errorf("%v: a name forged a line or kept a bidi override:\n%s", args, out)
		}
	}
}

// TestImplausibleCountsWarn pins issue 18.8: counts of 2^63−1 tokens gave
// $1.4e14 per session without a word. The run keeps them (they are valid)
// but warns, with file and line, and records them where the warning
// outlives the terminal: results.json run.counts.lines_implausible and a
// finding of report.md and report.html.
func TestImplausibleCountsWarn(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a session")
	}
	dir := t.TempDir()
	cat := filepath.Join(dir, "cat")
	if err := os.Mkdir(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cat, "files@1.json"), []byte(`{"tools":[{"name":"read_file","description":"Read.","inputSchema":{"type":"object"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(trace, []byte(`{"v":1,"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z","servers":[{"name":"files","version":"1"}]}
{"type":"user","session":"s","t":"2026-01-01T00:00:01Z","text":"read it","text_tokens":9223372036854775807}
{"type":"model_request","session":"s","t":"2026-01-01T00:00:02Z","id":"r1","usage":{"input":100,"output":9223372036854775807}}
{"type":"session_end","session":"s","t":"2026-01-01T00:00:03Z"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	stdout, stderr, code := cliRun(t, "run", "--traces", trace, "--catalogs", cat, "-o", out, "--bootstrap", "-1")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"defersim: warning: 2 trace lines hold an implausible count or duration",
		trace + `:2: field "text_tokens": 9223372036854775807 tokens is implausible (over 1e+09)`,
		trace + `:3: field "usage.output": 9223372036854775807 tokens is implausible (over 1e+09)`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// results.json and both reports say it too: stderr alone was lost
	// with the terminal.
	const finding = "2 of 4 trace lines hold an implausible count or duration"
	for file, want := range map[string]string{"results.json": `"lines_implausible": 2`, "report.md": finding, "report.html": finding} {
		b, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q", file, want)
		}
	}
}

// TestFailedRunKeepsPreviousOutputs pins issue 18.8 ("a full disk leaves a
// new results.json beside the previous run's report.html"): a run whose
// outputs fail half-way (here the per-request CSV cannot be created, after
// results.json and the report are written) leaves the previous run's
// output set exactly as it was, and no staging file.
func TestFailedRunKeepsPreviousOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "20")
	out := filepath.Join(t.TempDir(), "out")
	base := []string{"run", "-q", "--traces", trace, "--catalogs", cat, "-o", out, "--bootstrap", "-1"}
	if stdout, stderr, code := cliRun(t, append(base, "--seed", "1")...); code != 0 {
		t.Fatalf("first run: exit %d\n%s%s", code, stdout, stderr)
	}
	before := map[string][]byte{}
	for _, f := range filesUnder(t, out) {
		b, _ := os.ReadFile(f)
		before[f] = b
	}
	// A path under a regular file: no directory can be created there (a
	// missing directory would be).
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := cliRun(t, append(base, "--seed", "2", "--per-request", filepath.Join(blocker, "pr.csv"))...)
	if code == 0 {
		t.Fatal("a run whose per-request CSV cannot be written succeeded")
	}
	after := filesUnder(t, out)
	if len(after) != len(before) {
		t.Errorf("files before %d, after %d: %v (%s)", len(before), len(after), after, stderr)
	}
	for _, f := range after {
		if b, _ := os.ReadFile(f); !bytes.Equal(b, before[f]) {
			t.Errorf("%s changed though the run failed", f)
		}
	}
}
