package importers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
)

// expected holds counts computed straight from the source JSON, independently
// of the importers.
type expected struct {
	sessions  int
	toolCalls int
	requests  int
	// perSession maps the source's session key to its agent tool calls.
	perSession map[string]int
	// promptTokens and completionTokens sum the agent's recorded usage.
	promptTokens, completionTokens int64
}

// tauBenchExpected counts tau-bench runs and the tool calls of their
// assistant messages.
func tauBenchExpected(t *testing.T, path string) expected {
	t.Helper()
	var runs []struct {
		TaskID int `json:"task_id"`
		Trial  int `json:"trial"`
		Traj   []struct {
			Role      string            `json:"role"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"traj"`
	}
	readJSON(t, path, &runs)
	e := expected{perSession: map[string]int{}}
	for _, r := range runs {
		e.sessions++
		n := 0
		for _, m := range r.Traj {
			if m.Role == "assistant" {
				n += len(m.ToolCalls)
				e.requests++
			}
		}
		e.toolCalls += n
		e.perSession[jsonKey(r.TaskID, r.Trial)] = n
	}
	return e
}

// tau2Expected counts tau2 simulations, the agent's tool calls (requestor
// assistant), the agent's model requests (assistant messages except the
// fixed opening greeting) and the agent's recorded usage.
func tau2Expected(t *testing.T, paths []string) expected {
	t.Helper()
	e := expected{perSession: map[string]int{}}
	for _, p := range paths {
		var run struct {
			Simulations []struct {
				ID       string `json:"id"`
				Messages []struct {
					Role      string `json:"role"`
					ToolCalls []struct {
						Requestor string `json:"requestor"`
					} `json:"tool_calls"`
					Usage *struct {
						Prompt     int64 `json:"prompt_tokens"`
						Completion int64 `json:"completion_tokens"`
					} `json:"usage"`
				} `json:"messages"`
			} `json:"simulations"`
		}
		readJSON(t, p, &run)
		for _, s := range run.Simulations {
			e.sessions++
			n := 0
			for i, m := range s.Messages {
				if m.Role != "assistant" {
					continue
				}
				if !(i == 0 && len(m.ToolCalls) == 0 && m.Usage == nil) {
					e.requests++
				}
				for _, c := range m.ToolCalls {
					if c.Requestor != "user" {
						n++
					}
				}
				if m.Usage != nil {
					e.promptTokens += m.Usage.Prompt
					e.completionTokens += m.Usage.Completion
				}
			}
			e.toolCalls += n
			e.perSession[s.ID] = n
		}
	}
	return e
}

func jsonKey(task, trial int) string {
	b, _ := json.Marshal([]int{task, trial})
	return string(b)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// imported is what the trace written by an import holds.
type imported struct {
	sessions, toolCalls, requests int
	perSession                    map[string]int // session_start meta key → tool calls
	input, output                 int64
}

// readTrace reads a trace through traces.Open and counts it. key names a
// session the way expected does.
func readTrace(t *testing.T, path string, key func(*traces.Event) string) imported {
	t.Helper()
	r, err := traces.Open(path, traces.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := imported{perSession: map[string]int{}}
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatalf("read back: %v", err)
		}
		got.sessions++
		n := 0
		for i := range s.Events {
			ev := &s.Events[i]
			switch ev.Type {
			case traces.ToolCall:
				n++
			case traces.ModelRequest:
				got.requests++
				if ev.Usage != nil {
					got.input += ev.Usage.Input + ev.Usage.CacheRead + ev.Usage.CacheWrite
					got.output += ev.Usage.Output
				}
			}
		}
		got.toolCalls += n
		got.perSession[key(s.Start())] = n
	}
	return got
}

// validate runs the trace validator with the written catalog as tool index
// and returns the problems by kind. The trace must name that catalog
// (traces.CatalogFor finds it).
func validate(t *testing.T, trace, catDir string) map[traces.Kind]int {
	t.Helper()
	if dir, ok, err := traces.CatalogFor(trace); err != nil || !ok || dir != catDir {
		t.Errorf("CatalogFor(trace) = %q, %v, %v; want the written catalog %q", dir, ok, err, catDir)
	}
	cat, err := catalog.LoadDir(catDir)
	if err != nil {
		t.Fatalf("load written catalog: %v", err)
	}
	probs, _, err := traces.Validate(trace, traces.ValidateOptions{Tools: cat})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[traces.Kind]int{}
	for i, p := range probs {
		kinds[p.Kind]++
		if p.Kind != traces.KindUnknownTool && i < 5 {
			t.Errorf("validate: %s", p)
		}
	}
	return kinds
}

func TestSharedTauBench(t *testing.T) {
	src := shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")
	want := tauBenchExpected(t, src)
	out := filepath.Join(t.TempDir(), "tau-bench.jsonl.gz")
	rep, err := importers.Run(importers.Request{Format: "tau-bench", Inputs: []string{src}, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	got := readTrace(t, out, func(st *traces.Event) string {
		var task, trial int
		_ = json.Unmarshal([]byte(st.Meta()["task_id"]), &task)
		_ = json.Unmarshal([]byte(st.Meta()["trial"]), &trial)
		return jsonKey(task, trial)
	})
	t.Logf("tau-bench: %d sessions, %d tool calls, %d model requests", got.sessions, got.toolCalls, got.requests)
	if got.sessions != want.sessions || got.toolCalls != want.toolCalls || got.requests != want.requests {
		t.Errorf("sessions/tool calls/requests = %d/%d/%d, source has %d/%d/%d",
			got.sessions, got.toolCalls, got.requests, want.sessions, want.toolCalls, want.requests)
	}
	if d := cmp.Diff(want.perSession, got.perSession); d != "" {
		t.Errorf("tool calls per session differ (-source +trace):\n%s", d)
	}
	if rep.Sessions != want.sessions || rep.ToolCalls != want.toolCalls {
		t.Errorf("report says %d sessions, %d tool calls", rep.Sessions, rep.ToolCalls)
	}
	if len(rep.MissingSchemas) != 0 {
		t.Errorf("tools without schema: %+v", rep.MissingSchemas)
	}
	if rep.Rejected != nil { // TestRecordedArgsRejectedBySchema: the runs' calls fit tools_airline.json
		t.Errorf("recorded arguments rejected: %+v", rep.Rejected)
	}
	if len(rep.Catalog) != 1 || rep.Catalog[0].Tools != 14 {
		t.Errorf("catalog = %+v, want one server with the 14 tools of tools_airline.json", rep.Catalog)
	}
	if kinds := validate(t, out, rep.CatalogDir); len(kinds) != 0 {
		t.Errorf("validate problems by kind: %v", kinds)
	}
}

func TestSharedTau2(t *testing.T) {
	dir, srcs := tau2Sources(t)
	want := tau2Expected(t, srcs)
	out := filepath.Join(t.TempDir(), "tau2.jsonl")
	tauBenchAirline := filepath.Join(filepath.Dir(dir), "tau-bench", "tools_airline.json")
	rep, err := importers.Run(importers.Request{
		Format: "tau2", Inputs: srcs, Out: out,
		ApproximateToolFiles: []string{filepath.Join(dir, "derived", "tools_airline.json")},
		FallbackToolFiles:    []string{tauBenchAirline, filepath.Join(dir, "derived", "tools_telecom.json")},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := readTrace(t, out, func(st *traces.Event) string { return st.Session })
	t.Logf("tau2: %d sessions, %d tool calls, %d model requests, usage %d in / %d out",
		got.sessions, got.toolCalls, got.requests, got.input, got.output)
	if got.sessions != want.sessions || got.toolCalls != want.toolCalls || got.requests != want.requests {
		t.Errorf("sessions/tool calls/requests = %d/%d/%d, source has %d/%d/%d",
			got.sessions, got.toolCalls, got.requests, want.sessions, want.toolCalls, want.requests)
	}
	if got.input != want.promptTokens || got.output != want.completionTokens {
		t.Errorf("usage = %d in / %d out, source has %d prompt / %d completion tokens",
			got.input, got.output, want.promptTokens, want.completionTokens)
	}
	if d := cmp.Diff(want.perSession, got.perSession); d != "" {
		t.Errorf("tool calls per session differ (-source +trace):\n%s", d)
	}
	if rep.CredentialsDropped["info.agent_info.llm_args.api_key"] != 1 {
		t.Errorf("credentials dropped = %v, want the agent's api_key reported", rep.CredentialsDropped)
	}
	missing := 0
	gotMissing := map[string]int{}
	for _, m := range rep.MissingSchemas {
		missing += m.Calls
		gotMissing[m.Server+"/"+m.Tool] = m.Calls
	}
	// Calls of tools no shared schema source defines: neither the sources
	// given above nor the leaderboard listing.
	defined := map[string]map[string]bool{
		"airline": toolNamesIn(t, filepath.Join(dir, "derived", "tools_airline.json"), tauBenchAirline),
		"telecom": toolNamesIn(t, filepath.Join(dir, "derived", "tools_telecom.json")),
	}
	var listing map[string]struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	readJSON(t, filepath.Join(dir, "web", "leaderboard", "public", "task-data", "tools-data.json"), &listing)
	wantMissing := map[string]int{}
	for key, n := range tau2AgentCalls(t, srcs) {
		domain, tool, _ := strings.Cut(key, "/")
		if !defined[domain][tool] {
			wantMissing["tau2-"+key] += n
			for _, lt := range listing[domain].Tools {
				if lt.Name == tool {
					t.Errorf("%s: the leaderboard listing defines %s, which the import lacks", domain, tool)
				}
			}
		}
	}
	if d := cmp.Diff(wantMissing, gotMissing); d != "" {
		t.Errorf("calls without schema (-source +report):\n%s", d)
	}
	t.Logf("tau2: %d calls without schema: %v", missing, gotMissing)
	kinds := validate(t, out, rep.CatalogDir)
	if kinds[traces.KindUnknownTool] != missing {
		t.Errorf("validator found %d calls of unknown tools, the report lists %d", kinds[traces.KindUnknownTool], missing)
	}
	delete(kinds, traces.KindUnknownTool)
	if len(kinds) != 0 {
		t.Errorf("validate problems by kind: %v", kinds)
	}
}

// tau2Sources returns the shared tau2-bench directory and its result
// files, the simulations and the leaderboard's trajectories, in path
// order (skipping when there are none).
func tau2Sources(t *testing.T) (dir string, srcs []string) {
	t.Helper()
	dir = shareddata.Path(t, "sessions", "tau2-bench")
	for _, pat := range []string{"data/simulations/*.json", "web/leaderboard/public/submissions/*/trajectories/*.json"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		srcs = append(srcs, m...)
	}
	sort.Strings(srcs)
	if len(srcs) == 0 {
		t.Skip("no tau2 result files in shared data")
	}
	return dir, srcs
}

// tau2AgentCalls counts the agent's tool calls of tau2 result files by
// domain/tool.
func tau2AgentCalls(t *testing.T, paths []string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, p := range paths {
		var run struct {
			Info struct {
				Env struct {
					Domain string `json:"domain_name"`
				} `json:"environment_info"`
			} `json:"info"`
			Simulations []struct {
				Messages []struct {
					ToolCalls []struct {
						Name      string `json:"name"`
						Requestor string `json:"requestor"`
					} `json:"tool_calls"`
				} `json:"messages"`
			} `json:"simulations"`
		}
		readJSON(t, p, &run)
		for _, s := range run.Simulations {
			for _, m := range s.Messages {
				for _, c := range m.ToolCalls {
					if c.Requestor != "user" {
						out[run.Info.Env.Domain+"/"+c.Name]++
					}
				}
			}
		}
	}
	return out
}

// toolNamesIn returns the names of the tools the files define (files
// holding {"tools":[{"name":…}]}).
func toolNamesIn(t *testing.T, files ...string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, f := range files {
		var doc struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		readJSON(t, f, &doc)
		for _, tl := range doc.Tools {
			names[tl.Name] = true
		}
	}
	return names
}
