package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/beam/pipeline"
	"github.com/defersim/defersim/traces/gen"
)

// TestExitStatus pins that defersim-beam exits as defersim run does
// (docs/cli.md): 2 for inputs that cannot be read or do not fit — a
// missing catalog, found on the launcher; a malformed trace line and a
// session repeated across trace files, found by the job's workers on
// prism — and 1 only for other failures. (Before, every failure exited 1.)
func TestExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds defersim-beam and runs Beam pipelines")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to build defersim-beam: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "defersim-beam")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build defersim-beam: %v\n%s", err, out)
	}
	p := gen.Defaults()
	p.Sessions = 6
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	trace, catalog := filepath.Join(dir, gen.TraceFile), filepath.Join(dir, gen.CatalogDir)
	good, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	malformed := filepath.Join(dir, "malformed.jsonl")
	if err := os.WriteFile(malformed, append(append([]byte{}, good...), "{not json\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(dir, "again.jsonl")
	if err := os.WriteFile(again, good, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		traces []string
		catalg string
		want   int
		says   string
	}{
		{"valid", []string{trace}, catalog, 0, "results in"},
		{"missing catalog", []string{trace}, filepath.Join(dir, "no-such-catalogs"), 2, "no-such-catalogs"},
		{"malformed trace line", []string{malformed}, catalog, 2, "malformed.jsonl:"},
		{"session in two files", []string{trace, again}, catalog, 2, "again.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			cmd := exec.Command(bin, "--traces", strings.Join(tc.traces, ","), "--catalogs", tc.catalg,
				"--out", out, "--no-report", "--bootstrap", "-1")
			b, err := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.want || !strings.Contains(string(b), tc.says) {
				t.Fatalf("exit status %d, want %d, with output saying %q:\n%s", code, tc.want, tc.says, lastLines(b, 15))
			}
		})
	}
}

// TestExitStatusOfOtherFailures pins that a failure that is not the
// input's (the runner's, a worker's, writing the outputs) exits 1, and an
// input error 2 also when it reaches the launcher as the text of a failed
// job.
func TestExitStatusOfOtherFailures(t *testing.T) {
	in := pipeline.InputError(errors.New("trace: t.jsonl:3: malformed"))
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"internal", errors.New("job failed: worker lost"), 1},
		{"input", in, 2},
		{"input, wrapped", fmt.Errorf("run: %w", in), 2},
		{"input, as a job's failure text", fmt.Errorf("job failed: stage Read: %s", in.Error()), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitStatus(tc.err); got != tc.want {
				t.Errorf("exitStatus(%q) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}

// lastLines returns the last n lines of b.
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
