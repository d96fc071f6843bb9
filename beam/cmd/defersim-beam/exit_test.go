package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/defersim/defersim/beam/pipeline"
	"github.com/defersim/defersim/traces/gen"
)

// TestExitStatus pins that defersim-beam exits as defersim run does
// (docs/cli.md): 2 for inputs that cannot be read or do not fit — a
// missing catalog, found on the launcher; a malformed trace line and a
// session repeated across trace files, found by the job's workers on
// prism — and 1 only for other failures. (Before, every failure exited 1.)
// It also pins, with run's exit status and words: a scenario parameter
// the run never reads is refused (it ran); too many unresolved calls stop
// the job, and --allow-unresolved, which that error names, is accepted (it
// was an unknown flag); a trace URL with no --catalogs is refused naming
// --catalogs (it read as a missing local file).
func TestExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds defersim-beam and runs Beam pipelines")
	}
	bin, trace, catalog := beamFixture(t, 6)
	dir := t.TempDir()
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
	unread := filepath.Join(dir, "unread.yaml")
	if err := os.WriteFile(unread, []byte("name: unread\nstrategies: [eager]\nparams:\n  nudge_tokens: 50\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	partial := partialCatalog(t, catalog)
	for _, tc := range []struct {
		name   string
		traces []string
		catalg string
		want   int
		says   string
		args   []string
	}{
		{"valid", []string{trace}, catalog, 0, "results in", nil},
		{"missing catalog", []string{trace}, filepath.Join(dir, "no-such-catalogs"), 2, "no-such-catalogs", nil},
		{"malformed trace line", []string{malformed}, catalog, 2, "malformed.jsonl:", nil},
		{"session in two files", []string{trace, again}, catalog, 2, "again.jsonl", nil},
		{"scenario parameter never read", []string{trace}, catalog, 2, "unread.yaml:4: params.nudge_tokens", []string{"--scenario", unread}},
		{"unresolved calls", []string{trace}, partial, 2, "pass --allow-unresolved", nil},
		{"unresolved calls allowed", []string{trace}, partial, 0, "input resolution", []string{"--allow-unresolved"}},
		{"trace URL, no catalogs", []string{"gs://bucket/fleet.jsonl.gz"}, "", 2, "give its catalogs with --catalogs", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"--traces", strings.Join(tc.traces, ","), "--out", out, "--no-report", "--bootstrap", "-1"}, tc.args...)
			if tc.catalg != "" {
				args = append(args, "--catalogs", tc.catalg)
			}
			cmd := exec.Command(bin, args...)
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
			if _, err := os.Stat(out); (err == nil) != (tc.want == 0) {
				t.Errorf("output directory written: %v, want %v", err == nil, tc.want == 0)
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
			if got := exitStatus(tc.err, false); got != tc.want {
				t.Errorf("exitStatus(%q) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}

// TestExitStatusOfInterruption pins that an interrupted run exits 130, as
// defersim run does on SIGINT or SIGTERM (docs/cli.md), not 2: a replay
// stopped by its cancelled context was marked an input error by the
// replay stage (its error wrapped in pipeline.InputError), so Ctrl-C read
// as "your inputs are bad". It holds for a cancellation found here, in a
// worker (reaching the launcher as the text of a failed job), wrapped by
// the stage that met it, and for any error once the launcher's signal
// cancelled the run; a genuine input error still exits 2.
func TestExitStatusOfInterruption(t *testing.T) {
	cancelled := pipeline.InputError(fmt.Errorf("replay: %w", context.Canceled)) // as the replay stage wraps it
	for _, tc := range []struct {
		name      string
		err       error
		signalled bool
		want      int
	}{
		{"replay cancelled, marked by its stage", cancelled, false, 130},
		{"replay cancelled, wrapped", fmt.Errorf("run: %w", cancelled), false, 130},
		{"replay cancelled, as a job's failure text", fmt.Errorf("job failed: stage Replay: %s", cancelled.Error()), false, 130},
		{"context cancelled", context.Canceled, false, 130},
		{"deadline exceeded", fmt.Errorf("read: %w", context.DeadlineExceeded), false, 130},
		{"signalled, the runner's own error", errors.New("job failed: CANCELLED"), true, 130},
		{"input error, not signalled", pipeline.InputError(errors.New("trace: t.jsonl:3: malformed")), false, 2},
		{"other failure, not signalled", errors.New("job failed: worker lost"), false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitStatus(tc.err, tc.signalled); got != tc.want {
				t.Errorf("exitStatus(%q, signalled %v) = %d, want %d", tc.err, tc.signalled, got, tc.want)
			}
		})
	}
	if pipeline.IsInputError(cancelled) {
		t.Errorf("a cancelled replay is marked an input error: %q", cancelled)
	}
}

// TestInterruptExitStatus pins, end to end, that SIGINT to a running
// defersim-beam exits 130 and says it was interrupted (defersim run's
// status), not 2. The trace is a named pipe that the test holds open, so
// the job is reading it, and cannot finish, when the signal is sent.
// (Before, the test slept 3 s and signalled: on a fast machine the job had
// already finished and exited 0.)
func TestInterruptExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds defersim-beam and runs a Beam pipeline")
	}
	bin, trace, catalog := beamFixture(t, 40)
	lines := gunzipLines(t, trace)
	fifo := filepath.Join(t.TempDir(), "live.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	cmd := exec.Command(bin, "--traces", fifo, "--catalogs", catalog, "--out", filepath.Join(t.TempDir(), "out"), "--no-report")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	opened := make(chan *os.File, 1)
	go func() {
		// Opening a pipe's writing end waits for its reader: the job's
		// read stage.
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Errorf("open the trace pipe: %v", err)
			w = nil
		}
		opened <- w
	}()
	var w *os.File
	select {
	case w = <-opened:
	case err := <-exited:
		t.Fatalf("defersim-beam ended (%v) before reading its trace:\n%s", err, lastLines(out.Bytes(), 15))
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("defersim-beam did not open its trace within 5 minutes:\n%s", lastLines(out.Bytes(), 15))
	}
	if w == nil {
		cmd.Process.Kill()
		return
	}
	defer w.Close()
	// Whole lines, less than a pipe holds, so the write cannot wait on the
	// reader; the pipe stays open, so the read cannot end.
	if _, err := w.Write(lines); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-exited:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("defersim-beam did not stop within 2 minutes of SIGINT while reading:\n%s", lastLines(out.Bytes(), 15))
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("defersim-beam ended with %v despite the interrupt:\n%s", err, lastLines(out.Bytes(), 15))
	}
	if ee.ExitCode() != exitInterrupted || !strings.Contains(out.String(), "interrupted") {
		t.Fatalf("exit status %d, want %d, saying it was interrupted:\n%s", ee.ExitCode(), exitInterrupted, lastLines(out.Bytes(), 15))
	}
}

// gunzipLines returns the gzip trace file's text, cut after the last
// whole line of its first 32 KiB.
func gunzipLines(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(io.LimitReader(zr, 32<<10))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndexByte(b, '\n')
	if i < 0 {
		t.Fatalf("%s: no whole line in its first 32 KiB", path)
	}
	return b[:i+1]
}

// beamFixture builds defersim-beam and generates a trace of n sessions
// with its catalog, returning their paths.
func beamFixture(t *testing.T, n int) (bin, trace, catalog string) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to build defersim-beam: %v", err)
	}
	dir := t.TempDir()
	bin = filepath.Join(dir, "defersim-beam")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build defersim-beam: %v\n%s", err, out)
	}
	p := gen.Defaults()
	p.Sessions = n
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return bin, filepath.Join(dir, gen.TraceFile), filepath.Join(dir, gen.CatalogDir)
}

// partialCatalog copies the catalog directory without its first server
// file, so that the calls of that server do not resolve.
func partialCatalog(t *testing.T, catalog string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(catalog, "*.json"))
	if err != nil || len(files) < 2 {
		t.Fatalf("catalog %s: %d files, %v", catalog, len(files), err)
	}
	dir := filepath.Join(t.TempDir(), "partial")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files[1:] {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lastLines returns the last n lines of b.
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
