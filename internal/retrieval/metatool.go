package retrieval

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// MetaTool file names under its folder (retrieval/metatool).
const (
	metaToolTools = "dataset/plugin_des.json"
	metaToolCSV   = "dataset/data/all_clean_data.csv"
	metaToolMulti = "dataset/data/multi_tool_query_golden.json"
)

// maxLabelledFile bounds a labelled-set file read whole (64 MiB).
const maxLabelledFile = 64 << 20

// ParseMetaToolTools reads MetaTool's tool descriptions (a JSON object of
// name → description) into a corpus sorted by name. The tools have no
// server and no input schema.
func ParseMetaToolTools(data []byte) ([]Tool, error) {
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("metatool tools: %w", err)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("metatool tools: no tools")
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]Tool, 0, len(names))
	for _, n := range names {
		if strings.TrimSpace(n) == "" {
			return nil, fmt.Errorf("metatool tools: a tool without a name")
		}
		w, err := wireTool(n, m[n], nil)
		if err != nil {
			return nil, fmt.Errorf("metatool tools: %w", err)
		}
		t := Tool{Wire: w}
		t.Name, t.Description = n, m[n]
		out = append(out, t)
	}
	return out, nil
}

// toolIndex maps tool names to corpus indices.
func toolIndex(tools []Tool) map[string]int {
	idx := make(map[string]int, len(tools))
	for i, t := range tools {
		idx[t.Name] = i
	}
	return idx
}

// ParseMetaToolQueries reads MetaTool's single-tool queries (CSV with a
// "Query,Tool" header): one query per row, needing the named tool. Rows
// whose tool is not in the corpus, or whose query is empty, are errors.
func ParseMetaToolQueries(r io.Reader, tools []Tool) ([]Query, error) {
	idx := toolIndex(tools)
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 2
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("metatool queries: header: %w", err)
	}
	if !strings.EqualFold(strings.TrimPrefix(head[0], "\ufeff"), "query") || !strings.EqualFold(head[1], "tool") {
		return nil, fmt.Errorf("metatool queries: header %q, want Query,Tool", head)
	}
	var out []Query
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("metatool queries: %w", err)
		}
		line, _ := cr.FieldPos(0)
		q, name := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		i, ok := idx[name]
		switch {
		case q == "":
			return nil, fmt.Errorf("metatool queries: line %d: empty query", line)
		case !ok:
			return nil, fmt.Errorf("metatool queries: line %d: unknown tool %q", line, name)
		}
		out = append(out, Query{ID: fmt.Sprintf("metatool-%d", line), Text: q, Needs: [][]int{{i}}})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("metatool queries: no rows")
	}
	return out, nil
}

// ParseMetaToolMulti reads MetaTool's multi-tool queries (a JSON list of
// {"query", "tool": [names]}): each named tool is a need of its own.
func ParseMetaToolMulti(data []byte, tools []Tool) ([]Query, error) {
	var rows []struct {
		Query string   `json:"query"`
		Tool  []string `json:"tool"`
	}
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("metatool multi-tool queries: %w", err)
	}
	idx := toolIndex(tools)
	out := make([]Query, 0, len(rows))
	for i, r := range rows {
		q := Query{ID: fmt.Sprintf("metatool-multi-%d", i), Text: strings.TrimSpace(r.Query)}
		if q.Text == "" || len(r.Tool) == 0 {
			return nil, fmt.Errorf("metatool multi-tool queries: [%d]: empty query or no tools", i)
		}
		for _, name := range r.Tool {
			t, ok := idx[name]
			if !ok {
				return nil, fmt.Errorf("metatool multi-tool queries: [%d]: unknown tool %q", i, name)
			}
			if !slices.ContainsFunc(q.Needs, func(n []int) bool { return n[0] == t }) {
				q.Needs = append(q.Needs, []int{t})
			}
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("metatool multi-tool queries: no queries")
	}
	return out, nil
}

// LoadMetaTool loads MetaTool from its folder (retrieval/metatool): the 199
// tools with their own descriptions and either the single-tool queries
// (set "metatool") or the multi-tool ones (set "metatool-multi").
func LoadMetaTool(dir string, multi bool) (*Set, error) {
	data, err := readFile(filepath.Join(dir, metaToolTools))
	if err != nil {
		return nil, err
	}
	tools, err := ParseMetaToolTools(data)
	if err != nil {
		return nil, err
	}
	s := &Set{Name: "metatool", Source: "MetaTool (HowieHwong/MetaTool): single-tool queries over 199 tools", Tools: tools}
	if multi {
		s.Name, s.Source = "metatool-multi", "MetaTool (HowieHwong/MetaTool): multi-tool queries over 199 tools"
		data, err := readFile(filepath.Join(dir, metaToolMulti))
		if err != nil {
			return nil, err
		}
		if s.Queries, err = ParseMetaToolMulti(data, tools); err != nil {
			return nil, err
		}
	} else {
		f, err := os.Open(filepath.Join(dir, metaToolCSV))
		if err != nil {
			return nil, fmt.Errorf("load metatool: %w", err)
		}
		defer f.Close()
		if s.Queries, err = ParseMetaToolQueries(io.LimitReader(f, maxLabelledFile), tools); err != nil {
			return nil, err
		}
	}
	return s, s.Validate()
}

// readFile reads a whole labelled-set file, bounded by maxLabelledFile.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load labelled set: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLabelledFile+1))
	if err != nil {
		return nil, fmt.Errorf("load labelled set %s: %w", path, err)
	}
	if len(data) > maxLabelledFile {
		return nil, fmt.Errorf("load labelled set %s: larger than %d bytes", path, maxLabelledFile)
	}
	return data, nil
}
