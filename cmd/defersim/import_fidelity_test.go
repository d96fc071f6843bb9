package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// This file pins what a user gets from `trace import` then `run --traces
// FILE` on the shared sessions (issue 15): the run replays with the
// catalog the trace names (no --catalogs), stops naming the tools that do
// not resolve, and where the source records usage the replayed eager
// prompt is compared with the recorded one. docs/importers.md ("Replaying
// imported sessions") gives the commands and the figures.

// readCSV reads a CSV file with a header into maps keyed by column name.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: empty", path)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, k := range recs[0] {
			if i < len(r) {
				m[k] = r[i]
			}
		}
		out = append(out, m)
	}
	return out
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return int64(n)
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestImportedSWEAgentTokens replays the imported SWE-agent trajectories
// under eager and compares, per session, the simulated prompt tokens with
// the run's recorded info.model_stats.tokens_sent (SWE-agent records only
// this per-session sum, no per-request usage, so the first request cannot
// be compared alone). SWE-agent counts tokens_sent on the messages it
// sends (litellm's token_counter), without the tools array: for
// function-calling runs the simulated tools[] tokens are left out of the
// comparison; for thought-action runs the commands were part of the system
// prompt, which the import moved to the catalog, so they stay in. Neither
// count holds the provider's tool preamble (request_overhead_tokens).
func TestImportedSWEAgentTokens(t *testing.T) {
	files := sharedTrajectories(t)
	tmp := t.TempDir()
	trace := filepath.Join(tmp, "swe.jsonl.gz")
	if out, code := runCLI(t, append([]string{"trace", "import", "--from", "swe-agent", "-o", trace}, files...)...); code != 0 {
		t.Fatalf("import exit %d:\n%s", code, out)
	}
	// function_calling_simple.traj documents no command: its 5 calls are
	// unknown tools, above the 1% a run allows.
	wantStop(t, tmp, "--traces", trace)("5 of 231 tool calls (2.2%) did not resolve", "swe-agent/submit (unknown tool, 1)")
	outDir := filepath.Join(tmp, "out")
	if out, code := runCLI(t, "run", "--traces", trace, "--allow-unresolved", "--sessions-csv", "--no-report", "--bootstrap", "-1", "-q", "-o", outDir); code != 0 {
		t.Fatalf("run exit %d:\n%s", code, out)
	}
	res := readResultsFile(t, filepath.Join(outDir, "results.json"))
	if r := res.Run.Resolution; r == nil || r.Calls != 231 || r.Unresolved != 5 || r.UnknownTool != 5 || r.SchemaMissing != 77 || r.SchemaApproximate != 149 {
		t.Errorf("resolution = %+v, want 231 calls: 149 of approximate commands, 77 of the bash schema missing, 5 unknown tools (docs/importers.md)", r)
	}
	wantStop(t, tmp, "--traces", trace, "--catalogs", shareddata.Path(t, "catalogs"))(
		"231 of 231 tool calls (100.0%) did not resolve", "swe-agent/bash (unknown server, 93)")
	sessions, _, err := traces.ReadAll(trace)
	if err != nil {
		t.Fatal(err)
	}
	sent, mode := map[string]int64{}, map[string]string{}
	for _, s := range sessions {
		st := s.Start()
		if n, err := strconv.ParseInt(st.Meta()["model_stats.tokens_sent"], 10, 64); err == nil && n > 0 {
			sent[s.ID], mode[s.ID] = n, st.Meta()["mode"]
		}
	}
	if len(sent) == 0 {
		t.Fatal("no shared trajectory records tokens_sent")
	}
	preamble := presets.DefaultParams().RequestOverheadTokens
	var errs []float64
	for _, r := range readCSV(t, filepath.Join(outDir, "sessions.csv")) {
		rec, ok := sent[r["session_id"]]
		if !ok || r["strategy"] != "eager" {
			continue
		}
		sim := atoi(t, r["input_tokens"]) - preamble*atoi(t, r["requests"])
		if mode[r["session_id"]] == "function_calling" {
			sim -= atoi(t, r["schema_tokens"])
		}
		e := float64(sim-rec) / float64(rec)
		errs = append(errs, e)
		t.Logf("%s (%s): simulated %d, recorded %d tokens sent: %+.1f%%", r["session_id"], mode[r["session_id"]], sim, rec, 100*e)
		if e < -0.10 || e > 0.10 {
			t.Errorf("%s: simulated %d tokens sent, recorded %d (%+.1f%%), beyond 10%%", r["session_id"], sim, rec, 100*e)
		}
	}
	if len(errs) != len(sent) {
		t.Errorf("compared %d sessions, %d record tokens_sent", len(errs), len(sent))
	}
	// docs/importers.md's table quotes a median of +1.9% and a largest
	// |error| of 2.2% over these sessions.
	worst := 0.0
	for _, e := range errs {
		worst = math.Max(worst, math.Abs(e))
	}
	if m := median(errs); math.Abs(m-0.019) > 0.0005 || math.Abs(worst-0.022) > 0.0005 {
		t.Errorf("median %+.2f%%, max |error| %.2f%%; docs/importers.md says +1.9%% and 2.2%%: update the doc", 100*m, 100*worst)
	}
}

// TestImportedTau2FirstRequest replays the imported tau2 telecom run (the
// shared run with per-request usage) under eager and compares each
// session's first request with its recorded prompt tokens. The 10% target
// is not reachable honestly: the shared data holds neither the telecom
// agent's tool schemas (the run's tools are absent from every shared
// listing; only transfer_to_human_agents is taken, from the approximate
// listing of another telecom version) nor the agent's instruction block
// (the import keeps the domain policy). So the replay undercounts every
// first request by the same number of tokens (667: the missing static
// part less the default request_overhead_tokens, an Anthropic tool
// preamble an OpenAI request does not have); the test pins that the gap
// is one constant, and the documented median (−10.6%: the 10% target is
// not met on this run), and logs each session.
func TestImportedTau2FirstRequest(t *testing.T) {
	src := shareddata.Path(t, "sessions", "tau2-bench", "data", "simulations",
		"2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json")
	listing := shareddata.Path(t, "sessions", "tau2-bench", "derived", "tools_telecom.json")
	tmp := t.TempDir()
	trace := filepath.Join(tmp, "telecom.jsonl.gz")
	if out, code := runCLI(t, "trace", "import", "--from", "tau2", src, "--fallback-tools", listing, "-o", trace); code != 0 {
		t.Fatalf("import exit %d:\n%s", code, out)
	}
	// The trace's own catalog lacks 8 of the 9 tools the run calls: the
	// run stops, names them, and writes nothing.
	out, code := runCLI(t, "run", "--traces", trace, "--no-report", "--bootstrap", "-1", "-q", "-o", filepath.Join(tmp, "stopped"))
	if code != 2 || !strings.Contains(out, "84 of 90 tool calls (93.3%) did not resolve") ||
		!strings.Contains(out, "tau2-telecom/get_details_by_id (unknown tool, 47)") ||
		!strings.Contains(out, "resolved, schema approximate") {
		t.Errorf("run exit %d, want 2 naming the unresolved tools and the approximate schema row:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(tmp, "stopped", "results.json")); err == nil {
		t.Error("a stopped run wrote results.json")
	}
	csvPath := filepath.Join(tmp, "requests.csv")
	if out, code := runCLI(t, "run", "--traces", trace, "--allow-unresolved", "--strategies", "eager",
		"--per-request", csvPath, "--no-report", "--bootstrap", "-1", "-q", "-o", filepath.Join(tmp, "out")); code != 0 {
		t.Fatalf("run exit %d:\n%s", code, out)
	}
	var errs []float64
	gaps := map[int64]int{}
	for _, r := range readCSV(t, csvPath) {
		if r["request"] != "0" || r["recorded_input_tokens"] == "" {
			continue
		}
		rec, sim := atoi(t, r["recorded_input_tokens"]), atoi(t, r["sim_input_tokens"])
		e := float64(sim-rec) / float64(rec)
		errs = append(errs, e)
		gaps[rec-sim]++
		t.Logf("%s: first request simulated %d, recorded %d: %+.2f%%", r["session"], sim, rec, 100*e)
	}
	if len(errs) != 20 {
		t.Fatalf("compared %d first requests, the run has 20 sessions", len(errs))
	}
	// The shortfall is the same number of tokens in every session: the
	// static part of the prompt the shared data lacks (the tool schemas and
	// the instruction block), not an error that grows with the conversation.
	if len(gaps) != 1 {
		t.Errorf("first-request shortfalls (recorded − simulated → sessions) %v: want one constant gap", gaps)
	}
	for g := range gaps {
		if g <= 0 {
			t.Errorf("shortfall %d tokens: the missing tool schemas should leave the replay short", g)
		}
		// docs/importers.md quotes the gap: "short by the same 667 tokens".
		if g != 667 {
			t.Errorf("shortfall %d tokens, docs/importers.md says 667: update the doc", g)
		}
	}
	// docs/importers.md quotes −10.6% (target 10%: not met on this run).
	m := median(errs)
	t.Logf("tau2 telecom first requests: %d sessions, median error %+.2f%%, shortfall %v tokens: the 10%% target is NOT met (tools and instruction block absent from the shared data)", len(errs), 100*m, gaps)
	if math.Abs(m-(-0.106)) > 0.0005 {
		t.Errorf("median first-request error %+.2f%%, docs/importers.md says -10.6%%: update the doc", 100*m)
	}
}

// TestImportedTauBenchUsesItsCatalog pins issue 15's first criterion on
// the shared tau-bench run (no usage recorded): `run --traces FILE` with
// no other input flag replays with the catalog the import wrote (every
// call resolves to an exact definition, and the catalog is among the
// run's inputs); with --catalogs ../shared/data/catalogs, which serve none
// of its tools, the run exits 2 naming them. Its 92 think calls return an
// empty result, which the import does not mark result_unrecorded: the run
// counts none in calls_result_unrecorded and warns of none (every
// tau-bench run warned of them as "results empty or not recorded").
func TestImportedTauBenchUsesItsCatalog(t *testing.T) {
	src := shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")
	cats := shareddata.Path(t, "catalogs")
	tmp := t.TempDir()
	trace := importTrace(t, tmp, "tau.jsonl.gz", "--from", "tau-bench", src)
	res := runTrace(t, trace, "--strategies", "eager,claude-code-default")
	if r := res.Run.Resolution; r == nil || r.Calls != 1164 || r.Resolved != 1164 {
		t.Errorf("resolution = %+v, want all 1,164 calls resolved exactly", r)
	}
	if n := emptyResults(t, trace); n != 92 {
		t.Errorf("%d calls without a result in the trace, want tau-bench's 92 think calls", n)
	}
	for _, s := range res.Strategies {
		if n := s.Metrics[sim.Metrics[sim.MCallsResultUnrecorded].Name].Sum; n != 0 {
			t.Errorf("%s: calls_result_unrecorded = %v, want 0 (an empty result is recorded)", s.Name, n)
		}
	}
	if w := report.UnrecordedResultsText(res); w != "" {
		t.Errorf("the run warns: %s", w)
	}
	found := false
	for _, in := range res.Run.Inputs {
		found = found || (in.Kind == "catalog" && in.Server == "tau-bench-airline" && strings.HasPrefix(in.Path, trace+".catalog"))
	}
	if !found {
		t.Errorf("the run's inputs %+v do not hold the trace's own catalog", res.Run.Inputs)
	}
	wantStop(t, tmp, "--traces", trace, "--catalogs", cats)(
		"1164 of 1164 tool calls (100.0%) did not resolve", "tau-bench-airline/get_reservation_details (unknown server, 377)")
}

// TestImportedTau2Runs imports the three shared tau2 runs as
// docs/importers.md does ("Importing the shared data") and runs them with
// no input flag: the trace's own catalog leaves the 176 calls of tools no
// shared file defines unresolved (11.6%), so the run exits 2 naming them;
// with --allow-unresolved it replays with that catalog (the approximate
// airline listing resolves the other 1,342 calls); with --catalogs
// ../shared/data/catalogs, which serve no tau2 server, it exits 2 too.
func TestImportedTau2Runs(t *testing.T) {
	s := shareddata.Path(t, "sessions")
	args := []string{"trace", "import", "--from", "tau2"}
	for _, pat := range []string{"tau2-bench/data/simulations/*.json",
		"tau2-bench/web/leaderboard/public/submissions/*/trajectories/*.json"} {
		m, err := filepath.Glob(filepath.Join(s, pat))
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: no files (%v)", pat, err)
		}
		args = append(args, m...)
	}
	tmp := t.TempDir()
	trace := filepath.Join(tmp, "tau2.jsonl.gz")
	args = append(args, "--approximate-tools", filepath.Join(s, "tau2-bench/derived/tools_airline.json"),
		"--fallback-tools", filepath.Join(s, "tau-bench/tools_airline.json"),
		"--fallback-tools", filepath.Join(s, "tau2-bench/derived/tools_telecom.json"), "-o", trace)
	if out, code := runCLI(t, args...); code != 0 {
		t.Fatalf("import exit %d:\n%s", code, out)
	}
	wantStop(t, tmp, "--traces", trace)("176 of 1518 tool calls (11.6%) did not resolve",
		"tau2-airline/get_flight_status (unknown tool, 92)", "tau2-telecom/get_details_by_id (unknown tool, 47)")
	wantStop(t, tmp, "--traces", trace, "--catalogs", shareddata.Path(t, "catalogs"))(
		"1518 of 1518 tool calls (100.0%) did not resolve", "tau2-airline/transfer_to_human_agents (unknown server, 480)")
	// The threshold decides: 11.6% unresolved stops a run allowing 11%
	// and not one allowing 12%.
	wantStop(t, tmp, "--traces", trace, "--max-unresolved", "0.11")("176 of 1518 tool calls (11.6%) did not resolve", "more than the 11% allowed")
	if r := runTrace(t, trace, "--max-unresolved", "0.12", "--strategies", "eager").Run.Resolution; r == nil || r.MaxUnresolvedShare != 0.12 || r.AllowUnresolved {
		t.Errorf("resolution = %+v, want the 12%% threshold recorded", r)
	}
	res := runTrace(t, trace, "--allow-unresolved", "--strategies", "eager")
	if r := res.Run.Resolution; r == nil || r.Calls != 1518 || r.SchemaApproximate != 1342 || r.UnknownTool != 176 || !r.AllowUnresolved {
		t.Errorf("resolution = %+v, want 1,518 calls: 1,342 approximate, 176 unknown tools, allowed", r)
	}
}

// importTrace runs `trace import ARGS -o TMP/NAME` and returns the trace.
func importTrace(t *testing.T, tmp, name string, args ...string) string {
	t.Helper()
	trace := filepath.Join(tmp, name)
	if out, code := runCLI(t, append(append([]string{"trace", "import"}, args...), "-o", trace)...); code != 0 {
		t.Fatalf("import exit %d:\n%s", code, out)
	}
	return trace
}

// runTrace runs `run --traces TRACE ARGS` (no report, no bootstrap) and
// returns the results it wrote.
func runTrace(t *testing.T, trace string, args ...string) *report.Results {
	t.Helper()
	dir, err := os.MkdirTemp(filepath.Dir(trace), "run")
	if err != nil {
		t.Fatal(err)
	}
	args = append(append([]string{"run", "--traces", trace}, args...), "--no-report", "--bootstrap", "-1", "-q", "-o", dir)
	if out, code := runCLI(t, args...); code != 0 {
		t.Fatalf("%q: exit %d:\n%s", args, code, out)
	}
	return readResultsFile(t, filepath.Join(dir, "results.json"))
}

// wantStop runs `run ARGS` and wants exit status 2 with the unresolved
// inputs' message holding every one of the returned function's strings,
// and no results.json.
func wantStop(t *testing.T, tmp string, args ...string) func(want ...string) {
	t.Helper()
	dir, err := os.MkdirTemp(tmp, "stopped")
	if err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, append(append([]string{"run"}, args...), "--no-report", "--bootstrap", "-1", "-q", "-o", dir)...)
	return func(want ...string) {
		t.Helper()
		ok := code == 2 && strings.Contains(out, "did not resolve against the catalogs, more than the")
		for _, w := range want {
			ok = ok && strings.Contains(out, w)
		}
		if !ok {
			t.Errorf("run %q: exit %d, want 2 naming %q:\n%s", args, code, want, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "results.json")); err == nil {
			t.Errorf("run %q stopped but wrote results.json", args)
		}
	}
}

// readResultsFile reads a results.json a command wrote.
func readResultsFile(t *testing.T, path string) *report.Results {
	t.Helper()
	res, err := report.ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestImportedGatewayRuns carries the gateway fixture (search returning
// tools as text, execute naming server and tool) from `trace import` to
// `run --traces FILE` with no other flag: every call and every tool the
// recorded searches returned resolves against the imported catalog, and
// the ranked strategies replay the recorded queries (the report states
// their share).
func TestImportedGatewayRuns(t *testing.T) {
	fixture := filepath.Join("..", "..", "traces", "importers", "testdata")
	trace := importTrace(t, t.TempDir(), "gw.jsonl.gz", "--from", "openai-messages", filepath.Join(fixture, "gateway", "sessions.jsonl"),
		"--tools", filepath.Join(fixture, "gateway", "catalog"), "--search-tool", "route", "--execute-tool", "execute-tool")
	res := runTrace(t, trace, "--strategies", "eager,claude-code-default")
	if r := res.Run.Resolution; r == nil || r.Calls != 5 || r.Resolved != 5 || r.SearchResults != 7 || r.SearchResultsUnknown != 0 {
		t.Errorf("resolution = %+v, want 5 calls resolved exactly and the 7 returned tools all served", r)
	}
	if n := res.Strategy("claude-code-default").Metrics["recorded_query_searches"].Sum; n < 1 {
		t.Errorf("claude-code-default replayed %v recorded queries, want the gateway's", n)
	}
	found := false
	for _, f := range report.Findings(res) {
		found = found || strings.Contains(f, "Searches that replayed a recorded query") && strings.Contains(f, "claude-code-default")
	}
	if !found {
		t.Errorf("the report does not state the share of recorded queries: %q", report.Findings(res))
	}
}

// emptyResults counts the tool calls of the trace at path with no result,
// result_bytes or result_tokens, and fails on one marked result_unrecorded.
func emptyResults(t *testing.T, path string) int {
	t.Helper()
	r, err := traces.Open(path, traces.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Events {
			ev := &s.Events[i]
			if ev.Type != traces.ToolCall || ev.Result != "" || ev.ResultBytes != 0 || ev.ResultTokens != 0 {
				continue
			}
			n++
			if ev.ResultUnrecorded() {
				t.Errorf("session %s: call %s marked result_unrecorded", s.ID, ev.CallID)
			}
		}
	}
	return n
}
