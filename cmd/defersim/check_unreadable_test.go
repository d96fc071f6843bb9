package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckJSONNamesUnreadableFile pins that `check --format json` writes a
// JSON object on stdout (or to -o FILE) when a results file cannot be read
// at all — missing, or cut short — of the family of the incomparable
// refusal ("comparable": false, "verdict", empty "reasons" and
// "remedies") with "unreadable": which file, its name and why; exit 2 and
// the stderr message unchanged. It wrote nothing on stdout, so a CI job
// parsing the JSON read empty input.
func TestCheckJSONNamesUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	good := writeResultsFile(t, dir, "good.json", checkResults("f1", 1))
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.json")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.json")
	outFile := filepath.Join(dir, "check.json")
	tests := []struct {
		name   string
		args   []string
		file   string // where the JSON goes ("" = stdout; "-" = nowhere: text format)
		which  string
		bad    string
		reason string // what the reason holds
	}{
		{"missing baseline", []string{"--baseline", missing, good, "--format", "json"}, "", "baseline", missing, "no such file or directory"},
		{"missing current", []string{"--baseline", good, missing, "--format", "json"}, "", "current", missing, "no such file or directory"},
		{"cut current", []string{"--baseline", good, cut, "--format", "json"}, "", "current", cut, "unexpected end of JSON input"},
		{"cut baseline to -o", []string{"--baseline", cut, good, "--format", "json", "-o", outFile}, outFile, "baseline", cut, "unexpected end of JSON input"},
		{"missing baseline, text: nothing on stdout", []string{"--baseline", missing, good}, "-", "baseline", missing, "no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, append([]string{"check"}, tc.args...)...)
			msg := strings.TrimSuffix(stderr, "\n")
			if code != 2 || !strings.HasPrefix(msg, "read results "+tc.bad+": ") || !strings.Contains(msg, tc.reason) {
				t.Fatalf("exit %d, stderr %q: want 2 and the message naming %s (%s)", code, stderr, tc.bad, tc.reason)
			}
			out := []byte(stdout)
			switch tc.file {
			case "-":
				if stdout != "" {
					t.Errorf("text format: stdout %q, want nothing", stdout)
				}
				return
			case "":
			default:
				if stdout != "" {
					t.Errorf("-o: stdout %q, want nothing", stdout)
				}
				if out, err = os.ReadFile(tc.file); err != nil {
					t.Fatal(err)
				}
			}
			var d struct {
				Baseline   string   `json:"baseline"`
				Current    string   `json:"current"`
				Comparable *bool    `json:"comparable"`
				Verdict    string   `json:"verdict"`
				Reasons    []any    `json:"reasons"`
				Remedies   []string `json:"remedies"`
				Unreadable *struct {
					Which, File, Reason string
				} `json:"unreadable"`
			}
			if err := json.Unmarshal(out, &d); err != nil {
				t.Fatalf("output is no JSON object: %v\n%s", err, out)
			}
			first, _, _ := strings.Cut(msg, "\n")
			switch {
			case d.Comparable == nil || *d.Comparable:
				t.Errorf("comparable %v, want false", d.Comparable)
			case d.Verdict != first:
				t.Errorf("verdict %q, want stderr's first line %q", d.Verdict, first)
			case d.Reasons == nil || len(d.Reasons) != 0 || d.Remedies == nil || len(d.Remedies) != 0:
				t.Errorf("reasons %v, remedies %v: want both empty lists", d.Reasons, d.Remedies)
			case d.Baseline != tc.args[1] || d.Current != tc.args[2]:
				t.Errorf("baseline %q, current %q: want the paths given", d.Baseline, d.Current)
			case d.Unreadable == nil:
				t.Errorf("no unreadable:\n%s", out)
			case d.Unreadable.Which != tc.which || d.Unreadable.File != tc.bad || !strings.Contains(d.Unreadable.Reason, tc.reason) ||
				msg != "read results "+d.Unreadable.File+": "+d.Unreadable.Reason:
				t.Errorf("unreadable %+v, want %s %s (%s), and the message to be read results FILE: REASON:\n%s", *d.Unreadable, tc.which, tc.bad, tc.reason, msg)
			}
		})
	}
}
