package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/recommend"
	"github.com/defersim/defersim/scenarios"
)

// TestRecommendRunOnlyReadsTheScenario pins what recommend passes on as
// the scenario's settings a run applies and it does not (runOnly): of a
// --scenario file, the local servers, each server with upgrades,
// permissions and srd, which recommend ignored silently; of the embedded
// default (no --scenario), whose desktop is local, nothing: the snippet
// goes into the user's own scenario.
func TestRecommendRunOnlyReadsTheScenario(t *testing.T) {
	def, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := runOnly("", def), (recommend.RunOnly{Scenario: "default"}); !cmp.Equal(got, want) {
		t.Errorf("no --scenario: %s", cmp.Diff(want, got))
	}
	if got, want := runOnly("scenarios/default.yaml", def), (recommend.RunOnly{Scenario: "default", LocalServers: []string{"desktop"}}); !cmp.Equal(got, want) {
		t.Errorf("--scenario scenarios/default.yaml: %s", cmp.Diff(want, got))
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
	want := recommend.RunOnly{Scenario: "s", LocalServers: []string{"files"}, Keys: []string{"servers.web.upgrades", "permissions"}}
	if got := runOnly("s.yaml", sc); !cmp.Equal(got, want) {
		t.Errorf("%s", cmp.Diff(want, got))
	}
}
