package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestFidelityDocSplits recomputes the "Other halves" table of
// docs/fidelity.md — calibrate's held-out request-time median, p90 and KS
// on the tau2 telecom and airline runs, one overhead and request kinds,
// for the five splits the page names — and checks each row is on the page
// as calibrate gives it now. Its first row is also the request-time rows
// of the page's main table. All rows are current.
func TestFidelityDocSplits(t *testing.T) {
	if testing.Short() {
		t.Skip("20 calibrations of the real tau2 runs, 10-20 s (-short)")
	}
	_, page := docPage(t, "fidelity.md")
	t.Chdir(t.TempDir())
	board := shareddata.Path(t, "sessions", "tau2-bench", "web", "leaderboard", "public")
	tools := filepath.Join(board, "task-data", "tools-data.json")
	traces := []struct{ file, src string }{
		{"tau2-telecom.jsonl.gz", shareddata.Path(t, "sessions", "tau2-bench", "data", "simulations", "2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json")},
		{"tau2-airline.jsonl.gz", filepath.Join(board, "submissions", "gpt-oss-120b_openai_2025-11-26", "trajectories", "langchain_agent_airline_2025-11-26_00-37-06.json")},
	}
	for _, tr := range traces {
		if stdout, stderr, code := cliRun(t, "trace", "import", "--from", "tau2", tr.src, "--tools", tools, "-o", tr.file); code != 0 {
			t.Fatalf("import %s: exit %d\n%s%s", tr.file, code, stdout, stderr)
		}
	}
	cell := func(fitOn []string, trace string, kinds bool) string {
		t.Helper()
		args := append([]string{"calibrate", trace, "--fit-on"}, fitOn...)
		if strings.Contains(trace, "airline") {
			args = append(args, "--model", "gpt-4o")
		}
		args = append(args, fmt.Sprintf("--kinds=%v", kinds), "--json", "cal.json", "-o", filepath.Join("out", "cal.yaml"))
		if stdout, stderr, code := cliRun(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		var cal struct {
			Models []struct {
				HeldOut calibrateDocEval `json:"held_out_latency"`
			} `json:"models"`
		}
		readJSON(t, "cal.json", &cal)
		if len(cal.Models) != 1 {
			t.Fatalf("%v: %d model groups", args, len(cal.Models))
		}
		e := cal.Models[0].HeldOut
		return fmt.Sprintf("%.1f%%, %.1f%% (%.3f)", 100*e.Requests.Median, 100*e.Requests.P90, e.RequestKS)
	}
	for _, row := range []struct {
		label string
		fitOn []string
	}{
		{"even (fit) / odd (judged)", []string{"even"}},
		{"odd / even", []string{"odd"}},
		{"share 0.5, seed 1", []string{"0.5", "--seed", "1"}},
		{"share 0.5, seed 2", []string{"0.5", "--seed", "2"}},
		{"share 0.5, seed 3", []string{"0.5", "--seed", "3"}},
	} {
		cells := []string{row.label}
		for _, tr := range traces {
			for _, kinds := range []bool{false, true} {
				cells = append(cells, cell(row.fitOn, tr.file, kinds))
			}
		}
		if want := "| " + strings.Join(cells, " | ") + " |"; !strings.Contains(page, "\n"+want+"\n") {
			t.Errorf("docs/fidelity.md lacks the row\n%s", want)
		}
	}
}
