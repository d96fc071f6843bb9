package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSRDFlag pins issue 15's criterion for `run --srd` from the
// command line: on the embedded data a routed strategy replayed with a
// test SRD set (internal/runner/testdata/srd-default, six of the embedded
// servers) has different outcomes from the same run over the embedded
// set, and report.md and results.json name the set used — the embedded
// one when no --srd is given; the scenario key srd: names the same set.
func TestRunSRDFlag(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "routed.yaml")
	if err := os.WriteFile(sc, []byte(`name: routed
seed: 3
traces: [embedded:trace.jsonl.gz]
catalogs: [embedded:catalog]
params: {select_prob: 0}
strategies:
  - name: routed
    base: claude-code-default
    search: {mode: routed, k: 3}
    directory: {format: by-domain}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	srd, err := filepath.Abs(filepath.Join("..", "..", "internal", "runner", "testdata", "srd-default"))
	if err != nil {
		t.Fatal(err)
	}
	// The same set named by the scenario key srd: (relative to the file).
	keyed := filepath.Join(dir, "keyed", "routed.yaml")
	if err := os.MkdirAll(filepath.Dir(keyed), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(srd, filepath.Join(dir, "keyed", "mine")); err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyed, append(body, "srd: [mine]\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name, file string, extra ...string) (reportMD string, digest string) {
		t.Helper()
		out := filepath.Join(dir, name)
		args := append([]string{"run", file, "--bootstrap", "-1", "-q", "-o", out}, extra...)
		if got, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%q: exit %d:\n%s", args, code, got)
		}
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		res := readResultsFile(t, filepath.Join(out, "results.json"))
		return string(md), res.Strategy("routed").OutcomeDigest
	}
	embeddedMD, embeddedDigest := run("embedded", sc)
	ownMD, ownDigest := run("own", sc, "--srd", srd)
	keyedMD, keyedDigest := run("keyed", keyed)
	if keyedDigest != ownDigest || !strings.Contains(keyedMD, "6 SRDs") {
		t.Errorf("the scenario key srd: gives digest %s, --srd %s: want the same set used", keyedDigest, ownDigest)
	}
	if embeddedDigest == ownDigest {
		t.Errorf("routed outcomes identical with the embedded SRDs and with --srd %s (digest %s)", srd, ownDigest)
	}
	if !strings.Contains(ownMD, "srd-default") || !strings.Contains(ownMD, "6 SRDs") {
		t.Errorf("report.md does not name the --srd set:\n%s", ownMD)
	}
	if !strings.Contains(embeddedMD, "the embedded routing descriptions") {
		t.Errorf("report.md does not say the embedded set was used:\n%s", embeddedMD)
	}
}
