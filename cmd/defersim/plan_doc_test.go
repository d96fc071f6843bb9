package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestPlanDocOutput pins the worked examples of docs/plan.md — the
// tau-bench projection with catalog growth and the budget-trigger sweep —
// to what plan and sweep print now, over the run of docs/check.md's
// taubench.yaml they start from. The projection had drifted (engine
// changes since it was written moved claude-code-default's and ours's
// cost, e.g. claude-code-default's cost growth 1.81× → 1.88×, and plan
// prints the no-times warning and a "vs previous point" column), and
// recomputes the prose's "about 65,000 schema tokens per request".
func TestPlanDocOutput(t *testing.T) {
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	_, check := docPage(t, "check.md")
	doc, text := docPage(t, "plan.md")
	scen := checkDocYAML(t, check, "`taubench.yaml`:")
	t.Chdir(t.TempDir())
	if err := os.WriteFile("taubench.yaml", []byte(scen), 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := shareddata.Path(t, "sessions", "tau-bench")
	for _, args := range [][]string{
		{"trace", "import", "--from", "tau-bench", filepath.Join(sessions, "historical_trajectories", "gpt-4o-airline.json"),
			"--tools", filepath.Join(sessions, "tools_airline.json"), "-o", "data/taubench.jsonl.gz"},
		{"run", "taubench.yaml", "-o", "out/base", "-q", "--no-report"},
	} {
		if stdout, stderr, code := cliRun(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	docRun(t, doc, func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }, nil)

	// The prose: eager's schema tokens per request at the largest point.
	var res docResults
	readJSON(t, filepath.Join("out", "plan", "tools=225", "results.json"), &res)
	for _, s := range res.Strategies {
		if s.Name != "eager" {
			continue
		}
		perRequest := s.Metrics["schema_tokens"].Mean / s.Metrics["requests"].Mean
		want := fmt.Sprintf("eager sends about %s,000 schema tokens per request", strconv.Itoa(int(math.Round(perRequest/1000))))
		if !strings.Contains(docProse(text), want) {
			t.Errorf("docs/plan.md does not say %q (%.0f tokens per request)", want, perRequest)
		}
		return
	}
	t.Error("no eager strategy at tools=225")
}

// TestPlanDocSketchExample recomputes docs/plan.md's example of sketched
// percentiles: a generated trace of 1,000 sessions replayed under eager
// with --exact-sessions 100 and without, then projected — the session p50
// and first-reply p95 each plan prints, quoted in the page's prose.
func TestPlanDocSketchExample(t *testing.T) {
	_, page := docPage(t, "plan.md")
	t.Chdir(t.TempDir())
	latency := func(args ...string) (p95, p50 string) {
		t.Helper()
		for _, a := range [][]string{append([]string{"run", "--traces", "g7/trace.jsonl.gz", "--catalogs", "g7/catalog", "--strategies", "eager", "-o", "r", "-q", "--no-report"}, args...),
			{"plan", "r/results.json", "--sessions-per-day", "50000", "-o", "p"}} {
			stdout, stderr, code := cliRun(t, a...)
			if code != 0 {
				t.Fatalf("%v: exit %d\n%s%s", a, code, stdout, stderr)
			}
			for l := range strings.SplitSeq(stdout, "\n") {
				// eager  8.73 s [8.50, 8.99]  18.87 s [17.33, 19.79]  161.96 s [157.45, 174.84]
				if f := strings.Fields(l); len(f) >= 11 && f[0] == "eager" && f[2] == "s" && f[6] == "s" && f[10] == "s" {
					p95, p50 = f[5], f[9]
				}
			}
		}
		if p50 == "" {
			t.Fatal("plan printed no latency row for eager")
		}
		return p95, p50
	}
	if stdout, stderr, code := cliRun(t, "trace", "gen", "-o", "g7", "--sessions", "1000", "--seed", "7"); code != 0 {
		t.Fatalf("trace gen: exit %d\n%s%s", code, stdout, stderr)
	}
	streamP95, streamP50 := latency("--exact-sessions", "100")
	exactP95, exactP50 := latency()
	want := fmt.Sprintf("the streamed run's session p50 is %s s and first-reply p95 %s s, noted `within ±0.5%%`; the exact run's are %s s and %s s",
		streamP50, streamP95, exactP50, exactP95)
	if !strings.Contains(docProse(page), want) {
		t.Errorf("docs/plan.md does not say %q", want)
	}
}
