package retrieval

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// MCP-Bench task files under its folder (retrieval/mcp-bench).
var mcpBenchFiles = []string{
	"tasks/mcpbench_tasks_single_runner_format.json",
	"tasks/mcpbench_tasks_multi_2server_runner_format.json",
	"tasks/mcpbench_tasks_multi_3server_runner_format.json",
}

// MCPBenchTask is one MCP-Bench task: the servers it needs, the distractor
// servers offered beside them, its fuzzy (user-worded) phrasing, and the
// tools its reference solution names ("Server:tool" in its description).
type MCPBenchTask struct {
	ID          string
	Servers     []string
	Distractors []string
	Fuzzy       string
	// Tools maps a needed server to the tool names the task's description
	// and dependency analysis mention, sorted.
	Tools map[string][]string
}

type mcpBenchFile struct {
	ServerTasks []struct {
		Servers []string `json:"servers"`
		Tasks   []struct {
			ID          string          `json:"task_id"`
			Description string          `json:"task_description"`
			Fuzzy       string          `json:"fuzzy_description"`
			Dependency  string          `json:"dependency_analysis"`
			Distractors json.RawMessage `json:"distraction_servers"`
		} `json:"tasks"`
	} `json:"server_tasks"`
}

var quoted = regexp.MustCompile(`'([^']*)'|"([^"]*)"`)

// distractors reads distraction_servers: a JSON list of names, or a string
// holding a Python-style list ("['A', 'B']"), or null.
func distractors(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("want a list of names or a string")
	}
	for _, m := range quoted.FindAllStringSubmatch(s, -1) {
		list = append(list, m[1]+m[2])
	}
	return list, nil
}

// ParseMCPBench reads one MCP-Bench task file.
func ParseMCPBench(data []byte) ([]MCPBenchTask, error) {
	var f mcpBenchFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("mcp-bench tasks: %w", err)
	}
	var out []MCPBenchTask
	for gi, g := range f.ServerTasks {
		if len(g.Servers) == 0 {
			return nil, fmt.Errorf("mcp-bench tasks: server_tasks[%d]: no servers", gi)
		}
		for ti, t := range g.Tasks {
			if t.ID == "" || strings.TrimSpace(t.Fuzzy) == "" {
				return nil, fmt.Errorf("mcp-bench tasks: server_tasks[%d].tasks[%d]: missing task_id or fuzzy_description", gi, ti)
			}
			task := MCPBenchTask{ID: t.ID, Servers: slices.Clone(g.Servers), Fuzzy: strings.TrimSpace(t.Fuzzy), Tools: map[string][]string{}}
			ds, err := distractors(t.Distractors)
			if err != nil {
				return nil, fmt.Errorf("mcp-bench tasks: task %s: distraction_servers: %w", t.ID, err)
			}
			for _, d := range ds {
				if d != "" && !slices.Contains(task.Distractors, d) {
					task.Distractors = append(task.Distractors, d)
				}
			}
			text := t.Description + "\n" + t.Dependency
			for _, srv := range g.Servers {
				re := regexp.MustCompile(regexp.QuoteMeta(srv) + `:([A-Za-z_][\w-]*)`)
				var names []string
				for _, m := range re.FindAllStringSubmatch(text, -1) {
					if !slices.Contains(names, m[1]) {
						names = append(names, m[1])
					}
				}
				slices.Sort(names)
				task.Tools[srv] = names
			}
			out = append(out, task)
		}
	}
	return out, nil
}

// LoadMCPBench loads MCP-Bench from its folder as set "mcp-bench". The
// data has no tool catalogs, so the corpus is every tool a task's reference
// solution names, under its server, with no description: the set measures
// routing to the right servers. A query is a task's fuzzy phrasing; its
// candidates are the tools of its needed and distractor servers; it needs,
// for each needed server, any one tool of that server. Servers no task
// names a tool of are not in the corpus.
func LoadMCPBench(dir string) (*Set, error) {
	var tasks []MCPBenchTask
	for _, f := range mcpBenchFiles {
		data, err := readFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		ts, err := ParseMCPBench(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		tasks = append(tasks, ts...)
	}
	return MCPBenchSet(tasks)
}

// MCPBenchSet builds the "mcp-bench" set from parsed tasks.
func MCPBenchSet(tasks []MCPBenchTask) (*Set, error) {
	byServer := map[string][]string{}
	for _, t := range tasks {
		for srv, names := range t.Tools {
			for _, n := range names {
				if !slices.Contains(byServer[srv], n) {
					byServer[srv] = append(byServer[srv], n)
				}
			}
		}
	}
	s := &Set{Name: "mcp-bench", Source: "MCP-Bench (Accenture/mcp-bench): server routing from fuzzy task phrasings; tools known by name only"}
	toolsOf := map[string][]int{}
	for _, srv := range sortedKeys(byServer) {
		names := byServer[srv]
		slices.Sort(names)
		for _, n := range names {
			w, err := wireTool(n, "", nil)
			if err != nil {
				return nil, err
			}
			t := Tool{Wire: w}
			t.Name, t.Server = n, srv
			s.Tools = append(s.Tools, t)
			toolsOf[srv] = append(toolsOf[srv], len(s.Tools)-1)
		}
	}
	for _, t := range tasks {
		q := Query{ID: t.ID, Text: t.Fuzzy}
		for _, srv := range t.Servers {
			if len(toolsOf[srv]) == 0 {
				continue
			}
			q.Needs = append(q.Needs, toolsOf[srv])
			q.Candidates = append(q.Candidates, toolsOf[srv]...)
		}
		if len(q.Needs) == 0 {
			continue
		}
		for _, d := range t.Distractors {
			if !slices.Contains(t.Servers, d) {
				q.Candidates = append(q.Candidates, toolsOf[d]...)
			}
		}
		slices.Sort(q.Candidates)
		q.Candidates = slices.Compact(q.Candidates)
		s.Queries = append(s.Queries, q)
	}
	return s, s.Validate()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
