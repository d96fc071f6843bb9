package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRecommendSaysDefaultLocalNotApplied pins that recommend without
// --scenario says it did not apply the embedded default's local servers,
// which a run without a scenario applies: it priced the sample's desktop
// tools as MCP tools and nothing said the default marks desktop local.
// With --scenario scenarios/default.yaml they are applied, and the note
// is the one on applied local servers instead.
func TestRecommendSaysDefaultLocalNotApplied(t *testing.T) {
	const notApplied = "without --scenario, recommend does not apply the default scenario's servers.desktop.local, which a run without a scenario applies"
	tests := []struct {
		name           string
		args           []string
		wantNotApplied bool
		wantLocal      bool
	}{
		{"no --scenario", nil, true, false},
		{"--scenario", []string{"--scenario", "../../scenarios/default.yaml"}, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"recommend", "../../scenarios/default/trace.jsonl.gz", "--test-share", "0", "--format", "json", "-q"}, tc.args...)
			out, errs, code := cliIn(t, nil, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, out, errs)
			}
			var p struct {
				Notes        []string `json:"notes"`
				LocalServers []string `json:"local_servers"`
				Snippet      string   `json:"snippet"`
			}
			if err := json.Unmarshal([]byte(out), &p); err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(p.Notes, "\n")
			if got := strings.Contains(notes, notApplied); got != tc.wantNotApplied {
				t.Errorf("notes say the default's desktop is not applied: %t, want %t:\n%s", got, tc.wantNotApplied, notes)
			}
			if got := strings.Contains(p.Snippet, "# note: "+notApplied); got != tc.wantNotApplied {
				t.Errorf("snippet comments say it: %t, want %t", got, tc.wantNotApplied)
			}
			if got := len(p.LocalServers) == 1 && p.LocalServers[0] == "desktop"; got != tc.wantLocal {
				t.Errorf("local servers %q: desktop applied %t, want %t", p.LocalServers, got, tc.wantLocal)
			}
		})
	}
}
