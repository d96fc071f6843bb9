package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValidateSaysUnreplayedVersions pins that `trace validate` says,
// before a run, the catalog versions no session would replay — run's
// warning and its run.resolution.unreplayed_versions, which check fails
// the gate on — and that they are the run's: validate counted no replayed
// versions, so a user learned of an upgrade the traces never reach only
// after the run, or from check.
func TestValidateSaysUnreplayedVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	dir := upgradeFixture(t)
	trace := filepath.Join(dir, "gen", "trace.jsonl.gz")
	const line = "  chrome-devtools-mcp 1.11.0 (the sessions replayed 0.17.0; to replay it, add servers.chrome-devtools-mcp.upgrades to the scenario"
	for _, tc := range []struct {
		catalogs string
		want     bool
	}{{"old", false}, {"both", true}} {
		t.Run(tc.catalogs, func(t *testing.T) {
			catalogs := filepath.Join(dir, "cat", tc.catalogs)
			text, code := runCLI(t, "trace", "validate", trace, "--catalogs", catalogs)
			if code != 0 {
				t.Fatalf("validate: exit %d\n%s", code, text)
			}
			said := strings.Contains(text, "run would warn: catalog versions no session replayed") && strings.Contains(text, line)
			if said != tc.want {
				t.Errorf("validate says the unreplayed version: %v, want %v\n%s", said, tc.want, text)
			}
			js, _ := runCLI(t, "trace", "validate", trace, "--catalogs", catalogs, "--format", "json")
			var rep struct {
				Run struct {
					Resolution struct {
						Unreplayed []map[string]any `json:"unreplayed_versions"`
					} `json:"resolution"`
				} `json:"run"`
			}
			if err := json.Unmarshal([]byte(js[:strings.LastIndex(js, "}")+1]), &rep); err != nil {
				t.Fatalf("validate json: %v\n%s", err, js)
			}
			out := filepath.Join(dir, "run-"+tc.catalogs)
			if o, code := runCLI(t, "run", "--traces", trace, "--catalogs", catalogs, "--strategies", "eager", "--bootstrap", "-1", "-q", "-o", out); code != 0 {
				t.Fatalf("run: exit %d\n%s", code, o)
			}
			if diff := cmp.Diff(unreplayedOf(t, filepath.Join(out, "results.json")), rep.Run.Resolution.Unreplayed); diff != "" {
				t.Errorf("validate's unreplayed_versions differ from run's (-run +validate):\n%s", diff)
			}
			if tc.want && rep.Run.Resolution.Unreplayed == nil {
				t.Errorf("validate's JSON has no unreplayed_versions")
			}
		})
	}
}
