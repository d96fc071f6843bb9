package pipeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/google/go-cmp/cmp"
)

// TestPipelineSRDFromURL pins --srd naming a directory URL (here Beam's
// memfs://, as gs:// or s3:// would): the pipeline reads the routing
// descriptions through Beam's filesystems and writes the results.json
// `defersim run --srd` writes from a local copy of the same files, but
// for the set's source, which names the URL.
func TestPipelineSRDFromURL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Beam pipelines and defersim")
	}
	bin := defersimBinary(t)
	routed, routedYAML, srdDir := routedScenario(t)
	entries, err := os.ReadDir(srdDir)
	if err != nil {
		t.Fatal(err)
	}
	const url = "memfs://srd-from-url"
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(srdDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		memfs.Write(url+"/"+e.Name(), data)
	}
	spec := Spec{Scenario: routed, ScenarioYAML: routedYAML, SRD: []string{url + "/"}, Bootstrap: 100, NoReport: true}
	want, got, _ := runBoth(t, bin, spec, []string{routed, "--srd", srdDir, "--bootstrap", "100", "--no-report"})
	want = sameBuild(t, want, got)
	source := func(v string) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return append([]byte(`"source": `), b...)
	}
	from := source(srdDir)
	if n := bytes.Count(want, from); n != 1 {
		t.Fatalf("defersim run's results.json holds %s %d times, want once", from, n)
	}
	want = bytes.Replace(want, from, source(url+"/"), 1)
	if !bytes.Equal(want, got) {
		t.Fatalf("the pipeline's results.json (SRDs at %s) differs from defersim run's (--srd %s) beyond the source:\n%s",
			url, srdDir, cmp.Diff(string(want), string(got)))
	}
}

// TestSRDURLRefused pins the launcher's refusal of a --srd URL that holds
// no routing descriptions, before a job starts.
func TestSRDURLRefused(t *testing.T) {
	for _, tc := range []struct{ name, srd, want string }{
		{"empty directory", "memfs://no-srds", "load SRDs: no .yaml, .yml or .json files in memfs://no-srds"},
		{"missing file", "memfs://no-srds/a.yaml", "load SRD: memfs://no-srds/a.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Spec{SRD: []string{tc.srd}, Out: t.TempDir()}.Config()
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
