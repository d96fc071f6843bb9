package runner

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRereadableErrorDoesNotPanic pins that a trace Rereadable cannot open
// (a mistyped path, also after a FIFO it already spooled) is an error naming
// it: `recommend`, `calibrate` and `sweep` over a missing trace used to panic
// with a nil-pointer dereference (the error path called the named result
// release, which the return had set to nil).
func TestRereadableErrorDoesNotPanic(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	if err := os.WriteFile(good, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	go func() {
		// Feed the FIFO once, for the case that spools it.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.WriteString("\n")
			f.Close()
		}
	}()
	missing := filepath.Join(dir, "missing.jsonl")
	for _, tc := range []struct {
		name string
		srcs []string
	}{
		{"missing file", []string{missing}},
		{"missing after a regular file", []string{good, missing}},
		{"missing after a spooled FIFO", []string{fifo, missing}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srcs []Source
			for _, p := range tc.srcs {
				srcs = append(srcs, Source{Path: p})
			}
			out, release, err := Rereadable(srcs)
			if err == nil {
				release()
				t.Fatalf("Rereadable(%v) = %v, want an error", tc.srcs, out)
			}
			if !strings.Contains(err.Error(), "missing.jsonl") || !strings.Contains(err.Error(), "no such file") {
				t.Errorf("error %q does not name the missing trace", err)
			}
		})
	}
}
