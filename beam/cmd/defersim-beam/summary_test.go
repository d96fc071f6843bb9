package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummaryAsRun pins that defersim-beam tells the user what defersim
// run tells them on the same inputs: the counts of what was read,
// replayed and skipped, the report's summary and notes, the resolution of
// the calls (stdout), and the input warnings (stderr) — here sessions
// without a session_end and without a user message (whose first lines run
// locates on stderr and defersim-beam in its Write stage's log). Before, it printed only "results in DIR" and its
// Write stage logged only the implausible-lines and backward-times
// warnings, on the workers.
func TestSummaryAsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds defersim and defersim-beam and runs a Beam pipeline")
	}
	bin, trace, catalog := beamFixture(t, 6)
	run := defersimBinary(t)
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	var kept []string
	for _, l := range strings.SplitAfter(string(gunzipAll(t, trace)), "\n") {
		if !strings.Contains(l, `"type":"session_end"`) && !strings.Contains(l, `"type":"user"`) {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(cut, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--traces", cut, "--catalogs", catalog, "--no-report", "--bootstrap", "-1"}
	dir := t.TempDir()
	runOut, runErr, runCode := runCommand(t, run, append([]string{"run", "-o", filepath.Join(dir, "run")}, args...)...)
	beamOut, beamErr, beamCode := runCommand(t, bin, append([]string{"--out", filepath.Join(dir, "beam")}, args...)...)
	if runCode != 0 || beamCode != 0 {
		t.Fatalf("exit status: run %d, defersim-beam %d\nrun:\n%s\ndefersim-beam:\n%s", runCode, beamCode, runErr, lastLines([]byte(beamErr), 15))
	}
	// stdout: run's summary, then results.json's path.
	want := strings.ReplaceAll(runOut, filepath.Join(dir, "run"), filepath.Join(dir, "beam"))
	got := strings.TrimPrefix(beamOut, "defersim-beam: results in "+filepath.Join(dir, "beam")+"\n")
	if got != want || !strings.HasPrefix(want, "replayed 6 of 6 sessions") {
		t.Errorf("defersim-beam's summary:\n%s\nwant defersim run's:\n%s", beamOut, want)
	}
	// stderr: run's warnings, each.
	warnings := 0
	for _, l := range strings.Split(runErr, "\n") {
		w, ok := strings.CutPrefix(l, "defersim: warning: ")
		if !ok || strings.HasPrefix(w, cut+":") || strings.HasPrefix(w, "… (") {
			continue // a location: in the Write stage's log
		}
		warnings++
		if !strings.Contains(beamErr, "defersim-beam: warning: "+w+"\n") {
			t.Errorf("defersim run warns %q; defersim-beam does not:\n%s", w, lastLines([]byte(beamErr), 10))
		}
	}
	if warnings == 0 || !strings.Contains(runErr, "no session_end") || !strings.Contains(runErr, "6 of 6 sessions have no user message") {
		t.Fatalf("defersim run gave no session_end or user message warning on a trace without session_end and user lines:\n%s", runErr)
	}
	if !strings.Contains(beamErr, "the first five of each are located in the log of the job's Write stage") {
		t.Errorf("defersim-beam does not say where the first sessions without a user message are:\n%s", lastLines([]byte(beamErr), 10))
	}
}

// runCommand runs bin with args and returns its stdout, stderr and exit
// status.
func runCommand(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// defersimBinary builds the defersim command of the parent module.
func defersimBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to build defersim: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "defersim")
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/defersim")
	cmd.Dir = filepath.Join("..", "..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build defersim: %v\n%s", err, out)
	}
	return bin
}

// gunzipAll returns the text of the gzip file at path.
func gunzipAll(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
