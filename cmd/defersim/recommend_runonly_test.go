package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/recommend"
	"github.com/defersim/defersim/scenarios"
)

// TestRecommendRunOnlyReadsTheScenario pins what recommend passes on as
// the scenario's settings a run applies and it does not (runOnly): of a
// --scenario file, each server with upgrades, permissions and srd, which
// recommend ignored silently, and apart the local servers, which it
// applies; of the embedded default (no --scenario), whose desktop is
// local, nothing applied: the snippet goes into the user's own scenario,
// and desktop is passed as not applied, for a note.
func TestRecommendRunOnlyReadsTheScenario(t *testing.T) {
	def, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	if got, local := runOnly("", def); !cmp.Equal(got, recommend.RunOnly{Scenario: "default", DefaultLocal: []string{"desktop"}}) || local != nil {
		t.Errorf("no --scenario: %+v, local %q: want desktop not applied alone", got, local)
	}
	if got, local := runOnly("scenarios/default.yaml", def); !cmp.Equal(got, recommend.RunOnly{Scenario: "default"}) || !cmp.Equal(local, []string{"desktop"}) {
		t.Errorf("--scenario scenarios/default.yaml: %+v, local %q: want local [desktop] alone", got, local)
	}
	doc := `name: s
traces: [t.jsonl]
catalogs: [c/]
strategies: [eager]
permissions: {deny: [delete_*]}
servers:
  web: {upgrades: [{to: "2.0.0", after_session: 3}]}
  files: {local: true}
`
	sc, err := scenarios.Parse([]byte(doc), "s.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	want := recommend.RunOnly{Scenario: "s", Keys: []string{"servers.web.upgrades", "permissions"}}
	if got, local := runOnly("s.yaml", sc); !cmp.Equal(got, want) || !cmp.Equal(local, []string{"files"}) {
		t.Errorf("local %q (want [files]); %s", local, cmp.Diff(want, got))
	}
}
