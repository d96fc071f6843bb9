package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces/gen"
)

// TestResumeOverMovedInputs pins that a checkpoint is keyed by the contents
// of the traces and catalogs, not their paths: a run interrupted over one
// copy of its inputs resumes over another copy (the trace and every catalog
// file moved) and gives results byte-identical to an uninterrupted run over
// the new paths; a catalog file whose contents changed in the move (one
// tool's description) is refused, naming the file.
func TestResumeOverMovedInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	cfg := smallConfig(t, shardStrategies[:2], 40)
	cfg.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
	ctx, cancel := context.WithCancel(context.Background())
	c := cfg
	c.AfterSession = func(n int64) {
		if n == 15 {
			cancel()
		}
	}
	if _, err := Run(ctx, c); err == nil {
		t.Fatal("the interrupted run succeeded")
	}
	cancel()
	if _, err := os.Stat(cfg.Checkpoint); err != nil {
		t.Fatalf("no checkpoint after the interruption: %v", err)
	}

	moved := func(t *testing.T, edit bool) Config {
		t.Helper()
		dir := t.TempDir()
		copyFile(t, cfg.Traces[0].Path, filepath.Join(dir, gen.TraceFile))
		src := cfg.Catalogs[0].Path
		files, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		edited := false
		for _, f := range files {
			to := filepath.Join(dir, gen.CatalogDir, f.Name())
			copyFile(t, filepath.Join(src, f.Name()), to)
			if edit && !edited && strings.HasSuffix(f.Name(), ".json") {
				edited = editFirstDescription(t, to)
			}
		}
		if edit && !edited {
			t.Fatal("no catalog file had a tool description to edit")
		}
		m := cfg
		m.Traces = []Source{{Path: filepath.Join(dir, gen.TraceFile)}}
		m.Catalogs = []Source{{Path: filepath.Join(dir, gen.CatalogDir)}}
		if m.Traces[0] == cfg.Traces[0] || m.Catalogs[0] == cfg.Catalogs[0] {
			t.Fatal("the copy has the original's paths")
		}
		return m
	}

	t.Run("changed catalog refused", func(t *testing.T) {
		m := moved(t, true)
		m.Resume = true
		_, err := Run(context.Background(), m)
		if err == nil || !strings.Contains(err.Error(), "the checkpoint was made by another run") ||
			!strings.Contains(err.Error(), "hold other contents") || !strings.Contains(err.Error(), "catalog") {
			t.Fatalf("resume over an edited catalog: error %v, want a refusal naming the catalog", err)
		}
	})
	t.Run("moved, same contents", func(t *testing.T) {
		m := moved(t, false)
		w := m
		w.Checkpoint = "" // a completed run removes its checkpoint
		whole, err := Run(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		r := m
		r.Resume = true
		resumed, err := Run(context.Background(), r)
		if err != nil {
			t.Fatalf("resume over the moved inputs: %v", err)
		}
		want, got := resultsBytes(t, whole), resultsBytes(t, resumed)
		if !bytes.Equal(want, got) {
			t.Fatalf("resumed results differ from the uninterrupted run over the same paths:\n%s", cmp.Diff(string(want), string(got)))
		}
		if !bytes.Contains(got, []byte(m.Traces[0].Path)) {
			t.Error("the resumed results do not name the trace's new path")
		}
	})
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// editFirstDescription appends a word to the first tool description of a
// tools/list file; false when it has none.
func editFirstDescription(t *testing.T, path string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return false
	}
	tools, _ := doc["tools"].([]any)
	for _, x := range tools {
		tool, _ := x.(map[string]any)
		if d, ok := tool["description"].(string); ok {
			tool["description"] = d + " (edited)"
			out, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			return true
		}
	}
	return false
}
