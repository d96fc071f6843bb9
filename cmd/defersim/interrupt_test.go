package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func runCLIContext(t *testing.T, ctx context.Context, args ...string) (string, int) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var ex exitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ex):
		return out.String() + ex.msg, ex.code
	default:
		return out.String() + err.Error(), 2
	}
}

// TestInterruptedRunWritesNothingAndResumes pins the interrupt guarantees
// of docs/reliability.md: an interrupted run exits 130, says what it did,
// leaves no results.json or report under the output directory, only a
// checkpoint; `run --resume DIR` then finishes it with the same
// results.json as an uninterrupted run, and removes the checkpoint.
func TestInterruptedRunWritesNothingAndResumes(t *testing.T) {
	data := t.TempDir()
	if out, code := runCLI(t, "trace", "gen", "--sessions", "30", "-o", data); code != 0 {
		t.Fatalf("trace gen: exit %d\n%s", code, out)
	}
	args := func(out string) []string {
		return []string{"run", "-q", "--traces", filepath.Join(data, "trace.jsonl.gz"), "--catalogs", filepath.Join(data, "catalog"),
			"--strategies", "eager,claude-code-default", "--bootstrap", "100", "-o", out}
	}
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, code := runCLIContext(t, ctx, args(dir)...)
	if code != 130 {
		t.Fatalf("interrupted run: exit %d, want 130\n%s", code, out)
	}
	for _, want := range []string{"interrupted after replaying 0 sessions", "no results were written", "--resume " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("message lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"results.json", "report.html", "report.md", "plots"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("an interrupted run left %s (%v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoint")); err != nil {
		t.Fatalf("no checkpoint: %v", err)
	}
	if out, code := runCLI(t, append(args(dir), "--resume", dir)...); code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoint")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the checkpoint is still there after the run finished (%v)", err)
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	if out, code := runCLI(t, args(fresh)...); code != 0 {
		t.Fatalf("fresh run: exit %d\n%s", code, out)
	}
	a, errA := os.ReadFile(filepath.Join(dir, "results.json"))
	b, errB := os.ReadFile(filepath.Join(fresh, "results.json"))
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("resumed results differ from a fresh run's (%v %v)", errA, errB)
	}
	if out, code := runCLI(t, append(args(dir), "--resume", dir)...); code == 0 || !strings.Contains(out, "no checkpoint to continue") {
		t.Errorf("resuming a finished run: exit %d\n%s", code, out)
	}
}

// TestSignalCancelsRun sends SIGINT to the process while interruptible
// listens: the context is cancelled and the message says what happens next.
func TestSignalCancelsRun(t *testing.T) {
	var buf bytes.Buffer
	ctx, stop := interruptible(context.Background(), &buf)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not cancel the run's context")
	}
	if !strings.Contains(buf.String(), "interrupt: finishing the sessions in flight and saving a checkpoint") {
		t.Errorf("message = %q", buf.String())
	}
}
