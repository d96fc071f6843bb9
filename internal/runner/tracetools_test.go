package runner

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/traces/gen"
)

// genConfig is the default scenario over a trace generated with p, into
// a new directory, replayed by two workers.
func genConfig(t *testing.T, strategies []string, p gen.Params) Config {
	t.Helper()
	dir := t.TempDir()
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := FromScenario(sc, Overrides{Strategies: strategies, Traces: []string{filepath.Join(dir, gen.TraceFile)},
		Catalogs: []string{filepath.Join(dir, gen.CatalogDir)}}, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	return cfg
}

// rewriteTrace rewrites cfg's one trace (gzipped or not) into a new,
// uncompressed file: fn gets every line with the index of its session (by
// session_start, from 0) and returns the lines to write in its place
// (the line itself keeps it as it was).
func rewriteTrace(t *testing.T, cfg *Config, fn func(line []byte, session int) [][]byte) {
	t.Helper()
	if len(cfg.Traces) != 1 {
		t.Fatalf("traces %+v, want one", cfg.Traces)
	}
	data, err := os.ReadFile(cfg.Traces[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	var in io.Reader = bytes.NewReader(data)
	if strings.HasSuffix(cfg.Traces[0].Path, ".gz") {
		if in, err = gzip.NewReader(in); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<26)
	k := -1
	for sc.Scan() {
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
			t.Fatal(err)
		}
		if head.Type == "session_start" {
			k++
		}
		for _, line := range fn(sc.Bytes(), k) {
			out.Write(line)
			out.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "edited.jsonl")
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Traces = []Source{{Path: p}}
}

// editEvents rewrites the lines of events of type typ in cfg's one trace
// (rewriteTrace): edit gets each, decoded, with the index of its session;
// the other lines are kept byte for byte.
func editEvents(t *testing.T, cfg *Config, typ string, edit func(ev map[string]any, session int)) {
	t.Helper()
	rewriteTrace(t, cfg, func(line []byte, k int) [][]byte {
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		if ev["type"] != typ {
			return [][]byte{line}
		}
		edit(ev, k)
		out, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		return [][]byte{out}
	})
}
