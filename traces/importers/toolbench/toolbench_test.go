package toolbench

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The fixtures are hand-written in the ToolBench answer shape (no recorded
// text): a valid answer with train_messages whose search tried another
// branch first, and an invalid one without train_messages.
var fixtures = []string{
	filepath.Join("testdata", "G9_answer", "1_Demo_DFS_w2.json"),
	filepath.Join("testdata", "G9_answer", "2_Demo_DFS_w2.json"),
}

func importFixtures(t *testing.T) ([]*ingest.Session, *ingest.Report) {
	t.Helper()
	return importtest.ImportFiles(t, New(), Format, fixtures...)
}

func TestImportGolden(t *testing.T) {
	sessions, rep := importFixtures(t)
	trace := importtest.Encode(t, sessions)
	importtest.Validate(t, trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "answers.golden.jsonl"), trace)
	importtest.Golden(t, *update, filepath.Join("testdata", "answers.report.golden.json"), importtest.ReportJSON(t, rep))
}

// TestAnswerPath pins what a session is: the answer's last message chain
// (not the abandoned branch the search tried first), its final call's
// result taken from the tree, failed results marked by their error member,
// functions grouped by the RapidAPI tool their description names.
func TestAnswerPath(t *testing.T) {
	sessions, rep := importFixtures(t)
	s := sessions[0]
	// Calls name no server: they carry the default one until the pipeline
	// attributes them from the catalogs.
	want := []string{
		`call toolbench/forecast_for_skyinfo {"city":"Lyon"} ok`,
		`call toolbench/Finish {"return_type":"give_answer","final_answer":"Rain is likely (80%)."} ok`,
	}
	if d := cmp.Diff(want, importtest.Calls(s)); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	st := s.Start()
	if !strings.HasPrefix(st.SystemPrompt(), "You are a helper") || st.Meta()["query_count"] != "3" || st.Meta()["method"] != "Demo_DFS_w2" ||
		st.Meta()["path_source"] != "train_messages" || len(st.Servers()) != 1 || st.Servers()[0].Name != Server {
		t.Errorf("session_start %+v", st)
	}
	servers := map[string][]string{}
	for _, set := range s.Schemas {
		for _, tl := range set.Tools {
			servers[set.Server] = append(servers[set.Server], tl.Name)
		}
	}
	if d := cmp.Diff(map[string][]string{"skyinfo": {"forecast_for_skyinfo"}, "seawatch": {"tides_for_seawatch"}, "": {"Finish"}}, servers); d != "" {
		t.Errorf("schema sets by server (-want +got):\n%s", d)
	}
	// Answer 1's search took 3 steps, 2 on the imported path (the tides
	// step was abandoned); answer 2's 2 steps are both on its path.
	if n := rep.Unmapped["tree: model steps on other branches of the search (not on the imported path)"]; n != 1 {
		t.Errorf("abandoned steps counted %d, want 1", n)
	}

	s2 := sessions[1]
	got := importtest.Calls(s2)
	want2 := []string{
		`call toolbench/forecast_for_skyinfo {"city":"Nice"} ok`,
		`call toolbench/guess_for_nothing {} error`,
	}
	if d := cmp.Diff(want2, got); d != "" {
		t.Errorf("invalid answer's calls (-want +got):\n%s", d)
	}
	var texts []string
	for _, ev := range s2.Events {
		if ev.Type == traces.UserMessage || ev.Type == traces.AssistantMessage {
			texts = append(texts, string(ev.Type)+": "+ev.Text)
		}
	}
	if d := cmp.Diff([]string{"user: Is it sunny in Nice?", "assistant: Try the forecast."}, texts); d != "" {
		t.Errorf("texts from the tree (-want +got):\n%s", d)
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"not json", "hello", "want a ToolBench answer object"},
		// A query file is named as one and pointed at the answers: it got "want a ToolBench answer object".
		{"query file", `[{"query": "x", "query_id": 1, "api_list": []}]`, "a ToolBench query file (instruction/*_query.json: query, query_id, api_list): it holds the queries, not sessions; import the answer files"},
		{"array of other things", `[{"q": "x"}]`, "want a ToolBench answer object"},
		{"no answer", `{"tree": {}}`, `no "answer_generation"`},
		{"function not object", `{"answer_generation": {"function": [3]}}`, "function[0]"},
		{"chain not array", `{"answer_generation": {"train_messages": [3]}}`, "train_messages[0]: want an array"},
		{"bad tree", `{"answer_generation": {}, "tree": {"tree": 3}}`, "tree:"},
		{"no root", `{"answer_generation": {}, "tree": {}}`, "tree: no root node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sink importtest.Sink
			err := New().Import("G1/x.json", strings.NewReader(tt.data), &ingest.Options{}, &sink, ingest.NewReport(Format))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "G1/x.json: ") {
				t.Fatalf("error = %v, want one naming the file and containing %q", err, tt.want)
			}
		})
	}
}

func FuzzImportToolBench(f *testing.F) {
	for _, p := range fixtures {
		seed, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
	}
	f.Add([]byte(`{"answer_generation":{"query":"q"},"tree":{"tree":{"node_type":"Action Input","children":[{"node_type":"Action","description":"f","children":[{"node_type":"Action Input","description":"{}","observation":"x","expand_num":1}]}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		importtest.Fuzz(t, data, func(sink ingest.Sink, rep *ingest.Report) error {
			return New().Import("fuzz/x.json", bytes.NewReader(data), &ingest.Options{}, sink, rep)
		})
	})
}
