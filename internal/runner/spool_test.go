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

// TestStdinDashIsRefused pins that "-" given as a trace or a catalog, where
// a command reads its inputs by name (run, recommend, calibrate, sweep,
// trace validate's catalogs), is refused naming stdin and the way round
// it, instead of "open -: no such file or directory".
func TestStdinDashIsRefused(t *testing.T) {
	for name, try := range map[string]func() error{
		"run's traces": func() error { _, err := sources([]string{"-"}, nil); return err },
		"a rereadable trace": func() error {
			_, release, err := Rereadable([]Source{{Path: "-"}})
			if err == nil {
				release()
			}
			return err
		},
		"catalogs": func() error { _, err := loadCatalogs([]Source{{Path: "-"}}); return err },
	} {
		err := try()
		if err == nil || !strings.Contains(err.Error(), `"-" (stdin) is not an input here`) || !strings.Contains(err.Error(), "/dev/stdin") {
			t.Errorf("%s: error %v, want the stdin refusal", name, err)
		}
	}
}
