package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestRunWarnsOfUnrecordedContent pins the walk's case end to end: three
// sessions call gh/get_issue, whose schema requires "id", before and after
// a description-only upgrade. With the arguments marked not recorded
// (args_unrecorded), run counts the stale-warm calls in calls_unchecked
// and none malformed (it counted 3 malformed_missing_required, checking
// them as {}), and with the results marked not recorded
// (result_unrecorded) it counts the calls in calls_result_unrecorded; run,
// merge over shards and sweep warn of both on stderr in the same words,
// and the report says them. Arguments recorded as none, without the mark,
// keep their meaning: {} (3 malformed); and a call without a result,
// without the mark, had an empty one (tau-bench's think): it is counted
// and warned of nowhere, where every tau-bench run warned of its 92.
func TestRunWarnsOfUnrecordedContent(t *testing.T) {
	dir := t.TempDir()
	cats := filepath.Join(dir, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	for v, desc := range map[string]string{"1": "Get an issue", "2": "Get an issue of a repository"} {
		cat := `{"tools":[{"name":"get_issue","description":"` + desc + `","inputSchema":{"type":"object",` +
			`"properties":{"id":{"type":"string"}},"required":["id"]}}]}`
		if err := os.WriteFile(filepath.Join(cats, "gh@"+v+".json"), []byte(cat), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	trace := func(call string) string {
		var b strings.Builder
		for i := range 3 {
			s := fmt.Sprintf(`"session":"s%d"`, i)
			c := func(id, req, at string) string {
				return `{"type":"tool_call",` + s + `,"t":"2026-01-01T10:00:0` + at + `Z","request":"` + req + `","call_id":"` + id +
					`","tool":"get_issue","server":"gh","status":"ok"` + call + "}\n"
			}
			b.WriteString(`{"v":1,"type":"session_start",` + s + `,"t":"2026-01-01T10:00:00Z","servers":[{"name":"gh","version":"1"}]}` + "\n" +
				`{"type":"user",` + s + `,"t":"2026-01-01T10:00:01Z","text":"look at issue 42"}` + "\n" +
				`{"type":"model_request",` + s + `,"t":"2026-01-01T10:00:02Z","id":"r0"}` + "\n" + c("c0", "r0", "3") +
				`{"type":"catalog_change",` + s + `,"t":"2026-01-01T10:00:04Z","server":"gh","version":"2"}` + "\n" +
				`{"type":"model_request",` + s + `,"t":"2026-01-01T10:00:05Z","id":"r1"}` + "\n" + c("c1", "r1", "6") +
				`{"type":"model_request",` + s + `,"t":"2026-01-01T10:00:07Z","id":"r2"}` + "\n" +
				`{"type":"assistant",` + s + `,"t":"2026-01-01T10:00:08Z","request":"r2","text":"done"}` + "\n" +
				`{"type":"session_end",` + s + `,"t":"2026-01-01T10:00:09Z"}` + "\n")
		}
		return b.String()
	}
	const argsWarning = "defersim: warning: arguments not recorded: the traces did not record the arguments of stale-warm calls"
	const resultsWarning = "defersim: warning: results not recorded: 6 tool calls have a result the traces did not record"
	for _, tc := range []struct {
		name, call                     string
		malformed, unchecked, noResult float64
		warnArgs, warnResults          bool
	}{
		{"recorded", `,"args":{"id":"42"},"result":"issue 42: open"`, 0, 0, 0, false, false},
		{"recorded without arguments", `,"result":"issue 42: open"`, 3, 0, 0, false, false},
		{"not recorded", `,"args_unrecorded":true,"result_unrecorded":true`, 0, 3, 6, true, true},
		{"result empty", `,"args":{"id":"42"}`, 0, 0, 0, false, false},
		{"arguments not recorded and result empty", `,"args_unrecorded":true`, 0, 3, 0, true, false},
		{"result recorded and marked too", `,"args":{"id":"42"},"result":"issue 42: open","result_unrecorded":true`, 0, 0, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tr := filepath.Join(dir, "t.jsonl")
			if err := os.WriteFile(tr, []byte(trace(tc.call)), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--traces", tr, "--catalogs", cats, "--strategies", "claude-code-default", "--bootstrap", "-1"}
			stderrs := map[string]string{}
			for _, shard := range []string{"", "0/2", "1/2"} {
				a := append([]string{"run", "-q", "-o", filepath.Join(dir, "run"+strings.ReplaceAll(shard, "/", "-"))}, args...)
				if shard != "" {
					a = append(a, "--shard", shard)
				}
				stdout, stderr, code := cliRun(t, a...)
				if code != 0 {
					t.Fatalf("run %s: exit %d\n%s%s", shard, code, stdout, stderr)
				}
				stderrs[shard] = stderr
			}
			_, merged, code := cliRun(t, "merge", "-q", filepath.Join(dir, "merged"), filepath.Join(dir, "run0-2"), filepath.Join(dir, "run1-2"))
			if code != 0 {
				t.Fatalf("merge: exit %d\n%s", code, merged)
			}
			_, swept, code := cliRun(t, append([]string{"sweep", "--param", "params.nudge_prob=0:0.1:0.1", "-o", filepath.Join(dir, "sweep")}, args...)...)
			if code != 0 {
				t.Fatalf("sweep: exit %d\n%s", code, swept)
			}
			for what, stderr := range map[string]string{"run": stderrs[""], "merge": merged, "sweep": swept} {
				if got := strings.Contains(stderr, argsWarning); got != tc.warnArgs {
					t.Errorf("%s warns %q: %v, want %v\n%s", what, argsWarning, got, tc.warnArgs, stderr)
				}
				if got := strings.Contains(stderr, resultsWarning); got != tc.warnResults {
					t.Errorf("%s warns %q: %v, want %v\n%s", what, resultsWarning, got, tc.warnResults, stderr)
				}
			}
			if merged != stderrs[""] {
				t.Errorf("merge's stderr differs from run's:\nmerge:\n%s\nrun:\n%s", merged, stderrs[""])
			}
			runJSON, err := os.ReadFile(filepath.Join(dir, "run", "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			mergedJSON, err := os.ReadFile(filepath.Join(dir, "merged", "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			if string(runJSON) != string(mergedJSON) {
				t.Errorf("merged results.json differs from run's")
			}
			res, err := report.ReadResults(filepath.Join(dir, "run", "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			m := res.Strategies[0].Metrics
			for name, want := range map[string]float64{
				sim.Metrics[sim.MMalformedMissingRequired].Name: tc.malformed,
				sim.Metrics[sim.MCallsUnchecked].Name:           tc.unchecked,
				sim.Metrics[sim.MCallsResultUnrecorded].Name:    tc.noResult,
				sim.Metrics[sim.MStaleWarmCalls].Name:           3,
			} {
				if got := m[name].Sum; got != want {
					t.Errorf("%s = %v, want %v", name, got, want)
				}
			}
			md, err := os.ReadFile(filepath.Join(dir, "run", "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			for finding, want := range map[string]bool{"Arguments not recorded:": tc.warnArgs, "Results not recorded:": tc.warnResults} {
				if got := strings.Contains(string(md), finding); got != want {
					t.Errorf("report.md says %q: %v, want %v", finding, got, want)
				}
			}
		})
	}
}
