package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestRecordedModelsBounded pins that a trace of more distinct recorded
// models than sim.MaxRecordedModels keeps only that many names in the
// run's state — single run, every shard and a checkpoint alike — counts
// the sessions of the others together (results.json
// run.recorded_models_other, the note), and that shards merged and a
// resumed run give results byte-identical to the single run's. (Before,
// every distinct name was kept: a model field unique per session grew
// the state without bound.)
func TestRecordedModelsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions several times")
	}
	const K = sim.MaxRecordedModels
	// K+4 other models, then the scenario's (a dated spelling), which
	// sorts after them: 2 sessions each.
	var models []string
	for i := range K + 4 {
		models = append(models, fmt.Sprintf("a-deploy-%03d", i))
	}
	models = append(models, "claude-sonnet-4-5-20250929")
	cfg := smallConfig(t, []string{"eager", "claude-code-default"}, 2*len(models))
	cfg.Bootstrap = 50
	setModels(t, &cfg, models...)
	bounded := func(t *testing.T, what string, st *sim.RunState) {
		t.Helper()
		if n := len(st.Resolution.Models.Names); n > K {
			t.Errorf("%s: %d model names kept, want at most %d", what, n, K)
		}
	}

	single, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	bounded(t, "single run", single.State.State)
	info := single.Results.Run
	if len(info.RecordedModels) != K {
		t.Fatalf("recorded_models lists %d models, want %d", len(info.RecordedModels), K)
	}
	for i, m := range info.RecordedModels {
		if want := fmt.Sprintf("a-deploy-%03d", i); m.Model != want || m.Sessions != 2 || m.Scenario {
			t.Fatalf("recorded_models[%d] = %+v, want %s in 2 sessions, not the scenario's", i, m, want)
		}
	}
	if want := (&sim.OtherModels{Sessions: 10, Scenario: 2, Names: K}); !cmp.Equal(info.OtherModels, want) {
		t.Fatalf("recorded_models_other = %+v, want %+v", info.OtherModels, want)
	}
	note := fmt.Sprintf("136 of 138 sessions were recorded with another model than the run's (\"a-deploy-000\" in 2, \"a-deploy-001\" in 2, \"a-deploy-002\" in 2, \"a-deploy-003\" in 2, \"a-deploy-004\" in 2, … (%d more models); 8 with models beyond the first %d names (bytewise), counted together: run.recorded_models_other)", K-5, K)
	var notes []string
	for _, f := range report.Findings(single.Results) {
		if strings.Contains(f, "recorded with another model") {
			notes = append(notes, f)
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], note) {
		t.Fatalf("notes %q, want one starting %q", notes, note)
	}
	want := resultsBytes(t, single)

	checkSplitRuns(t, cfg, want, splitRuns{shards: 3, stopAfter: 100,
		inspect: func(t *testing.T, what string, f *StateFile) { bounded(t, what, f.State) }})
}
