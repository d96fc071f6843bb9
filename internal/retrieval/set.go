package retrieval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/defersim/defersim/sim"
)

// Tool is one tool of a labelled set's corpus.
type Tool struct {
	sim.ToolDoc
	// Wire is the tool as a runtime sends it (compact JSON
	// {"name","description","input_schema"}); returned schemas are counted
	// on it.
	Wire []byte
}

// Query is one labelled query.
type Query struct {
	ID   string
	Text string
	// Needs lists what the query needs: each need is a set of corpus
	// indices that are equally good answers (interchangeable tools). Most
	// queries have one need.
	Needs [][]int
	// Candidates, when set, is the corpus of this query alone (corpus
	// indices), as in sets that give each query its own candidate tools.
	Candidates []int
}

// Set is a labelled query set over a corpus of tools.
type Set struct {
	Name string
	// Source says in one line where the set comes from.
	Source  string
	Tools   []Tool
	Queries []Query
	// OverCatalogs says the tools are a catalog folder's (CatalogTools): a
	// hard set, named or read from a file. Its default SRDs are the shipped
	// ones of the folder's servers (LoadSRDs).
	OverCatalogs bool
}

// Validate checks that every index is in range, every query has a text and
// at least one need, and every need is among the query's candidates.
func (s *Set) Validate() error {
	if len(s.Queries) == 0 {
		return fmt.Errorf("set %s: no queries", s.Name)
	}
	n := len(s.Tools)
	for qi, q := range s.Queries {
		if q.Text == "" {
			return fmt.Errorf("set %s: query %s: empty text", s.Name, q.ID)
		}
		if len(q.Needs) == 0 {
			return fmt.Errorf("set %s: query %s: no needed tool", s.Name, q.ID)
		}
		for _, c := range q.Candidates {
			if c < 0 || c >= n {
				return fmt.Errorf("set %s: query %d: candidate %d out of range", s.Name, qi, c)
			}
		}
		for _, need := range q.Needs {
			if len(need) == 0 {
				return fmt.Errorf("set %s: query %s: empty need", s.Name, q.ID)
			}
			for _, t := range need {
				if t < 0 || t >= n {
					return fmt.Errorf("set %s: query %s: tool %d out of range", s.Name, q.ID, t)
				}
				if q.Candidates != nil && !slices.Contains(q.Candidates, t) {
					return fmt.Errorf("set %s: query %s: needed tool %s is not a candidate", s.Name, q.ID, s.Tools[t].Name)
				}
			}
		}
	}
	return nil
}

// Pooled returns a copy of s in which every query searches the whole
// corpus (its own candidates are dropped), under name. A need then accepts
// every corpus tool with the same server and name as one of its tools (in
// a pooled corpus they are interchangeable).
func (s *Set) Pooled(name string) *Set {
	out := &Set{Name: name, Source: s.Source + " (candidates pooled into one corpus)", Tools: s.Tools}
	same := map[[2]string][]int{}
	for i, t := range s.Tools {
		k := [2]string{t.Server, t.Name}
		same[k] = append(same[k], i)
	}
	out.Queries = make([]Query, len(s.Queries))
	for i, q := range s.Queries {
		q.Candidates = nil
		needs := make([][]int, len(q.Needs))
		for j, need := range q.Needs {
			var ext []int
			for _, t := range need {
				for _, o := range same[[2]string{s.Tools[t].Server, s.Tools[t].Name}] {
					if !slices.Contains(ext, o) {
						ext = append(ext, o)
					}
				}
			}
			slices.Sort(ext)
			needs[j] = ext
		}
		q.Needs = needs
		out.Queries[i] = q
	}
	return out
}

// Head returns a copy of s with at most n queries, taken evenly across the
// set (every len/n-th query) so that every part of an ordered set is
// represented; n ≤ 0 or n ≥ len keeps all.
func (s *Set) Head(n int) *Set {
	if n <= 0 || n >= len(s.Queries) {
		return s
	}
	out := *s
	out.Queries = make([]Query, n)
	for i := range n {
		out.Queries[i] = s.Queries[i*len(s.Queries)/n]
	}
	return &out
}

// wireTool builds the compact wire form of a tool from its parts; schema
// may be nil ({"type":"object"} is used) and is compacted.
func wireTool(name, desc string, schema json.RawMessage) ([]byte, error) {
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	w := struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"input_schema"`
	}{name, desc, schema}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("tool %q: %w", name, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Split parts: the tuning part holds the queries whose ID hashes (FNV-1a,
// 64 bits) to 0 modulo TuneModulus, the report part the rest.
const (
	SplitAll    = "all"
	SplitTune   = "tune"
	SplitReport = "report"
	// TuneModulus makes the tuning part about one query in five.
	TuneModulus = 5
)

// InTuningPart reports whether a query ID falls in the tuning part.
func InTuningPart(id string) bool {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()%TuneModulus == 0
}

// Split returns a copy of s with the queries of one part: SplitTune,
// SplitReport, or SplitAll (s itself).
func (s *Set) Split(part string) (*Set, error) {
	switch part {
	case SplitAll, "":
		return s, nil
	case SplitTune, SplitReport:
	default:
		return nil, fmt.Errorf("split %q, want %s, %s or %s", part, SplitAll, SplitTune, SplitReport)
	}
	out := *s
	out.Queries = nil
	for _, q := range s.Queries {
		if InTuningPart(q.ID) == (part == SplitTune) {
			out.Queries = append(out.Queries, q)
		}
	}
	out.Name = s.Name + "@" + part
	if len(out.Queries) == 0 {
		return nil, fmt.Errorf("set %s: no queries in the %s part", s.Name, part)
	}
	return &out, nil
}
