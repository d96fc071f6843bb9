package retrieval

import (
	"bytes"
	"strings"
	"testing"
)

// The loaders' parsers must never panic, and whatever they accept must be
// a valid set.

func FuzzParseMetaTool(f *testing.F) {
	f.Add([]byte(miniTools), []byte("Query,Tool\nwill it rain,Weather\n"), []byte(`[{"query":"q","tool":["Atlas"]}]`))
	f.Add([]byte(`{"a":""}`), []byte("Query,Tool\n\"x\"\"y\",a\n"), []byte(`[]`))
	f.Add([]byte(`{`), []byte("\ufeffquery,tool\n"), []byte(`[{"tool":null}]`))
	f.Fuzz(func(t *testing.T, toolsJSON, csv, multi []byte) {
		tools, err := ParseMetaToolTools(toolsJSON)
		if err != nil {
			return
		}
		if qs, err := ParseMetaToolQueries(bytes.NewReader(csv), tools); err == nil {
			s := &Set{Name: "f", Tools: tools, Queries: qs}
			if err := s.Validate(); err != nil {
				t.Fatalf("accepted queries are invalid: %v", err)
			}
		}
		if qs, err := ParseMetaToolMulti(multi, tools); err == nil {
			s := &Set{Name: "f", Tools: tools, Queries: qs}
			if err := s.Validate(); err != nil {
				t.Fatalf("accepted multi queries are invalid: %v", err)
			}
		}
	})
}

func FuzzParseBFCL(f *testing.F) {
	f.Add([]byte(bfclQ), []byte(bfclA))
	f.Add([]byte(`{"id":"x","question":[[{"role":"user","content":"y"}]],"function":[{"name":"f","parameters":[1]}]}`), []byte(`{"id":"x","ground_truth":[{"f":{}}]}`))
	f.Add([]byte("\n\n"), []byte(""))
	f.Fuzz(func(t *testing.T, q, a []byte) {
		s, err := ParseBFCL(bytes.NewReader(q), bytes.NewReader(a))
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted set is invalid: %v", err)
		}
		if err := s.Pooled("p").Validate(); err != nil {
			t.Fatalf("pooled set is invalid: %v", err)
		}
	})
}

func FuzzParseMCPBench(f *testing.F) {
	f.Add([]byte(mcpBench))
	f.Add([]byte(`{"server_tasks":[{"servers":["A+B"],"tasks":[{"task_id":"t","fuzzy_description":"f","task_description":"A+B:x","distraction_servers":"[\"C\"]"}]}]}`))
	f.Add([]byte(`{"server_tasks":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tasks, err := ParseMCPBench(data)
		if err != nil {
			return
		}
		if s, err := MCPBenchSet(tasks); err == nil {
			if err := s.Validate(); err != nil {
				t.Fatalf("accepted set is invalid: %v", err)
			}
		}
	})
}

func FuzzParseHardSet(f *testing.F) {
	f.Add([]byte("name: x\nqueries:\n  - {id: a, q: say hi, want: [chat/say]}\n"))
	f.Add([]byte("name: x\nqueries:\n  - &a {id: a, q: b, want: [s/t]}\n  - *a\n"))
	f.Add([]byte("name: [x]\n"))
	f.Add([]byte("name: x\nqueries:\n  - {id: a, q: say hi, needs: [[chat/say, mail/send], [notes/add]]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHardSet("f.yaml", data)
		if err != nil {
			return
		}
		if h.Name == "" || len(h.Queries) == 0 {
			t.Fatalf("accepted a set without a name or queries")
		}
		var tools []Tool
		for _, q := range h.Queries {
			for _, need := range q.Needs {
				for _, w := range need {
					var tl Tool
					tl.Server, tl.Name, _ = strings.Cut(w, "/")
					tools = append(tools, tl)
				}
			}
		}
		if s, err := h.Resolve(tools); err != nil {
			t.Fatalf("resolving against its own tools: %v", err)
		} else if len(s.Queries) != len(h.Queries) {
			t.Fatalf("%d queries resolved, want %d", len(s.Queries), len(h.Queries))
		}
	})
}
