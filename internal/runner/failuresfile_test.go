package runner

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteOutputsFailuresFile pins WriteOptions.Failures, which
// defersim-beam's Write stage sets so that its launcher can list the
// sessions that failed to replay as defersim run lists them: the first
// line of each failure, one a line, in FailuresFile; no file when no
// session failed, and a previous run's removed then, so that an output
// directory never shows another run's failures. Without the option (run)
// no such file is written.
func TestWriteOutputsFailuresFile(t *testing.T) {
	out := runYAML(t, "name: f\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\n", Overrides{})
	failures := []string{
		"session s2: internal error (please report): validator bug\ngoroutine 7 [running]:\nmain.f()",
		"session s9: catalog change to a version no catalog has",
	}
	dir := t.TempDir()
	p := filepath.Join(dir, FailuresFile)
	for _, tc := range []struct {
		name     string
		opt      bool
		failures []string
		want     string // the file's text; "": no file
	}{
		{"run: no option", false, failures, ""},
		{"failures", true, failures, "session s2: internal error (please report): validator bug\nsession s9: catalog change to a version no catalog has\n"},
		{"none: the previous run's removed", true, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out.Run.Failures = tc.failures
			if err := WriteOutputs(out, dir, WriteOptions{Failures: tc.opt}); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(p)
			switch {
			case tc.want == "" && !errors.Is(err, fs.ErrNotExist):
				t.Errorf("%s: %q, %v; want no file", FailuresFile, data, err)
			case tc.want != "" && string(data) != tc.want:
				t.Errorf("%s: %q, %v; want %q", FailuresFile, data, err, tc.want)
			}
		})
	}
}
