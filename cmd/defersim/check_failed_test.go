package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestCheckJSONFailedAgreesWithExitStatus pins that check's JSON says
// what its exit status says: a current run whose catalogs hold a version
// no session replayed exited 1 while its JSON said "regression": false
// and nothing else of the verdict, so a CI job reading the JSON passed it.
// "failed" is true exactly when the exit status is not 0, "fail_reasons"
// says why, and "regression" still says only that a check regressed.
func TestCheckJSONFailedAgreesWithExitStatus(t *testing.T) {
	dir := t.TempDir()
	// withCatalogs gives r the catalogs srv@VERSIONS; with unreplayed, the
	// last was replayed by no session.
	withCatalogs := func(r *report.Results, unreplayed bool, versions ...string) *report.Results {
		for _, v := range versions {
			r.Run.Inputs = append(r.Run.Inputs, sim.Input{Kind: "catalog", Path: "srv@" + v + ".json", SHA256: "sha-" + v, Bytes: 10, Server: "srv", Version: v})
		}
		if unreplayed {
			r.Run.Resolution = &sim.ResolutionInfo{UnreplayedVersions: []sim.UnreplayedVersions{
				{Server: "srv", Versions: versions[len(versions)-1:], Replayed: versions[:len(versions)-1]}}}
		}
		return r
	}
	write := func(name string, r *report.Results) string { return writeResultsFile(t, dir, name, r) }
	base := write("base.json", withCatalogs(checkResults("f1", 1), false, "1.0.0"))
	same := write("same.json", withCatalogs(checkResults("f1", 1), false, "1.0.0"))
	worse := write("worse.json", withCatalogs(checkResults("f1", 1.5), false, "1.0.0"))
	upgraded := write("upgraded.json", withCatalogs(checkResults("f1", 1), true, "1.0.0", "1.1.0"))
	upgradedWorse := write("upgraded-worse.json", withCatalogs(checkResults("f1", 1.5), true, "1.0.0", "1.1.0"))
	other := write("other.json", withCatalogs(checkResults("f2", 1), false, "1.0.0"))
	tests := []struct {
		name       string
		cur        string
		args       []string
		code       int
		regression bool
		reasons    []string
	}{
		{"pass", same, nil, 0, false, []string{}},
		{"regression only", worse, nil, 1, true, []string{"regression"}},
		{"unreplayed only", upgraded, nil, 1, false, []string{"unreplayed"}},
		{"both", upgradedWorse, nil, 1, true, []string{"regression", "unreplayed"}},
		{"unreplayed allowed", upgraded, []string{"--allow", "unreplayed"}, 0, false, []string{}},
		{"unreplayed allowed, regression", upgradedWorse, []string{"--allow", "unreplayed"}, 1, true, []string{"regression"}},
		{"incomparable", other, nil, 2, false, []string{"incomparable"}},
		{"unreadable", filepath.Join(dir, "absent.json"), nil, 2, false, []string{"unreadable"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			outFile := filepath.Join(dir, "check.json")
			os.Remove(outFile)
			out, code := runCLI(t, append([]string{"check", "--baseline", base, tc.cur, "--format", "json", "-o", outFile}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, out)
			}
			data, err := os.ReadFile(outFile)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Failed      *bool    `json:"failed"`
				FailReasons []string `json:"fail_reasons"`
				Regression  bool     `json:"regression"`
			}
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if got.Failed == nil || *got.Failed != (code != 0) {
				t.Errorf("failed = %v with exit status %d\n%s", got.Failed, code, data)
			}
			if diff := cmp.Diff(tc.reasons, got.FailReasons); diff != "" {
				t.Errorf("fail_reasons (-want +got):\n%s", diff)
			}
			if got.Regression != tc.regression {
				t.Errorf("regression = %v, want %v", got.Regression, tc.regression)
			}
		})
	}
}

// TestCheckMarkdownFailureWritesNoVerdict pins that check writes no report
// when its --markdown file cannot be written (exit 2): the JSON report,
// printed first, said "failed": false on a pass while the command exited
// 2 (review), against docs/check.md's "true exactly when the exit status
// is not 0".
func TestCheckMarkdownFailureWritesNoVerdict(t *testing.T) {
	dir := t.TempDir()
	base := writeResultsFile(t, dir, "base.json", checkResults("f1", 1))
	cur := writeResultsFile(t, dir, "cur.json", checkResults("f1", 1))
	outFile := filepath.Join(dir, "check.json")
	out, code := runCLI(t, "check", "--baseline", base, cur, "--format", "json", "-o", outFile,
		"--markdown", filepath.Join(dir, "absent", "dir", "x.md"))
	if code != 2 {
		t.Fatalf("exit %d, want 2\n%s", code, out)
	}
	if _, err := os.Stat(outFile); !os.IsNotExist(err) {
		t.Errorf("a report was written (%v) though check exited 2", err)
	}
}
