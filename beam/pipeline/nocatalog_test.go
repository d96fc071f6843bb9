package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// TestSpecRefusesTracesWithoutCatalog pins that defersim-beam stops as
// `defersim run` does (runner.NoCatalogError) on traces naming no catalog,
// with none beside them and no catalogs given, under the embedded default
// scenario, and replays them over the sample catalog when the spec names
// it: the pipeline replayed them over the embedded catalog without a word.
func TestSpecRefusesTracesWithoutCatalog(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "conv.jsonl")
	if err := os.WriteFile(trace, []byte(`{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T00:00:00Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Spec{Traces: []string{trace}, Out: t.TempDir()}.Config()
	var nc runner.NoCatalogError
	if !errors.As(err, &nc) {
		t.Errorf("no catalogs: error %v, want runner.NoCatalogError", err)
	}
	cfg, err := Spec{Traces: []string{trace}, Catalogs: []string{"embedded:catalog"}, Out: t.TempDir()}.Config()
	if err != nil || cfg.CatalogsFrom != runner.CatalogsFromFlag {
		t.Errorf("catalogs embedded:catalog: from %q, error %v", cfg.CatalogsFrom, err)
	}
}
