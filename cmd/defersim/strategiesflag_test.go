package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepStrategiesFlagIsRuns pins that sweep's --strategies is run's
// (addStrategiesFlag): the same help, and on the same scenario the same
// value — comma-separated or repeated, presets or the scenario's names —
// replays the same strategies in the same order, and a name neither holds
// is refused with the same message. sweep defined its own flag with other
// help text.
func TestSweepStrategiesFlagIsRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	help := func(cmd string) string {
		c, _, err := newRootCmd().Find([]string{cmd})
		if err != nil {
			t.Fatal(err)
		}
		return c.Flags().Lookup("strategies").Usage
	}
	if run, sweep := help("run"), help("sweep"); run != sweep {
		t.Errorf("--strategies help: run %q, sweep %q", run, sweep)
	}
	dir, trace, head := scenarioFixture(t)
	scen := filepath.Join(dir, "s.yaml")
	body := head + "traces: [" + trace + "]\nstrategies:\n  - eager\n  - claude-code-default\n  - {name: mine, base: claude-code-default, never_defer: [get]}\n"
	if err := os.WriteFile(scen, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	names := func(path string) []string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Strategies []struct{ Name string } `json:"strategies"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range r.Strategies {
			out = append(out, s.Name)
		}
		return out
	}
	tests := []struct {
		name  string
		flags []string
		want  []string // nil: refused
	}{
		{"comma-separated", []string{"--strategies", "mine,eager"}, []string{"mine", "eager"}},
		{"repeated, with a preset", []string{"--strategies", "mine", "--strategies", "codex-cli"}, []string{"mine", "codex-cli"}},
		{"a name neither holds", []string{"--strategies", "eagr"}, nil},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runDir, sweepDir := filepath.Join(dir, "run", string(rune('a'+i))), filepath.Join(dir, "sweep", string(rune('a'+i)))
			_, runErr, runCode := cliRun(t, append([]string{"run", scen, "--bootstrap", "-1", "-q", "--no-report", "-o", runDir}, tc.flags...)...)
			_, sweepErr, sweepCode := cliRun(t, append([]string{"sweep", scen, "--param", "model.context_window=100000:200000:100000", "--bootstrap", "-1", "-o", sweepDir}, tc.flags...)...)
			if tc.want == nil {
				if runCode == 0 || sweepCode != runCode || strings.TrimSpace(sweepErr) != strings.TrimSpace(runErr) {
					t.Errorf("run: exit %d %q; sweep: exit %d %q; want the same refusal", runCode, runErr, sweepCode, sweepErr)
				}
				return
			}
			if runCode != 0 || sweepCode != 0 {
				t.Fatalf("run: exit %d %s; sweep: exit %d %s", runCode, runErr, sweepCode, sweepErr)
			}
			if d := cmp.Diff(tc.want, names(filepath.Join(runDir, "results.json"))); d != "" {
				t.Errorf("run's strategies (-want +got):\n%s", d)
			}
			for _, v := range []string{"100000", "200000"} {
				if d := cmp.Diff(tc.want, names(filepath.Join(sweepDir, "model.context_window="+v, "results.json"))); d != "" {
					t.Errorf("sweep's strategies at %s (-want +got):\n%s", v, d)
				}
			}
		})
	}
}
