package importers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// sweSource is what the test reads straight from one .traj file.
type sweSource struct {
	apiCalls   int // info.model_stats.api_calls
	assistants int // history messages of the model (demonstrations left out)
	timed      int // trajectory steps with an execution time
	documented bool
	calls      int // function calls of history (function-calling runs)
}

func readSWESource(t *testing.T, path string) sweSource {
	t.Helper()
	var f struct {
		History []struct {
			Role      string            `json:"role"`
			Content   any               `json:"content"`
			IsDemo    bool              `json:"is_demo"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"history"`
		Trajectory []struct {
			ExecutionTime float64 `json:"execution_time"`
		} `json:"trajectory"`
		Info struct {
			ModelStats struct {
				APICalls int `json:"api_calls"`
			} `json:"model_stats"`
		} `json:"info"`
		ReplayConfig struct {
			Agent struct {
				Tools struct {
					CommandDocs string `json:"command_docs"`
				} `json:"tools"`
			} `json:"agent"`
		} `json:"replay_config"`
	}
	readJSON(t, path, &f)
	s := sweSource{apiCalls: f.Info.ModelStats.APICalls, documented: f.ReplayConfig.Agent.Tools.CommandDocs != ""}
	for _, m := range f.History {
		if m.Role == "system" {
			if text, ok := m.Content.(string); ok && strings.Contains(text, "\nCOMMANDS:\n") {
				s.documented = true
			}
		}
		if m.Role == "assistant" && !m.IsDemo {
			s.assistants++
			s.calls += len(m.ToolCalls)
		}
	}
	for _, st := range f.Trajectory {
		if st.ExecutionTime > 0 {
			s.timed++
		}
	}
	return s
}

// TestSharedSWEAgent imports every shared SWE-agent trajectory and checks
// the trace against counts taken straight from the files: one session per
// file; as many model requests as the run's own api_calls where it counted
// them (else one per model message of history); one tool call per model
// step; every recorded execution time on a call; calls without a schema
// exactly those of trajectories that document no commands; and every
// catalog tool marked as rebuilt from documentation or as schema-less.
func TestSharedSWEAgent(t *testing.T) {
	dir := shareddata.Path(t, "sessions", "swe-agent")
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".traj") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Skip("no .traj files in shared data")
	}
	src := map[string]sweSource{}
	timed, undocumentedCalls := 0, 0
	for _, f := range files {
		s := readSWESource(t, f)
		src[filepath.Base(filepath.Dir(f))+"/"+strings.TrimSuffix(filepath.Base(f), ".traj")] = s
		timed += s.timed
		if !s.documented {
			undocumentedCalls += s.calls
		}
	}
	out := filepath.Join(t.TempDir(), "swe.jsonl.gz")
	rep, err := importers.Run(importers.Request{Format: "swe-agent", Inputs: files, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	sessions, _, err := traces.ReadAll(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != len(files) || rep.Sessions != len(files) {
		t.Fatalf("%d sessions (report: %d) from %d files", len(sessions), rep.Sessions, len(files))
	}
	gotTimed, calls := 0, 0
	for _, s := range sessions {
		want, ok := src[s.ID]
		if !ok {
			t.Errorf("session %q names no source file", s.ID)
			continue
		}
		reqs, n := 0, 0
		for _, ev := range s.Events {
			switch ev.Type {
			case traces.ModelRequest:
				reqs++
			case traces.ToolCall:
				n++
				if ev.DurationMs > 0 {
					gotTimed++
				}
			}
		}
		calls += n
		wantReqs := want.assistants
		if want.apiCalls > 0 {
			wantReqs = want.apiCalls
		}
		if reqs != wantReqs || n != reqs {
			t.Errorf("%s: %d model requests, %d tool calls; want %d requests (api_calls %d, model messages %d), one call each",
				s.ID, reqs, n, wantReqs, want.apiCalls, want.assistants)
		}
	}
	if gotTimed != timed {
		t.Errorf("%d calls carry an execution time, the trajectories record %d", gotTimed, timed)
	}
	missing := 0
	for _, m := range rep.MissingSchemas {
		missing += m.Calls
	}
	if missing != undocumentedCalls {
		t.Errorf("%d calls without a schema, want %d (the calls of trajectories documenting no command)", missing, undocumentedCalls)
	}
	t.Logf("swe-agent: %d sessions, %d tool calls, %d timed, %d without schema, %d catalog files", len(sessions), calls, gotTimed, missing, len(rep.Catalog))
	for _, c := range rep.Catalog {
		data, err := os.ReadFile(filepath.Join(rep.CatalogDir, c.File))
		if err != nil {
			t.Fatal(err)
		}
		sets, _, err := toolschema.Parse(c.File, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range sets[0].Tools {
			if f, _ := toolschema.FidelityOf(&tl); f == toolschema.Exact {
				t.Errorf("%s: tool %s is not marked (SWE-agent trajectories carry no exact schema)", c.File, tl.Name)
			}
		}
	}
	kinds := validate(t, out, rep.CatalogDir)
	delete(kinds, traces.KindUnknownTool)
	if len(kinds) != 0 {
		t.Errorf("validate problems by kind: %v", kinds)
	}
}
