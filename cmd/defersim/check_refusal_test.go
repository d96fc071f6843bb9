package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestCheckJSONRefusalOnStdout pins that `check --format json` on two
// files that cannot be compared writes a JSON object with "comparable":
// false and the reasons on stdout (or to -o FILE), keeping exit 2 and the
// text refusal on stderr. It wrote nothing on stdout, so a CI job parsing
// the JSON read empty input. A comparable pair says "comparable": true.
func TestCheckJSONRefusalOnStdout(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, r *report.Results) string { return writeResultsFile(t, dir, name, r) }
	base := write("base.json", checkResults("f1", 1))
	same := write("same.json", checkResults("f1", 1))
	otherRes := checkResults("f2", 1)
	otherRes.Run.Seed = 2
	other := write("other.json", otherRes)
	outFile := filepath.Join(dir, "check.json")
	type reason struct {
		What    string   `json:"what"`
		Line    string   `json:"line"`
		Details []string `json:"details"`
		Remedy  string   `json:"remedy"`
	}
	type doc struct {
		Comparable *bool    `json:"comparable"`
		Verdict    string   `json:"verdict"`
		Reasons    []reason `json:"reasons"`
		Remedies   []string `json:"remedies"`
		Checks     []any    `json:"checks"`
	}
	tests := []struct {
		name       string
		args       []string
		file       string // where the JSON goes ("" = stdout)
		wantCode   int
		comparable bool
		emptyOut   bool // stdout must stay empty (text format, or -o FILE)
	}{
		{"incomparable json on stdout", []string{"check", "--baseline", base, other, "--format", "json"}, "", 2, false, false},
		{"incomparable json to -o", []string{"check", "--baseline", base, other, "--format", "json", "-o", outFile}, outFile, 2, false, true},
		{"incomparable text: nothing on stdout", []string{"check", "--baseline", base, other}, "", 2, false, true},
		{"comparable json", []string{"check", "--baseline", base, same, "--format", "json"}, "", 0, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := newRootCmd()
			var stdout, stderr strings.Builder
			root.SetOut(&stdout)
			root.SetErr(&stderr)
			root.SetArgs(tc.args)
			code, msg := 0, ""
			if err := root.Execute(); err != nil {
				var ex exitError
				if !asExit(err, &ex) {
					t.Fatalf("error %v is no exit status", err)
				}
				code, msg = ex.code, ex.msg
			}
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d: %s", code, tc.wantCode, msg)
			}
			if tc.emptyOut {
				if stdout.Len() != 0 {
					t.Errorf("stdout %q, want nothing", stdout.String())
				}
				if tc.file == "" {
					return
				}
			}
			if !tc.comparable && !strings.Contains(msg, "results cannot be compared: the two files differ in their scenarios\n  scenario fingerprint f1") {
				t.Errorf("the text refusal (stderr) changed:\n%s", msg)
			}
			data := []byte(stdout.String())
			if tc.file != "" {
				var err error
				if data, err = os.ReadFile(tc.file); err != nil {
					t.Fatal(err)
				}
			}
			var d doc
			if err := json.Unmarshal(data, &d); err != nil {
				t.Fatalf("output is no JSON object: %v\n%s", err, data)
			}
			if d.Comparable == nil || *d.Comparable != tc.comparable {
				t.Fatalf("comparable %v, want %v:\n%s", d.Comparable, tc.comparable, data)
			}
			if tc.comparable {
				if len(d.Checks) == 0 || len(d.Reasons) != 0 {
					t.Errorf("comparable report: %d checks, %d reasons", len(d.Checks), len(d.Reasons))
				}
				return
			}
			if first, _, _ := strings.Cut(msg, "\n"); d.Verdict != first {
				t.Errorf("verdict %q, want the text's first line %q", d.Verdict, first)
			}
			if len(d.Reasons) != 1 || d.Reasons[0].What != "their scenarios" {
				t.Fatalf("reasons %+v, want one: their scenarios", d.Reasons)
			}
			r := d.Reasons[0]
			if !strings.HasPrefix(r.Line, "scenario fingerprint f1 (baseline") || !strings.Contains(strings.Join(r.Details, "\n"), "seed: 1 vs 2") {
				t.Errorf("reason %+v lacks the fingerprints or the seed", r)
			}
			for _, part := range append([]string{r.Line, r.Remedy}, r.Details...) {
				if !strings.Contains(msg, part) {
					t.Errorf("JSON states %q, which the text refusal does not:\n%s", part, msg)
				}
			}
			if len(d.Remedies) != 1 || d.Remedies[0] != r.Remedy || !strings.Contains(r.Remedy, "replay both runs with the same seed") {
				t.Errorf("remedies %q, reason's remedy %q", d.Remedies, r.Remedy)
			}
		})
	}
}
