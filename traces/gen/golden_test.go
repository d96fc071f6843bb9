package gen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestGolden pins a tiny generation (the web server's catalog and two
// sessions) so unintended changes to the output are seen in review.
func TestGolden(t *testing.T) {
	p := Defaults()
	p.Servers, p.Sessions, p.Drift.Servers = 4, 2, 0
	g, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	w := traces.NewWriter(&trace, false)
	for s := range g.Sessions() {
		if err := w.WriteSession(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{
		"web-catalog.json": g.servers[0].versions[0].toolsList(),
		"trace.jsonl":      trace.Bytes(),
	} {
		path := filepath.Join("testdata", "golden", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create)", err)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Errorf("%s differs (-want +got; run with -update if intended):\n%s", name, d)
		}
	}
}
