package importers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers"
)

// TestSWEAgentUndocumentedRunHasNoOtherToolSet pins that a SWE-agent
// trajectory documenting no command (as the shared
// function_calling_simple.traj) lists its server at a version of its own,
// with no tools, so that validate and run find its calls as unknown tools,
// as the import report counts them (called without a schema). It used to
// list "swe-agent" without a version: the replay then took the catalog's
// last version by spelling, the tool set of another trajectory in the
// same import, and resolved the calls against it, so run counted none
// unresolved where the import reported them without schema.
func TestSWEAgentUndocumentedRunHasNoOtherToolSet(t *testing.T) {
	documented := filepath.Join("sweagent", "testdata", "fc-run", "demo__widget-2.traj")
	data, err := os.ReadFile(documented)
	if err != nil {
		t.Fatal(err)
	}
	var traj map[string]json.RawMessage
	if err := json.Unmarshal(data, &traj); err != nil {
		t.Fatal(err)
	}
	delete(traj, "replay_config") // the command documentation, and with it every schema
	bare, err := json.Marshal(traj)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	undocumented := filepath.Join(tmp, "bare-run", "demo__widget-3.traj")
	if err := os.MkdirAll(filepath.Dir(undocumented), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(undocumented, bare, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "swe.jsonl")
	rep, err := importers.Run(importers.Request{Format: "swe-agent", Inputs: []string{documented, undocumented}, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	without := 0
	for _, m := range rep.MissingSchemas {
		without += m.Calls
	}
	if without == 0 {
		t.Fatal("the undocumented run's calls are not reported without schema")
	}
	sessions, _, err := traces.ReadAll(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		for _, r := range s.Start().Servers() {
			if r.Version == "" {
				t.Errorf("%s: server %s listed without a version: a replay gives it another session's tool set", s.ID, r.Name)
			}
		}
	}
	cat, err := catalog.LoadDir(rep.CatalogDir)
	if err != nil {
		t.Fatal(err)
	}
	// The resolver is the run's: each call against the server version in
	// force in its session (trace validate --catalogs does the same).
	probs, _, err := traces.Validate(out, traces.ValidateOptions{Tools: cat, Resolver: sim.NewCallResolver(cat)})
	if err != nil {
		t.Fatal(err)
	}
	unknown := 0
	for _, p := range probs {
		switch p.Kind {
		case traces.KindUnknownTool, traces.KindCatalogMismatch: // not served at the session's version: run's unknown tool
			unknown++
		default:
			t.Errorf("validate: %s", p)
		}
	}
	if unknown != without {
		t.Errorf("validate finds %d calls of tools the session's catalog does not serve, the import reports %d calls without schema", unknown, without)
	}
}
