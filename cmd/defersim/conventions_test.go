package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// cliIn runs the CLI with stdin, returning stdout, stderr and the exit
// status (messages of errors are on stderr, as main prints them).
func cliIn(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetIn(bytes.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err := root.Execute()
	var ex exitError
	switch {
	case err == nil:
	case errors.As(err, &ex):
		code = ex.code
		errb.WriteString(ex.msg + "\n")
	default:
		code = 2
		errb.WriteString(err.Error() + "\n")
	}
	return out.String(), errb.String(), code
}

// TestVersion pins `defersim --version` and `defersim version` (text and
// JSON), both from the build information.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, errs, code := cliIn(t, nil, args...)
		if code != 0 || !strings.HasPrefix(out, "defersim ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	out, _, code := cliIn(t, nil, "version", "--format", "json")
	var v struct{ Product, Go string }
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Product == "" || !strings.HasPrefix(v.Go, "go1.") {
		t.Errorf("version --format json: exit %d, %q", code, out)
	}
}

// TestDidYouMean pins suggestions for mistyped commands, at the top and in
// command groups (which once printed their help and exited 0).
func TestDidYouMean(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"rnu"}, "Did you mean this?\n\trun"},
		{[]string{"trace", "stat", "x.jsonl"}, "Did you mean this?\n\tstats"},
		{[]string{"catalog", "dif"}, "Did you mean this?\n\tdiff"},
	}
	for _, tc := range tests {
		_, errs, code := cliIn(t, nil, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "unknown command") {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
	if out, _, code := cliIn(t, nil, "trace"); code != 0 || !strings.Contains(out, "Available Commands") {
		t.Errorf("trace alone: exit %d, %q", code, out)
	}
}

func embeddedTrace(t *testing.T) []byte {
	t.Helper()
	data, err := fs.ReadFile(defaultdata.FS(), "trace.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTraceStatsStdin pins that "-" reads the trace from stdin and gives
// the same statistics as the file.
func TestTraceStatsStdin(t *testing.T) {
	data := embeddedTrace(t)
	path := filepath.Join(t.TempDir(), "t.jsonl.gz")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, _, code := cliIn(t, nil, "trace", "stats", "--format", "json", path)
	if code != 0 {
		t.Fatalf("stats FILE: exit %d", code)
	}
	fromStdin, errs, code := cliIn(t, data, "trace", "stats", "--format", "json", "-")
	if code != 0 {
		t.Fatalf("stats -: exit %d: %s", code, errs)
	}
	var a, b statsReport
	if err := json.Unmarshal([]byte(fromFile), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(fromStdin), &b); err != nil {
		t.Fatal(err)
	}
	if a.Stats.Sessions != 350 || a.Stats.Sessions != b.Stats.Sessions || a.Stats.ToolCalls != b.Stats.ToolCalls {
		t.Errorf("stdin stats differ from the file's: %+v vs %+v", b.Stats, a.Stats)
	}
	if b.Files[0] != "<stdin>" {
		t.Errorf("stdin named %q", b.Files[0])
	}
	// validate reads stdin too (the embedded sample trace: checked against
	// its catalog, which a trace on stdin, having none of its own, is
	// given).
	if out, _, code := cliIn(t, data, "trace", "validate", "--catalogs", "embedded:catalog", "-"); code != 0 || !strings.Contains(out, "valid: 1 file") {
		t.Errorf("validate -: exit %d, %q", code, out)
	}
}

// TestOutputFile pins -o FILE (the output goes to the file, nothing to
// stdout) and -o - (stdout).
func TestOutputFile(t *testing.T) {
	good := filepath.Join("..", "..", "traces", "testdata", "small.jsonl")
	file := filepath.Join(t.TempDir(), "stats.json")
	out, errs, code := cliIn(t, nil, "trace", "stats", "--format", "json", "-o", file, good)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	data, err := os.ReadFile(file)
	if err != nil || !json.Valid(data) {
		t.Fatalf("file: %v %q", err, data)
	}
	out, _, _ = cliIn(t, nil, "trace", "stats", "--format", "json", "-o", "-", good)
	if out != string(data) {
		t.Errorf("-o - printed %q, the file holds %q", out, data)
	}
}

// TestDeprecatedJSONFlag pins that --json still works where it was a
// switch, prints pure JSON on stdout and warns on stderr.
func TestDeprecatedJSONFlag(t *testing.T) {
	good := filepath.Join("..", "..", "traces", "testdata", "small.jsonl")
	out, errs, code := cliIn(t, nil, "trace", "stats", "--json", good)
	if code != 0 || !json.Valid([]byte(out)) {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errs, "deprecated") || !strings.Contains(errs, "--format json") {
		t.Errorf("no deprecation warning on stderr: %q", errs)
	}
}

// TestRunResultsToStdout pins `run -o -`: results.json on stdout, no
// directory named "-", the summary on stderr.
func TestRunResultsToStdout(t *testing.T) {
	t.Chdir(t.TempDir())
	out, errs, code := cliIn(t, nil, "run", "-o", "-", "--strategies", "eager,claude-code-default", "--bootstrap", "-1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	res, err := report.DecodeResults([]byte(out))
	if err != nil {
		t.Fatalf("stdout is not results.json: %v", err)
	}
	if res.Sessions != 350 || res.GeneratorVersion == "" || !strings.HasPrefix(res.GoVersion, "go1.") {
		t.Errorf("results: %d sessions, versions %q %q", res.Sessions, res.GeneratorVersion, res.GoVersion)
	}
	if _, err := os.Stat("-"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file or directory named - was created: %v", err)
	}
	if !strings.Contains(errs, "Cheapest:") {
		t.Errorf("summary not on stderr: %q", errs)
	}
}

// TestProgressWithoutTerminal pins that trace gen, run, trace import and
// merge report progress when stderr is not a terminal: plain lines (no
// carriage return), then a closing line; and that --quiet silences them.
func TestProgressWithoutTerminal(t *testing.T) {
	dir := t.TempDir()
	_, errs, code := cliIn(t, nil, "trace", "gen", "-o", filepath.Join(dir, "g"), "--sessions", "40", "--progress-every", "1ns")
	if code != 0 {
		t.Fatalf("trace gen: exit %d: %s", code, errs)
	}
	checkProgress(t, "trace gen", errs, "trace gen: wrote 1 of 40 sessions", "trace gen: wrote 40 sessions in ")
	_, errs, code = cliIn(t, nil, "run", "-o", filepath.Join(dir, "r"), "--traces", filepath.Join(dir, "g", "trace.jsonl.gz"),
		"--catalogs", filepath.Join(dir, "g", "catalog"), "--strategies", "eager", "--no-report", "--bootstrap", "-1", "--progress-every", "1ns")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	checkProgress(t, "run", errs, "run: replayed 1 session, ", "run: replayed 40 sessions in ")
	_, errs, code = cliIn(t, nil, "trace", "gen", "-q", "-o", filepath.Join(dir, "q"), "--sessions", "5", "--progress-every", "1ns")
	if code != 0 || errs != "" {
		t.Errorf("trace gen -q: exit %d, stderr %q", code, errs)
	}

	// trace import and merge (they reported nothing before): inputs
	// imported of the total, shards read of the total.
	// Two different inputs: one given twice gives its sessions twice, an error.
	conv := filepath.Join("..", "..", "traces", "importers", "openaimsg", "testdata", "conversations.jsonl")
	chat := filepath.Join("..", "..", "traces", "importers", "testdata", "chat.jsonl")
	_, errs, code = cliIn(t, nil, "trace", "import", "--from", "openai-messages", conv, chat, "-o", filepath.Join(dir, "imp.jsonl"), "--progress-every", "1ns")
	if code != 0 {
		t.Fatalf("trace import: exit %d: %s", code, errs)
	}
	checkProgress(t, "trace import", errs, "trace import: imported 1 of 2 inputs", "trace import: imported 2 inputs in ")
	var shards []string
	for i := range 2 {
		sd := filepath.Join(dir, fmt.Sprintf("shard%d", i))
		shards = append(shards, sd)
		if _, errs, code := cliIn(t, nil, "run", "-q", "-o", sd, "--shard", fmt.Sprintf("%d/2", i), "--traces", filepath.Join(dir, "g", "trace.jsonl.gz"),
			"--catalogs", filepath.Join(dir, "g", "catalog"), "--strategies", "eager", "--no-report", "--bootstrap", "-1"); code != 0 {
			t.Fatalf("run --shard %d/2: exit %d: %s", i, code, errs)
		}
	}
	_, errs, code = cliIn(t, nil, append([]string{"merge", "--no-report", filepath.Join(dir, "merged"), "--progress-every", "1ns"}, shards...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	checkProgress(t, "merge", errs, "merge: read 1 of 2 shards", "merge: read 2 shards in ")
}

func checkProgress(t *testing.T, name, errs, first, last string) {
	t.Helper()
	if strings.Contains(errs, "\r") {
		t.Errorf("%s: carriage return in non-terminal progress: %q", name, errs)
	}
	if !strings.Contains(errs, first) {
		t.Errorf("%s: no progress line %q in:\n%s", name, first, errs)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if !strings.HasPrefix(lines[len(lines)-1], last) {
		t.Errorf("%s: last line %q, want %q", name, lines[len(lines)-1], last)
	}
}

// TestMissingFileNamedOnce pins single error wrapping: a missing input is
// named once ("open x: open x: no such file" before).
func TestMissingFileNamedOnce(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing-input.json")
	for _, args := range [][]string{
		{"run", "--traces", missing, "-o", t.TempDir()},
		{"trace", "stats", missing},
		{"check", "--baseline", missing, missing},
		{"report", missing},
		{"plan", missing, "--sessions-per-day", "10"},
	} {
		_, errs, code := cliIn(t, nil, args...)
		if code == 0 || strings.Count(errs, missing) != 1 {
			t.Errorf("%v: exit %d, want the path once in %q", args, code, errs)
		}
	}
}

// TestCheckFormats pins check's outputs: --format markdown/json/csv,
// --markdown - as Markdown alone (it once mixed the text report in), the
// current file from stdin, and configuration changes as a readable list.
func TestCheckFormats(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	if err := report.WriteResults(base, checkResults("f1", 1)); err != nil {
		t.Fatal(err)
	}
	cur := checkResults("f1", 1.5)
	cur.Run.Seed = 9
	cur.GeneratorVersion = "v9.9.9"
	curData, err := report.MarshalResults(cur)
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := cliIn(t, curData, "check", "--baseline", base, "-", "--markdown", "-", "--allow", "traces")
	if code != 1 || !strings.HasPrefix(out, "### defersim check: ❌") || strings.Contains(out, "baseline: ") {
		t.Errorf("--markdown -: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	for _, want := range []string{"- `run.seed`: 1 → 9", "**Warning:** the files were written by different defersim versions"} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "&report.Results") || strings.Contains(out, "```diff") {
		t.Errorf("Markdown holds a Go value dump:\n%s", out)
	}
	if !strings.Contains(errs, "warning: the files were written by different defersim versions") {
		t.Errorf("no version warning on stderr: %q", errs)
	}
	out, _, code = cliIn(t, curData, "check", "--baseline", base, "-", "--format", "json")
	var js struct {
		Regression bool
		Changes    []string
		Checks     []struct{ Status string }
	}
	if code != 1 || json.Unmarshal([]byte(out), &js) != nil || !js.Regression || len(js.Checks) == 0 {
		t.Errorf("--format json: exit %d, %s", code, out)
	}
	out, _, _ = cliIn(t, curData, "check", "--baseline", base, "-", "--format", "csv")
	if !strings.HasPrefix(out, "strategy,check,unit,baseline,current,") || !strings.Contains(out, ",regression\n") {
		t.Errorf("--format csv:\n%s", out)
	}
}

// TestPlanMarkdown pins Markdown output for plan (recommend's is pinned by
// internal/recommend's golden test).
func TestPlanMarkdown(t *testing.T) {
	dir := t.TempDir()
	res := writeTinyResults(t, dir)
	out, errs, code := cliIn(t, nil, "plan", res, "--sessions-per-day", "1000", "--format", "markdown", "-o", filepath.Join(dir, "plan"))
	if code != 0 || !strings.HasPrefix(out, "### Projection of ") || !strings.Contains(out, "| Strategy | USD / day |") {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
}

// TestJSONOutputsDocumented pins docs/cli.md against what the commands
// print: every top-level key of their --format json output is named there.
func TestJSONOutputsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	small := filepath.Join("..", "..", "traces", "testdata", "small.jsonl")
	res := writeTinyResults(t, dir)
	cases := [][]string{
		{"version", "--format", "json"},
		{"trace", "stats", "--format", "json", small},
		{"trace", "validate", "--format", "json", "--no-catalogs", small},
		{"trace", "gen", "-q", "-o", filepath.Join(dir, "g"), "--sessions", "2", "--format", "json"},
		{"plan", res, "--sessions-per-day", "10", "--format", "json", "-o", filepath.Join(dir, "p")},
		{"check", "--baseline", res, res, "--format", "json"},
	}
	for _, args := range cases {
		out, errs, code := cliIn(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: not a JSON object: %v", args, err)
		}
		for k := range m {
			if !bytes.Contains(doc, []byte("`"+k+"`")) {
				t.Errorf("%v: key %q is not documented in docs/cli.md", args, k)
			}
		}
	}
}
