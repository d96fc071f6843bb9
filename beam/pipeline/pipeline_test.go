package pipeline

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

// TestMain runs the pipelines of the tests on prism, Beam's local runner,
// in this process.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

// defersimBinary builds the defersim command in the parent module (with
// its own go.mod, as users build it).
func defersimBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "defersim")
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/defersim")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build defersim: %v\n%s", err, out)
	}
	return bin
}

// twoTraces generates n sessions and writes them as two trace files (the
// first k sessions plain, the rest gzip'd) beside their catalog.
func twoTraces(t *testing.T, n, k int) (paths []string, catalog string) {
	t.Helper()
	dir := t.TempDir()
	p := gen.Defaults()
	p.Sessions = n
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sessions, _, err := traces.ReadAll(filepath.Join(dir, gen.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	for i, part := range [][]*traces.Session{sessions[:k], sessions[k:]} {
		path := filepath.Join(dir, []string{"first.jsonl", "second.jsonl.gz"}[i])
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := traces.NewWriter(f, i == 1)
		for _, s := range part {
			if err := w.WriteSession(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths, filepath.Join(dir, gen.CatalogDir)
}

// TestPipelineEqualsRun pins the Beam pipeline's promise: run on prism, it
// writes a results.json byte-identical to `defersim run` on the same
// traces, scenario and flags — for the embedded default, and for two trace
// files replayed in small batches with streamed statistics (so the sums,
// sketches and samples of many batches are merged).
func TestPipelineEqualsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Beam pipelines and defersim")
	}
	bin := defersimBinary(t)
	paths, catalog := twoTraces(t, 90, 37)
	for _, tc := range []struct {
		name string
		spec Spec
		args []string
	}{
		{name: "embedded default", spec: Spec{}},
		{
			name: "two files, batches of 8, streamed",
			spec: Spec{Traces: paths, Catalogs: []string{catalog}, Strategies: []string{"eager", "anchor-e1-budget8k", "claude-code-default"},
				ExactSessions: 25, Bootstrap: 100, NoReport: true, BatchSessions: 8},
			args: []string{"--traces", paths[0] + "," + paths[1], "--catalogs", catalog,
				"--strategies", "eager,anchor-e1-budget8k,claude-code-default", "--exact-sessions", "25", "--bootstrap", "100", "--no-report"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runDir := filepath.Join(t.TempDir(), "run")
			cmd := exec.Command(bin, append([]string{"run", "-q", "-o", runDir}, tc.args...)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("defersim run: %v\n%s", err, out)
			}
			spec := tc.spec
			spec.Out = filepath.Join(t.TempDir(), "beam")
			p, s := beam.NewPipelineWithRoot()
			if err := Build(s, spec); err != nil {
				t.Fatal(err)
			}
			if err := ptest.Run(p); err != nil {
				t.Fatalf("pipeline: %v", err)
			}
			want, err := os.ReadFile(filepath.Join(runDir, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(spec.Out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, got) {
				t.Fatalf("the pipeline's results.json differs from defersim run's:\n%s", cmp.Diff(string(want), string(got)))
			}
			_, err = os.Stat(filepath.Join(spec.Out, "report.html"))
			if wantReport := !spec.NoReport; (err == nil) != wantReport {
				t.Errorf("report.html written: %v, want %v", err == nil, wantReport)
			}
			t.Logf("results.json: %s bytes, identical", strconv.Itoa(len(got)))
		})
	}
}
