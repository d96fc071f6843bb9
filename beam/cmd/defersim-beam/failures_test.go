package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/runsummary"
	"github.com/defersim/defersim/report"
)

// TestFailuresAsRun pins that defersim-beam lists the sessions that
// failed to replay as defersim run lists them: the first line of each
// error in the JSON summary's "failures" (the same JSON run prints from
// the full errors) and after "skipped" on stderr, with run's exit
// message. Before, the JSON summary had no "failures" (only
// counts.sessions_skipped) and the errors were only in the log of the
// job's Write stage. When the failures file cannot be read back, a
// warning says where the errors are instead.
func TestFailuresAsRun(t *testing.T) {
	full := []string{ // as the run keeps them (a panic's stack follows its first line)
		"session s2: internal error (please report): validator bug\ngoroutine 7 [running]:\nmain.f()",
		"session s9: catalog change to a version no catalog has",
	}
	res := &report.Results{}
	res.Run.Counts.SessionsRead, res.Run.Counts.SessionsReplayed, res.Run.Counts.SessionsSkipped = 10, 8, 2
	for _, tc := range []struct {
		name   string
		write  bool // the job wrote its failures file
		json   bool
		stderr []string // lines stderr holds
	}{
		{"json", true, true, []string{"defersim-beam: skipped session s2: internal error (please report): validator bug", "defersim-beam: skipped session s9: catalog change to a version no catalog has"}},
		{"text", true, false, []string{"defersim-beam: skipped session s2: internal error (please report): validator bug"}},
		{"not read back", false, true, []string{"they are in the log of the job's Write stage"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			if tc.write {
				// As runner.WriteOptions.Failures writes it (runner's
				// TestWriteOutputsFailuresFile).
				var b strings.Builder
				for _, f := range full {
					line, _, _ := strings.Cut(f, "\n")
					b.WriteString(line + "\n")
				}
				if err := os.WriteFile(filepath.Join(out, runner.FailuresFile), []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			failures, failed := readFailures(context.Background(), out)
			if (failed == nil) != tc.write {
				t.Fatalf("readFailures: %v", failed)
			}
			var stdout, stderr bytes.Buffer
			err := summarize(&stdout, &stderr, res, failures, failed, out, false, summaryStyle{json: tc.json})
			if want := "2 sessions failed to replay and were skipped (see above); results cover the rest"; err == nil || err.Error() != want {
				t.Errorf("error %v, want %q", err, want)
			}
			for _, l := range tc.stderr {
				if !strings.Contains(stderr.String(), l) {
					t.Errorf("stderr does not say %q:\n%s", l, stderr.String())
				}
			}
			if !tc.json {
				return
			}
			want := full
			if !tc.write {
				want = nil
			}
			var run bytes.Buffer
			if err := runsummary.JSON(&run, res, filepath.Join(out, "results.json"), "", want, 0); err != nil {
				t.Fatal(err)
			}
			if stdout.String() != run.String() {
				t.Errorf("defersim-beam's JSON:\n%s\nwant run's:\n%s", stdout.String(), run.String())
			}
			var s struct{ Failures []string }
			if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
				t.Fatal(err)
			}
			if tc.write && !slices.Equal(s.Failures, []string{"session s2: internal error (please report): validator bug", "session s9: catalog change to a version no catalog has"}) {
				t.Errorf("failures %q", s.Failures)
			}
		})
	}
}
