package importers_test

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
)

// tbNode is a node of a ToolBench search tree, as the test reads it.
type tbNode struct {
	Type     string    `json:"node_type"`
	Expand   int       `json:"expand_num"`
	Children []*tbNode `json:"children"`
}

// tbPathCalls counts the steps (Action Input nodes below the root) on the
// path from the root to the step with the largest expand_num.
func tbPathCalls(root *tbNode) int {
	best, bestDepth := -1, 0
	var walk func(n *tbNode, calls int, isRoot bool)
	walk = func(n *tbNode, calls int, isRoot bool) {
		if n.Type == "Action Input" && !isRoot {
			calls++
			if n.Expand > best {
				best, bestDepth = n.Expand, calls
			}
		}
		for _, c := range n.Children {
			walk(c, calls, false)
		}
	}
	walk(root, 0, true)
	return bestDepth
}

// TestSharedToolBench imports the shared ToolBench answers with the
// toolbench format and checks the trace against the files: one session per
// answer; as calls and model requests, those of the answer's last message
// chain, or (answers without one) the steps on the tree's path to its last
// step; results whose error member is non-empty marked error; calls of
// functions the answer does not define reported without schema and as
// unknown tools by trace validate, nothing else.
func TestSharedToolBench(t *testing.T) {
	dir := shareddata.Path(t, "sessions", "toolbench", "data_example", "answer")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	sort.Strings(files)
	if len(files) == 0 {
		t.Skip("no ToolBench answers in shared data")
	}
	wantCalls, wantReqs := map[string]int{}, map[string]int{}
	undefined := 0
	for _, f := range files {
		var a struct {
			AG struct {
				Function []struct {
					Name string `json:"name"`
				} `json:"function"`
				Train [][]struct {
					Role         string `json:"role"`
					FunctionCall *struct {
						Name string `json:"name"`
					} `json:"function_call"`
				} `json:"train_messages"`
			} `json:"answer_generation"`
			Tree struct {
				Tree *tbNode `json:"tree"`
			} `json:"tree"`
		}
		readJSON(t, f, &a)
		id := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".json")
		defined := map[string]bool{}
		for _, fn := range a.AG.Function {
			defined[fn.Name] = true
		}
		if n := len(a.AG.Train); n > 0 {
			for _, m := range a.AG.Train[n-1] {
				if m.Role == "assistant" {
					wantReqs[id]++
				}
				if m.FunctionCall != nil {
					wantCalls[id]++
					if !defined[m.FunctionCall.Name] {
						undefined++
					}
				}
			}
		} else {
			wantCalls[id] = tbPathCalls(a.Tree.Tree)
			wantReqs[id] = wantCalls[id]
		}
	}
	out := filepath.Join(t.TempDir(), "toolbench.jsonl.gz")
	rep, err := importers.Run(importers.Request{Format: "toolbench", Inputs: files, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rejected != nil { // TestRecordedArgsRejectedBySchema: the answers' calls fit their functions
		t.Errorf("recorded arguments rejected: %+v", rep.Rejected)
	}
	sessions, _, err := traces.ReadAll(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != len(files) {
		t.Fatalf("%d sessions from %d answers", len(sessions), len(files))
	}
	calls, failed := 0, 0
	for _, s := range sessions {
		n, reqs := 0, 0
		for _, ev := range s.Events {
			switch ev.Type {
			case traces.ToolCall:
				n++
				var r struct {
					Error string `json:"error"`
				}
				if json.Unmarshal([]byte(ev.Result), &r) == nil && strings.TrimSpace(r.Error) != "" {
					failed++
					if ev.Status != traces.StatusError {
						t.Errorf("%s: call %s with error %q has status %q", s.ID, ev.Tool, r.Error, ev.Status)
					}
				}
			case traces.ModelRequest:
				reqs++
			}
		}
		calls += n
		if n != wantCalls[s.ID] || reqs != wantReqs[s.ID] {
			t.Errorf("%s: %d calls, %d requests; the answer has %d, %d", s.ID, n, reqs, wantCalls[s.ID], wantReqs[s.ID])
		}
	}
	missing := 0
	for _, m := range rep.MissingSchemas {
		missing += m.Calls
	}
	t.Logf("toolbench: %d sessions, %d calls (%d failed), %d without schema, %d catalog files", len(sessions), calls, failed, missing, len(rep.Catalog))
	if missing < undefined {
		t.Errorf("%d calls reported without schema, the answer chains call %d undefined functions", missing, undefined)
	}
	kinds := validate(t, out, rep.CatalogDir)
	if kinds[traces.KindUnknownTool] != missing {
		t.Errorf("validate finds %d unknown tools, the report %d calls without schema", kinds[traces.KindUnknownTool], missing)
	}
	delete(kinds, traces.KindUnknownTool)
	if len(kinds) != 0 {
		t.Errorf("validate problems by kind: %v", kinds)
	}
}
