package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/embeddings/embedtest"
	"github.com/defersim/defersim/internal/shareddata"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files under testdata/ and the quoted output of docs/recommend.md")

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

// TestSRDEvalProgress pins issue 19's progress on every long command for
// srd eval (silent until it ended before): without a terminal it writes
// plain lines on stderr, nothing with -q, and its report on stdout is
// unchanged.
func TestSRDEvalProgress(t *testing.T) {
	eval := filepath.Join("..", "..", "internal", "retrieval", "testdata", "eval")
	args := []string{"srd", "eval", "--set", filepath.Join(eval, "tasks.yaml"), "--catalogs", filepath.Join(eval, "catalogs"),
		"--srd", filepath.Join(eval, "srd"), "--rankers", "bm25", "--modes", "flat", "--resamples", "10", "--counter", "bytes/4",
		"--progress-every", "1ns"}
	out, errs, code := cliIn(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkProgress(t, "srd eval", errs, "srd eval: scored 1 of 5 queries", "srd eval: scored 5 queries in ")
	if !strings.Contains(out, "## Retrieval: tiny-tasks") || strings.Contains(out, "srd eval:") {
		t.Errorf("stdout is not the report alone:\n%s", out)
	}
	if _, errs, code := cliIn(t, nil, append(args, "-q")...); code != 0 || errs != "" {
		t.Errorf("srd eval -q: exit %d, stderr %q", code, errs)
	}
}

// TestSRDEvalEmbeddings runs the dense and hybrid rankers end to end
// against a fake OpenAI-compatible endpoint; the second run is served by
// the cache and makes no request. Without an endpoint, the embedding
// rankers are refused and nothing is sent.
func TestSRDEvalEmbeddings(t *testing.T) {
	srv := embedtest.New()
	defer srv.Close()
	eval := filepath.Join("..", "..", "internal", "retrieval", "testdata", "eval")
	cache := t.TempDir()
	args := []string{"eval", "--set", filepath.Join(eval, "tasks.yaml"), "--catalogs", filepath.Join(eval, "catalogs"),
		"--srd", filepath.Join(eval, "srd"), "--rankers", "bm25,dense,hybrid", "--modes", "flat,fused",
		"--resamples", "20", "--counter", "bytes/4", "--embeddings-url", srv.URL + "/v1", "--embeddings-model", "fake",
		"--embeddings-cache", cache}
	out, code := runSRDCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	for _, want := range []string{"### dense", "### hybrid", "| hybrid/fused |"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	first := srv.Requests()
	if first == 0 {
		t.Fatal("no request reached the endpoint")
	}
	again, code := runSRDCmd(t, args...)
	if code != 0 {
		t.Fatalf("second run: exit %d: %s", code, again)
	}
	if n := srv.Requests() - first; n != 0 {
		t.Errorf("second run made %d requests, want 0 (cache)", n)
	}
	if again != out {
		t.Error("second run's report differs from the first")
	}

	// No endpoint: refused, no request.
	before := srv.Requests()
	out, code = runSRDCmd(t, "eval", "--set", filepath.Join(eval, "tasks.yaml"), "--catalogs", filepath.Join(eval, "catalogs"),
		"--srd", filepath.Join(eval, "srd"), "--rankers", "dense")
	if code == 0 || !strings.Contains(out, "needs an embeddings endpoint") || srv.Requests() != before {
		t.Errorf("dense without an endpoint: exit %d, %q", code, out)
	}
	// A failing endpoint fails the command.
	bad := append(slices.Clone(args[:len(args)-4]), "--embeddings-model", "fail", "--embeddings-cache", t.TempDir())
	if out, code := runSRDCmd(t, bad...); code == 0 || !strings.Contains(out, "model failed") {
		t.Errorf("failing endpoint: exit %d, %q", code, out)
	}
}

// TestSRDEvalRefusesKnobsNoArmReads pins that a routing flag no arm of
// --modes reads stops srd eval (--modes flat --domain-weight 0.2 used to
// print a report the flag had not touched; the fused arm has its own
// settings), while the flags are accepted with an arm that reads them.
func TestSRDEvalRefusesKnobsNoArmReads(t *testing.T) {
	eval := filepath.Join("..", "..", "internal", "retrieval", "testdata", "eval")
	base := []string{"eval", "--set", filepath.Join(eval, "tasks.yaml"), "--catalogs", filepath.Join(eval, "catalogs"),
		"--srd", filepath.Join(eval, "srd"), "--rankers", "bm25", "--resamples", "10", "--counter", "bytes/4"}
	for _, tc := range []struct {
		args []string
		want string // "" = accepted
	}{
		{[]string{"--modes", "flat", "--domain-weight", "0.2"}, "--domain-weight sets the routed and routed-hard arms, and --modes flat has none"},
		{[]string{"--modes", "fused", "--match-floor", "0.1"}, "--match-floor sets the routed and routed-hard arms, and --modes fused has none"},
		{[]string{"--modes", "flat,fused", "--lead=false"}, "--lead sets"},
		{[]string{"--modes", "flat", "--domain-text", "names"}, "--domain-text sets"},
		{[]string{"--modes", "flat,routed", "--hard-domains", "2"}, "--hard-domains sets the routed-hard arms, and --modes flat,routed has none"},
		{[]string{"--modes", "flat,routed", "--domain-weight", "0.2"}, ""},
		{[]string{"--modes", "routed-hard", "--hard-domains", "2"}, ""},
		{[]string{"--modes", "flat"}, ""},
	} {
		out, code := runSRDCmd(t, append(slices.Clone(base), tc.args...)...)
		switch {
		case tc.want == "" && code != 0:
			t.Errorf("%v: exit %d: %s", tc.args, code, out)
		case tc.want != "" && (code != 2 || !strings.Contains(out, tc.want)):
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.args, code, out, tc.want)
		}
	}
}

// TestSRDEvalCapsMissingToolNames pins that `srd eval` over a set whose
// tools the SRDs do not group lists at most ten of the missing tools, with
// how many there are: `--set metatool --srd srd/data/catalogs` printed all
// 630 names (about 28 KB) on one line.
func TestSRDEvalCapsMissingToolNames(t *testing.T) {
	out, code := runSRDCmd(t, "eval", "--set", "metatool", "--data", shareddata.Dir(t), "--srd", filepath.Join("..", "..", "srd", "data", "catalogs"),
		"--rankers", "bm25", "--resamples", "10", "--counter", "bytes/4")
	if code != 2 || !strings.Contains(out, "SRDs group tools that set metatool does not have") {
		t.Fatalf("exit %d, %q: want exit 2 and the missing tools", code, out)
	}
	if !regexp.MustCompile(`\(\d+ of the \d+ they group; `).MatchString(out) || !strings.Contains(out, "… and ") {
		t.Errorf("%q: want the counts and a cut list", out)
	}
	if n := strings.Count(out, "/"); n > 11 || len(out) > 2000 {
		t.Errorf("%d names, %d bytes: want at most ten names", n, len(out))
	}
}
