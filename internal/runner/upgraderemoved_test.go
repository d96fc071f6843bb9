package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUpgradeRemovedToolIsUnresolved pins that a call of a tool the
// version a scenario upgrade moves its server to no longer serves (removed
// or renamed by the upgrade) counts as an unknown tool, and as
// unknown_tool_after_upgrade, so the run's limit on unresolved calls holds
// for it and the stop names the upgrade. Before, the resolution was
// counted on the versions the trace records only: the call counted as
// resolved, "all tool calls resolved", while the replay silently left it
// out of the upgraded session. Preflighted.Resolve, which counts it
// without the replay for trace validate --scenario, counts the run's
// resolution and unreached upgrades exactly.
func TestUpgradeRemovedToolIsUnresolved(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cats := filepath.Join(dir, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	tool := func(name string) string {
		return `{"name":"` + name + `","description":"` + name + ` a record","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}}`
	}
	write("catalogs/srv@1.0.0.json", `{"tools":[`+tool("keep")+`,`+tool("gone")+`]}`)
	write("catalogs/srv@2.0.0.json", `{"tools":[`+tool("keep")+`,`+tool("renamed")+`]}`)
	call := func(req, id, name, t string) string {
		return `{"type":"tool_call","session":"s1","t":"` + t + `","request":"` + req + `","call_id":"` + id + `","tool":"` + name + `","server":"srv","args":{"id":"x"},"status":"ok","result_bytes":40}`
	}
	trace := write("trace.jsonl", strings.Join([]string{
		`{"v":1,"type":"session_start","session":"s1","t":"2026-03-02T09:00:00Z","model":"m","system_prompt_tokens":2400,"servers":[{"name":"srv","version":"1.0.0"}]}`,
		`{"type":"user","session":"s1","t":"2026-03-02T09:00:01Z","text":"fetch the record","text_tokens":8}`,
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:02Z","id":"r1","usage":{"input":2460,"output":22}}`,
		call("r1", "c1", "keep", "2026-03-02T09:00:03Z"),
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:10Z","id":"r2","usage":{"input":2500,"output":22}}`,
		call("r2", "c2", "gone", "2026-03-02T09:00:11Z"),
		`{"type":"model_request","session":"s1","t":"2026-03-02T09:00:12Z","id":"r3","usage":{"input":2560,"output":30}}`,
		`{"type":"assistant","session":"s1","t":"2026-03-02T09:00:13Z","request":"r3","text":"done","text_tokens":30}`,
		`{"type":"session_end","session":"s1","t":"2026-03-02T09:00:14Z"}`,
	}, "\n")+"\n")
	head := "traces: [" + trace + "]\ncatalogs: [" + cats + "]\nmodel: claude-sonnet-4.5\nstrategies: [eager, claude-code-default]\n"
	for _, tc := range []struct {
		name, servers                  string
		resolved, unknown, afterUpdate int64
	}{
		{"no upgrade", "", 2, 0, 0},
		{"after_session reached", `servers: {srv: {upgrades: [{to: "2.0.0", after_session: 0}]}}`, 1, 1, 1},
		{"after_session not reached", `servers: {srv: {upgrades: [{to: "2.0.0", after_session: 1}]}}`, 2, 0, 0},
		{"at before the removed tool's call", `servers: {srv: {upgrades: [{to: "2.0.0", at: 2026-03-02T09:00:05Z}]}}`, 1, 1, 1},
		{"at after every call", `servers: {srv: {upgrades: [{to: "2.0.0", at: 2026-03-02T09:00:12Z}]}}`, 2, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, head+tc.servers, Overrides{AllowUnresolved: true})
			cfg.Bootstrap = -1
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := out.Results.Run.Resolution
			if r.Calls != 2 || r.Resolved != tc.resolved || r.UnknownTool != tc.unknown || r.UpgradeRemoved != tc.afterUpdate {
				t.Errorf("calls %d, resolved %d, unknown tool %d, of which after an upgrade %d; want 2, %d, %d, %d",
					r.Calls, r.Resolved, r.UnknownTool, r.UpgradeRemoved, tc.resolved, tc.unknown, tc.afterUpdate)
			}
			if tc.unknown > 0 && (len(r.TopUnresolved) != 1 || r.TopUnresolved[0].Tool != "gone") {
				t.Errorf("most called unresolved: %+v, want srv/gone", r.TopUnresolved)
			}
			// Preflight's resolution, without the replay, is the run's
			// (trace validate --scenario predicts run's with it).
			pf, err := Preflight(cfg)
			if err != nil {
				t.Fatal(err)
			}
			got, err := pf.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(out.Run.Resolution, got.Resolution); d != "" {
				t.Errorf("Preflighted.Resolve's resolution (-run +preflight):\n%s", d)
			}
			if d := cmp.Diff(out.Info.UnreachedUpgrades, got.UnreachedUpgrades); d != "" {
				t.Errorf("Preflighted.Resolve's unreached upgrades (-run +preflight):\n%s", d)
			}
			if tc.servers == "" {
				return
			}
			cfg = testConfig(t, head+tc.servers, Overrides{})
			cfg.Bootstrap = -1
			_, err = Run(context.Background(), cfg)
			var ue *UnresolvedError
			switch {
			case tc.unknown == 0 && err != nil:
				t.Errorf("without --allow-unresolved: %v, want no error", err)
			case tc.unknown > 0 && !errors.As(err, &ue):
				t.Errorf("without --allow-unresolved: %v, want an *UnresolvedError", err)
			case tc.unknown > 0 && !strings.Contains(err.Error(), "removed or renamed by the upgrade"):
				t.Errorf("the stop does not name the upgrade: %v", err)
			}
		})
	}
}
