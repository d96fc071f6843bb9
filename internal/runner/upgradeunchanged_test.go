package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestUnchangedUpgradeIsNoted pins that a scenario upgrade to a version
// serving the same tools as the version before it (what the replay reads
// of them: names and fingerprints of the run's scope) is recorded in
// results.json (run.upgrades_unchanged) and said as a finding, since it
// changes nothing in the replay; an upgrade that changes a description, or
// an annotation under catalog_fingerprint: served, is not. Before, such an
// upgrade ran without a word, as if it had been measured.
func TestUnchangedUpgradeIsNoted(t *testing.T) {
	dir := t.TempDir()
	cats := filepath.Join(dir, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	tool := func(desc, extra string) string {
		return `{"name":"get","description":"` + desc + `","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}` + extra + `}`
	}
	for name, body := range map[string]string{
		"srv@1.0.0.json": tool("Get a record", ""),
		"srv@1.1.0.json": tool("Get a record", ""),                                             // the same tool
		"srv@1.2.0.json": tool("Get a record", `,"annotations":{"readOnlyHint":true}`),         // metadata only
		"srv@2.0.0.json": tool("Get one record by id", `,"annotations":{"readOnlyHint":true}`), // description
	} {
		if err := os.WriteFile(filepath.Join(cats, name), []byte(`{"tools":[`+body+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	trace := filepath.Join(dir, "trace.jsonl")
	lines := []string{
		`{"v":1,"type":"session_start","session":"s1","t":"2026-03-02T09:00:00Z","model":"m","system_prompt_tokens":2400,"servers":[{"name":"srv","version":"1.0.0"}]}`,
		`{"type":"user","session":"s1","t":"2026-03-02T09:00:01Z","text":"fetch the record","text_tokens":8}`,
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:02Z","id":"r1","usage":{"input":2460,"output":22}}`,
		`{"type":"tool_call","session":"s1","t":"2026-03-02T09:00:03Z","request":"r1","call_id":"c1","tool":"get","server":"srv","args":{"id":"x"},"status":"ok","result_bytes":40}`,
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:04Z","id":"r2","usage":{"input":2560,"output":30}}`,
		`{"type":"assistant","session":"s1","t":"2026-03-02T09:00:05Z","request":"r2","text":"done","text_tokens":30}`,
		`{"type":"session_end","session":"s1","t":"2026-03-02T09:00:06Z"}`,
	}
	if err := os.WriteFile(trace, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	head := "traces: [" + trace + "]\ncatalogs: [" + cats + "]\nmodel: claude-sonnet-4.5\nstrategies: [eager]\n"
	up := func(to string) string {
		return `servers: {srv: {upgrades: [{to: "` + to + `", after_session: 0}]}}` + "\n"
	}
	for _, tc := range []struct {
		name, yaml string
		want       []sim.UnchangedUpgrade
	}{
		{"same tools", up("1.1.0"), []sim.UnchangedUpgrade{{Server: "srv", From: "1.0.0", To: "1.1.0"}}},
		{"annotation only, model scope", up("1.2.0"), []sim.UnchangedUpgrade{{Server: "srv", From: "1.1.0", To: "1.2.0"}}},
		{"annotation only, served scope", up("1.2.0") + "catalog_fingerprint: served\n", nil},
		{"description changed", up("2.0.0"), nil},
		{"no upgrade", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, head+tc.yaml, Overrides{})
			cfg.Bootstrap = -1
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := out.Results.Run.UnchangedUpgrades
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("upgrades_unchanged (-want +got):\n%s", d)
			}
			noted := slices.ContainsFunc(report.Findings(out.Results), func(f string) bool { return strings.Contains(f, "changes nothing in the replay") })
			if noted != (len(tc.want) > 0) {
				t.Errorf("a finding says the upgrade changes nothing: %v, want %v", noted, len(tc.want) > 0)
			}
		})
	}
}
