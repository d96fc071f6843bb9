package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/atomicfile"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files under testdata/")

func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := atomicfile.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s changed (-want +got); rerun with -update if intended:\n%s", name, diff)
	}
}

// TestSRDEvalMultiToolGolden pins a multi-tool task file through srd eval:
// server recall and task recall in the report, and the per-query output
// (each need's ranks, the ranked lists and every search's results).
func TestSRDEvalMultiToolGolden(t *testing.T) {
	eval := filepath.Join("..", "..", "internal", "retrieval", "testdata", "eval")
	pq := filepath.Join(t.TempDir(), "per-query.jsonl")
	out, code := runSRDCmd(t, "eval", "--set", filepath.Join(eval, "tasks.yaml"), "--catalogs", filepath.Join(eval, "catalogs"),
		"--srd", filepath.Join(eval, "srd"), "--rankers", "bm25,bm25f", "--modes", "flat,routed,fused",
		"--resamples", "100", "--counter", "bytes/4", "--curve-k", "4", "--per-query", pq)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	for _, want := range []string{"| server recall@5 |", "| task recall@5 (all needs) |", "5 tasks · 10 needs", "### Against bm25/routed"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	goldenFile(t, "srd-eval-tasks.md", []byte(out))
	lines, err := os.ReadFile(pq)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(lines), "\n"); n != 5*6 {
		t.Errorf("%d per-query lines, want 5 tasks × 6 arms", n)
	}
	goldenFile(t, "srd-eval-tasks.jsonl", lines)
}
