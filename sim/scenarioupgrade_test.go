package sim

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScenarioUpgradeKeepsAfterSessionZero pins that an upgrade "after
// session 0" keeps its 0 through a shard's gob state and results.json: a
// *int64 field came back from a merged shard unset, as if the scenario
// had written no time, and a run and its merged shards recorded different
// servers blocks. The JSON form writes after_session or at, as the
// scenario does.
func TestScenarioUpgradeKeepsAfterSessionZero(t *testing.T) {
	for _, tc := range []struct {
		name string
		up   ScenarioUpgrade
		json string
	}{
		{"after session 0", ScenarioUpgrade{To: "1.11.0"}, `{"to":"1.11.0","after_session":0}`},
		{"after session 20", ScenarioUpgrade{To: "1.11.0", AfterSession: 20}, `{"to":"1.11.0","after_session":20}`},
		{"at a time", ScenarioUpgrade{To: "2", At: "2026-05-01T09:00:00Z"}, `{"to":"2","at":"2026-05-01T09:00:00Z"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := ScenarioServer{Server: "s", Upgrades: []ScenarioUpgrade{tc.up}}
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(in); err != nil {
				t.Fatal(err)
			}
			var back ScenarioServer
			if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(back.Upgrades[0])
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.json {
				t.Errorf("after gob, JSON %s, want %s", b, tc.json)
			}
			var dec ScenarioUpgrade
			if err := json.Unmarshal(b, &dec); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.up, dec); d != "" {
				t.Errorf("JSON round trip (-want +got):\n%s", d)
			}
		})
	}
}
