package retrieval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/defersim/defersim/catalog"
)

// BFCL live_multiple files under the bfcl folder.
const (
	bfclDir       = "berkeley-function-call-leaderboard/bfcl_eval/data"
	bfclQuestions = "BFCL_v4_live_multiple.json"
)

// maxBFCLLine bounds one JSON line of a BFCL file (16 MiB).
const maxBFCLLine = 16 << 20

type bfclEntry struct {
	ID       string `json:"id"`
	Question [][]struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"question"`
	Function []json.RawMessage `json:"function"`
}

type bfclFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type bfclAnswer struct {
	ID          string                       `json:"id"`
	GroundTruth []map[string]json.RawMessage `json:"ground_truth"`
}

// sgdName matches the service prefix of BFCL's schema-guided names
// ("Hotels_2_SearchHouse" → "Hotels_2").
var sgdName = regexp.MustCompile(`^([A-Za-z]+_\d+)_`)

// BFCLServer derives a server (namespace) for a BFCL function name: the
// part before the first "." ("uber.ride" → "uber"), the service of a
// schema-guided name ("Hotels_2_SearchHouse" → "Hotels_2"), or "" (a bare
// function, its own domain).
func BFCLServer(name string) string {
	if i := strings.IndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	if m := sgdName.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}

// ParseBFCL reads BFCL live queries (one JSON object a line: id, question,
// function) and their answers (id, ground_truth). Each query's candidate
// tools are its own functions; each ground-truth call is a need. The
// corpus holds every distinct function definition once (the same name
// with another definition is another tool). The query text is the user
// messages, joined by newlines.
func ParseBFCL(questions, answers io.Reader) (*Set, error) {
	gt := map[string][]string{}
	err := eachLine(answers, func(line int, b []byte) error {
		var a bfclAnswer
		if err := json.Unmarshal(b, &a); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if a.ID == "" {
			return fmt.Errorf("line %d: answer without an id", line)
		}
		var names []string
		for _, call := range a.GroundTruth {
			for name := range call {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			return fmt.Errorf("line %d: answer %s has no ground-truth call", line, a.ID)
		}
		gt[a.ID] = names
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bfcl answers: %w", err)
	}
	s := &Set{Name: "bfcl", Source: "BFCL v4 live_multiple (ShishirPatil/gorilla): each query's own candidate functions"}
	byDef := map[string]int{}
	err = eachLine(questions, func(line int, b []byte) error {
		var e bfclEntry
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		names, ok := gt[e.ID]
		if !ok {
			return fmt.Errorf("line %d: query %q has no answer", line, e.ID)
		}
		q := Query{ID: e.ID}
		var text []string
		for _, turn := range e.Question {
			for _, m := range turn {
				if m.Role == "user" && strings.TrimSpace(m.Content) != "" {
					text = append(text, strings.TrimSpace(m.Content))
				}
			}
		}
		q.Text = strings.Join(text, "\n")
		if q.Text == "" {
			return fmt.Errorf("line %d: query %q has no user text", line, e.ID)
		}
		for _, raw := range e.Function {
			i, err := s.addBFCLFunction(byDef, raw)
			if err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
			q.Candidates = append(q.Candidates, i)
		}
		for _, name := range names {
			var need []int
			for _, c := range q.Candidates {
				if s.Tools[c].Name == name {
					need = append(need, c)
				}
			}
			if len(need) == 0 {
				return fmt.Errorf("line %d: query %q: answer %q is not among its functions", line, e.ID, name)
			}
			q.Needs = append(q.Needs, need)
		}
		s.Queries = append(s.Queries, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bfcl queries: %w", err)
	}
	return s, s.Validate()
}

// addBFCLFunction adds a function definition to the corpus once and
// returns its index.
func (s *Set) addBFCLFunction(byDef map[string]int, raw json.RawMessage) (int, error) {
	var f bfclFunction
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, fmt.Errorf("function: %w", err)
	}
	if strings.TrimSpace(f.Name) == "" {
		return 0, fmt.Errorf("function without a name")
	}
	canon, err := catalog.Canonical(raw)
	if err != nil {
		return 0, fmt.Errorf("function %q: %w", f.Name, err)
	}
	key := string(canon)
	if i, ok := byDef[key]; ok {
		return i, nil
	}
	params := f.Parameters
	if len(params) > 0 && params[0] != '{' {
		params = nil // not an object: counted as an empty schema
	}
	w, err := wireTool(f.Name, f.Description, params)
	if err != nil {
		return 0, err
	}
	t := Tool{Wire: w}
	t.Name, t.Description, t.Server, t.Schema = f.Name, f.Description, BFCLServer(f.Name), params
	s.Tools = append(s.Tools, t)
	byDef[key] = len(s.Tools) - 1
	return len(s.Tools) - 1, nil
}

// eachLine calls fn with each non-blank line of r (1-based line numbers).
func eachLine(r io.Reader, fn func(line int, b []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxBFCLLine)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := fn(line, b); err != nil {
			return err
		}
	}
	return sc.Err()
}

// LoadBFCL loads BFCL live_multiple from the bfcl folder: set "bfcl" (each
// query's own candidates) or, with pool, "bfcl-pool" (every query searches
// all distinct functions; a function of the same name counts as the
// answer).
func LoadBFCL(dir string, pool bool) (*Set, error) {
	base := filepath.Join(dir, bfclDir)
	q, err := os.Open(filepath.Join(base, bfclQuestions))
	if err != nil {
		return nil, fmt.Errorf("load bfcl: %w", err)
	}
	defer q.Close()
	a, err := os.Open(filepath.Join(base, "possible_answer", bfclQuestions))
	if err != nil {
		return nil, fmt.Errorf("load bfcl: %w", err)
	}
	defer a.Close()
	s, err := ParseBFCL(q, a)
	if err != nil {
		return nil, err
	}
	if pool {
		s = s.Pooled("bfcl-pool")
	}
	return s, nil
}
