package pipeline

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/variantdata"
	"github.com/defersim/defersim/internal/version"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

// TestMain runs the pipelines of the tests on prism, Beam's local runner,
// in this process.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

// defersimBinary builds the defersim command in the parent module (with
// its own go.mod, as users build it), with the go command on PATH: `go
// test` puts its own first there.
func defersimBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to build defersim: %v", err)
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
// traces, scenario and flags — for the embedded default, for two trace
// files replayed in small batches with streamed statistics (so the sums,
// sketches and samples of many batches are merged), for a file holding
// its sessions twice under skip-bad (the repeats skipped and counted, as
// run does), for sessions naming a launch variant by its version, and for
// a routed-search scenario over the embedded routing descriptions and over
// --srd's, and for sessions without a user message (counted in
// run.counts.sessions_without_user, as run counts them), and for
// strategies pasted from defersim recommend, recorded for another model
// and for the run's (the run's comparison recorded in results.json, and
// read back as the one finding run gives).
func TestPipelineEqualsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Beam pipelines and defersim")
	}
	bin := defersimBinary(t)
	paths, catalog := twoTraces(t, 90, 37)
	once, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	twice := filepath.Join(filepath.Dir(paths[0]), "twice.jsonl")
	if err := os.WriteFile(twice, append(once, once...), 0o644); err != nil {
		t.Fatal(err)
	}
	// Sessions naming a launch variant by its version (variantdata): the
	// pipeline stopped on them as run did, every call "version missing".
	vdir := t.TempDir()
	vcats := variantdata.Catalogs(t, vdir)
	variant := variantdata.WriteTrace(t, vdir, "variant.jsonl", variantdata.Forms[0], 6, nil)
	routed, routedYAML, srdDir := routedScenario(t)
	recommended, recommendedYAML := recommendedForScenario(t)
	// The first file with its user lines removed: every session of it
	// lacks a user message.
	noUser := filepath.Join(filepath.Dir(paths[0]), "nouser.jsonl")
	var kept []string
	for l := range strings.SplitSeq(strings.TrimSuffix(string(once), "\n"), "\n") {
		if !strings.Contains(l, `"type":"user"`) {
			kept = append(kept, l)
		}
	}
	if len(kept) == bytes.Count(once, []byte("\n")) {
		t.Fatalf("%s holds no user line", paths[0])
	}
	if err := os.WriteFile(noUser, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		spec Spec
		args []string
		srd  string // the routing descriptions results.json must name ("": not checked)
		// noUser is the run.counts.sessions_without_user results.json must hold.
		noUser int64
		// recommended are the starts of the recommended_for findings
		// results.json must give, one each (report.RecommendedForFindings).
		recommended []string
	}{
		{name: "embedded default", spec: Spec{}},
		{
			// A scenario that needs SRDs and names none: both use the
			// embedded set.
			name: "routed search, the embedded SRDs",
			spec: Spec{Scenario: routed, ScenarioYAML: routedYAML, Bootstrap: 100, NoReport: true},
			args: []string{routed, "--bootstrap", "100", "--no-report"},
			srd:  "embedded",
		},
		{
			name: "routed search, --srd",
			spec: Spec{Scenario: routed, ScenarioYAML: routedYAML, SRD: []string{srdDir}, Bootstrap: 100, NoReport: true},
			args: []string{routed, "--srd", srdDir, "--bootstrap", "100", "--no-report"},
			srd:  srdDir,
		},
		{
			// Two pasted recommend snippets, one recorded for another
			// model, one for the run's (a renamed preset): the run's
			// comparison (run_model) is recorded as run records it.
			name:        "recommended_for snippets, a renamed preset model",
			spec:        Spec{Scenario: recommended, ScenarioYAML: recommendedYAML, Bootstrap: 100, NoReport: true},
			args:        []string{recommended, "--bootstrap", "100", "--no-report"},
			recommended: []string{"Strategy for-gpt was recommended for model gpt-4o (its recommended_for) and this run replays it with model my-sonnet:"},
		},
		{
			name: "a launch variant named by its version",
			spec: Spec{Traces: []string{variant}, Catalogs: []string{vcats}, Strategies: []string{"eager", "claude-code-default"},
				Bootstrap: 100, NoReport: true},
			args: []string{"--traces", variant, "--catalogs", vcats, "--strategies", "eager,claude-code-default", "--bootstrap", "100", "--no-report"},
		},
		{
			name: "two files, batches of 8, streamed",
			spec: Spec{Traces: paths, Catalogs: []string{catalog}, Strategies: []string{"eager", "anchor-e1-budget8k", "claude-code-default"},
				ExactSessions: 25, Bootstrap: 100, NoReport: true, BatchSessions: 8},
			args: []string{"--traces", paths[0] + "," + paths[1], "--catalogs", catalog,
				"--strategies", "eager,anchor-e1-budget8k,claude-code-default", "--exact-sessions", "25", "--bootstrap", "100", "--no-report"},
		},
		{
			name: "sessions without a user message, two files, batches of 8",
			spec: Spec{Traces: []string{noUser, paths[1]}, Catalogs: []string{catalog}, Strategies: []string{"eager"},
				Bootstrap: 100, NoReport: true, BatchSessions: 8},
			args:   []string{"--traces", noUser + "," + paths[1], "--catalogs", catalog, "--strategies", "eager", "--bootstrap", "100", "--no-report"},
			noUser: 37,
		},
		{
			name: "one file holding its sessions twice, skip-bad",
			spec: Spec{Traces: []string{twice}, Catalogs: []string{catalog}, Strategies: []string{"eager"},
				Bootstrap: 100, NoReport: true, SkipBad: true},
			args: []string{"--traces", twice, "--catalogs", catalog, "--strategies", "eager", "--bootstrap", "100", "--no-report", "--skip-bad"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, got, out := runBoth(t, bin, tc.spec, tc.args)
			want = sameBuild(t, want, got)
			if !bytes.Equal(want, got) {
				t.Fatalf("the pipeline's results.json differs from defersim run's:\n%s", cmp.Diff(string(want), string(got)))
			}
			_, err = os.Stat(filepath.Join(out, "report.html"))
			if wantReport := !tc.spec.NoReport; (err == nil) != wantReport {
				t.Errorf("report.html written: %v, want %v", err == nil, wantReport)
			}
			res, err := report.DecodeResults(got)
			if err != nil {
				t.Fatal(err)
			}
			if n := res.Run.Counts.SessionsWithoutUser; n != tc.noUser {
				t.Errorf("run.counts.sessions_without_user = %d, want %d", n, tc.noUser)
			}
			if tc.srd != "" {
				if res.Run.SRD == nil || res.Run.SRD.Source != tc.srd || len(res.Run.SRD.UsedBy) == 0 {
					t.Errorf("routing descriptions %+v, want %q read by the routed strategy", res.Run.SRD, tc.srd)
				}
			}
			findings := report.RecommendedForFindings(res)
			if len(findings) != len(tc.recommended) {
				t.Errorf("recommended_for findings %q, want %d", findings, len(tc.recommended))
			}
			for i, f := range findings {
				if i < len(tc.recommended) && !strings.HasPrefix(f, tc.recommended[i]) {
					t.Errorf("recommended_for finding %q, want it to start %q", f, tc.recommended[i])
				}
			}
			t.Logf("results.json: %s bytes, identical", strconv.Itoa(len(got)))
		})
	}
}

// runBoth runs `defersim run -q -o DIR args` and the pipeline of spec
// (into another directory, which it returns) and returns the two
// results.json files.
func runBoth(t *testing.T, bin string, spec Spec, args []string) (run, pipe []byte, out string) {
	t.Helper()
	runDir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(bin, append([]string{"run", "-q", "-o", runDir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("defersim run: %v\n%s", err, out)
	}
	spec.Out = filepath.Join(t.TempDir(), "beam")
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, spec); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	run, err := os.ReadFile(filepath.Join(runDir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	pipe, err = os.ReadFile(filepath.Join(spec.Out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	return run, pipe, spec.Out
}

// routedScenario writes a scenario whose strategy reads routing
// descriptions twice (routed search, the by-domain directory) over the
// embedded trace and catalog, with no srd: (the embedded set), and
// returns its path, its text and the test SRD set of the runner
// (internal/runner/testdata/srd-default, six of the embedded servers).
func routedScenario(t *testing.T) (path string, text []byte, srdDir string) {
	t.Helper()
	text = []byte(`name: routed
seed: 3
traces: [embedded:trace.jsonl.gz]
catalogs: [embedded:catalog]
params: {select_prob: 0}
strategies:
  - name: routed
    base: claude-code-default
    search: {mode: routed, k: 3}
    directory: {format: by-domain, notice: true}
`)
	path = filepath.Join(t.TempDir(), "routed.yaml")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	srdDir, err := filepath.Abs(filepath.Join("..", "..", "internal", "runner", "testdata", "srd-default"))
	if err != nil {
		t.Fatal(err)
	}
	return path, text, srdDir
}

// recommendedForScenario writes a scenario over the embedded trace and
// catalog whose model is the preset claude-sonnet-4.5 renamed my-sonnet,
// with two strategies as defersim recommend's snippets give them: for-gpt
// recorded for gpt-4o and its values, for-sonnet for claude-sonnet-4.5 and
// its values (the run's model, by its values, though named otherwise). It
// returns its path and its text.
func recommendedForScenario(t *testing.T) (path string, text []byte) {
	t.Helper()
	digest := func(name string) string {
		m, err := presets.Model(name)
		if err != nil {
			t.Fatal(err)
		}
		return m.ValuesDigest()
	}
	text = []byte(`name: recommended
seed: 5
traces: [embedded:trace.jsonl.gz]
catalogs: [embedded:catalog]
model: {preset: claude-sonnet-4.5, name: my-sonnet}
strategies:
  - eager
  - name: for-gpt
    base: claude-code-default
    recommended_for:
      model: "gpt-4o"
      tokenizer: "o200k_base"
      model_values: "` + digest("gpt-4o") + `" # its prices, cache and latency
  - name: for-sonnet
    base: claude-code-default
    recommended_for:
      model: "claude-sonnet-4.5"
      tokenizer: "o200k_base"
      model_values: "` + digest("claude-sonnet-4.5") + `" # its prices, cache and latency
`)
	path = filepath.Join(t.TempDir(), "recommended.yaml")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, text
}

// sameBuild checks the two fields of results.json that name the build that
// wrote it, and returns want with defersim's generator_version replaced by
// the pipeline's when (and only when) the two builds' versions differ.
//
// Both files must name the same Go toolchain (this test builds both with
// the go command it runs under), and the pipeline's file must name the
// build that ran it: prism runs the pipeline in this process, so that is
// this test binary. generator_version is the main module's version as the
// go command stamps it, which differs between the two builds whenever
// VCS stamping does: `go build` in a git checkout stamps defersim's
// module with a tag or pseudo-version, while `go test` (and a build of
// beam/, another module, against a tag of the root) stamps otherwise. With
// -buildvcs=false both are "(devel)" and the files are byte-identical as
// they are; otherwise everything but that one value must be.
func sameBuild(t *testing.T, want, got []byte) []byte {
	t.Helper()
	type build struct {
		GeneratorVersion string `json:"generator_version"`
		GoVersion        string `json:"go_version"`
	}
	var run, pipe build
	if err := json.Unmarshal(want, &run); err != nil {
		t.Fatalf("defersim run's results.json: %v", err)
	}
	if err := json.Unmarshal(got, &pipe); err != nil {
		t.Fatalf("the pipeline's results.json: %v", err)
	}
	self := version.Get()
	if pipe.GeneratorVersion != self.Product || pipe.GoVersion != self.Go {
		t.Errorf("the pipeline's results.json names the build %q, %q; the build that ran it is %q, %q",
			pipe.GeneratorVersion, pipe.GoVersion, self.Product, self.Go)
	}
	if run.GoVersion != pipe.GoVersion {
		t.Errorf("go_version: defersim run %q, pipeline %q; both were built by the same go command", run.GoVersion, pipe.GoVersion)
	}
	if run.GeneratorVersion == pipe.GeneratorVersion {
		return want
	}
	t.Logf("generator_version differs by build: defersim %q, the pipeline (this test binary) %q; comparing the rest byte for byte",
		run.GeneratorVersion, pipe.GeneratorVersion)
	field := func(v string) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return append([]byte(`"generator_version": `), b...)
	}
	from := field(run.GeneratorVersion)
	if n := bytes.Count(want, from); n != 1 {
		t.Fatalf("defersim run's results.json holds %s %d times, want once", from, n)
	}
	return bytes.Replace(want, from, field(pipe.GeneratorVersion), 1)
}

// TestSameBuildVersionsDiffer pins sameBuild's other branch, which the
// pipeline test takes only where the two builds are versioned differently
// (VCS stamping in a git checkout): everything but generator_version must
// still be equal, and that value is replaced once.
func TestSameBuildVersionsDiffer(t *testing.T) {
	self := version.Get()
	results := func(v string) []byte {
		b, err := report.MarshalResults(&report.Results{SchemaVersion: report.SchemaVersion, Generator: "defersim",
			GeneratorVersion: v, GoVersion: self.Go, Sessions: 3})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	run, pipe := results("v9.8.7-0.20261201000000-0123456789ab+dirty"), results(self.Product)
	if bytes.Equal(run, pipe) {
		t.Fatal("the two files are already equal")
	}
	if got := sameBuild(t, run, pipe); !bytes.Equal(got, pipe) {
		t.Errorf("after sameBuild:\n%s", cmp.Diff(string(pipe), string(got)))
	}
}
