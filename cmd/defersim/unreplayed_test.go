package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// upgradeFixture copies real catalogs of ../shared/data into three
// directories of cat/ — old (chrome-devtools-mcp 0.17.0 beside github 2025.4.8),
// both (old plus chrome-devtools-mcp 1.11.0) and new (1.11.0 and github
// only) — and generates a small trace over old, whose sessions name
// chrome-devtools-mcp 0.17.0. It returns the directory holding them.
func upgradeFixture(t *testing.T) string {
	t.Helper()
	src := shareddata.Path(t, "catalogs")
	dir := t.TempDir()
	sets := map[string][]string{
		"old":  {"chrome-devtools-mcp@0.17.0", "modelcontextprotocol__server-github@2025.4.8"},
		"both": {"chrome-devtools-mcp@0.17.0", "chrome-devtools-mcp@1.11.0", "modelcontextprotocol__server-github@2025.4.8"},
		"new":  {"chrome-devtools-mcp@1.11.0", "modelcontextprotocol__server-github@2025.4.8"},
	}
	for set, names := range sets {
		if err := os.MkdirAll(filepath.Join(dir, "cat", set), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			for _, ext := range []string{".json", ".meta.json"} {
				data, err := os.ReadFile(filepath.Join(src, n+ext))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "cat", set, n+ext), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if out, code := runCLI(t, "trace", "gen", "--catalogs", filepath.Join(dir, "cat", "old"), "--seed", "5", "--sessions", "40",
		"--servers", "chrome-devtools-mcp,modelcontextprotocol__server-github", "-o", filepath.Join(dir, "gen")); code != 0 {
		t.Fatalf("trace gen: exit %d\n%s", code, out)
	}
	return dir
}

// unreplayedOf reads run.resolution.unreplayed_versions of a results file
// (nil when absent).
func unreplayedOf(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Run struct {
			Resolution map[string]json.RawMessage `json:"resolution"`
		} `json:"run"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	raw, ok := r.Run.Resolution["unreplayed_versions"]
	if !ok {
		return nil
	}
	var out []map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCatalogUpgradeNoSessionReplayedIsSaid pins the silent pass of a CI
// gate on a catalog upgrade: a catalog directory holding chrome-devtools-mcp
// 0.17.0 and 1.11.0, under traces naming 0.17.0 and no
// servers.NAME.upgrades, replayed only 0.17.0 while run printed "all …
// tool calls resolved" and check, against a baseline holding 0.17.0 only,
// exited 0 ("no regression"). run (and merge of its shards) now warns of
// the version no session replayed and records it
// (run.resolution.unreplayed_versions); check fails the gate (exit 1)
// unless --allow unreplayed, and says so in text, JSON and Markdown.
func TestCatalogUpgradeNoSessionReplayedIsSaid(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	dir := upgradeFixture(t)
	trace := filepath.Join(dir, "gen", "trace.jsonl.gz")
	scenario := filepath.Join(dir, "upgrade.yaml")
	if err := os.WriteFile(scenario, []byte("traces: ["+trace+"]\ncatalogs: ["+filepath.Join(dir, "cat", "both")+"]\nstrategies: [eager]\n"+
		"servers:\n  chrome-devtools-mcp:\n    upgrades:\n      - {to: \"1.11.0\", after_session: 20}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const warning = "catalog versions no session replayed"
	line := "chrome-devtools-mcp 1.11.0 (the sessions replayed 0.17.0; to replay it, add servers.chrome-devtools-mcp.upgrades to the scenario"
	runs := []struct {
		name string
		args []string
		want bool // the warning and the field
	}{
		{"old", []string{"run", "--traces", trace, "--catalogs", filepath.Join(dir, "cat", "old"), "--strategies", "eager"}, false},
		{"both", []string{"run", "--traces", trace, "--catalogs", filepath.Join(dir, "cat", "both"), "--strategies", "eager"}, true},
		{"upgraded", []string{"run", scenario}, false},
		{"shard0", []string{"run", "--traces", trace, "--catalogs", filepath.Join(dir, "cat", "both"), "--strategies", "eager", "--shard", "0/2"}, true},
		{"shard1", []string{"run", "--traces", trace, "--catalogs", filepath.Join(dir, "cat", "both"), "--strategies", "eager", "--shard", "1/2"}, true},
		{"merged", []string{"merge", filepath.Join(dir, "merged"), filepath.Join(dir, "shard0"), filepath.Join(dir, "shard1")}, true},
	}
	for _, r := range runs {
		args := r.args
		if r.name != "merged" {
			args = append(args, "-o", filepath.Join(dir, r.name))
		}
		out, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", r.name, code, out)
		}
		if got := strings.Contains(out, warning) && strings.Contains(out, line); got != r.want {
			t.Errorf("%s: warning said %v, want %v\n%s", r.name, got, r.want, out)
		}
		u := unreplayedOf(t, filepath.Join(dir, r.name, "results.json"))
		if !r.want {
			if u != nil {
				t.Errorf("%s: unreplayed_versions %v, want it absent", r.name, u)
			}
			continue
		}
		if len(u) != 1 || u[0]["server"] != "chrome-devtools-mcp" || !jsonList(u[0]["versions"], "1.11.0") || !jsonList(u[0]["replayed"], "0.17.0") {
			t.Errorf("%s: unreplayed_versions %v, want chrome-devtools-mcp 1.11.0 (replayed 0.17.0)", r.name, u)
		}
	}

	res := func(name string) string { return filepath.Join(dir, name, "results.json") }
	const change = "the catalog change chrome-devtools-mcp 0.17.0 → 0.17.0,1.11.0 was not replayed: no session used 1.11.0"
	checks := []struct {
		name      string
		base, cur string
		args      []string
		code      int
		want      []string
		notWant   string
	}{
		{"upgrade never replayed fails the gate", "old", "both", nil, 1,
			[]string{change, "so this comparison says nothing about it", "UNTESTED: 1 new server version", "--allow unreplayed accepts it"}, ""},
		{"accepted by --allow unreplayed", "old", "both", []string{"--allow", "unreplayed"}, 0,
			[]string{change, "no regression: "}, "UNTESTED"},
		{"json field", "old", "both", []string{"--format", "json"}, 1,
			[]string{`"unreplayed_catalog_changes": [`, `"change": "0.17.0 → 0.17.0,1.11.0"`, `"unreplayed_fails": true`, `"regression": false`}, ""},
		{"markdown line", "old", "both", []string{"--format", "markdown"}, 1,
			[]string{"❌ UNTESTED", "> **Warning:** the catalog change chrome-devtools-mcp"}, ""},
		{"the baseline held the version already", "both", "both", nil, 0, []string{"no regression: "}, "was not replayed"},
		{"the same catalogs", "old", "old", nil, 0, []string{"no regression: "}, "was not replayed"},
	}
	for _, tc := range checks {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runCLI(t, append([]string{"check", "--baseline", res(tc.base), res(tc.cur)}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q\n%s", w, out)
				}
			}
			if tc.notWant != "" && strings.Contains(out, tc.notWant) {
				t.Errorf("output says %q\n%s", tc.notWant, out)
			}
		})
	}
}

// jsonList says v is a JSON list holding exactly want.
func jsonList(v any, want ...string) bool {
	l, ok := v.([]any)
	if !ok || len(l) != len(want) {
		return false
	}
	for i, w := range want {
		if l[i] != w {
			return false
		}
	}
	return true
}

// TestVersionMissingStopNamesUpgradeRoute pins that the stop of a run
// whose traces name chrome-devtools-mcp 0.17.0 over a catalog directory
// holding only 1.11.0 names the scenario's servers.NAME.upgrades route
// besides the catalogs and limits: it listed what to do without it, so an
// upgrade test by swapping the catalog had no way forward.
func TestVersionMissingStopNamesUpgradeRoute(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	dir := upgradeFixture(t)
	for _, tc := range []struct {
		name, catalogs string
		code           int
		route          bool
	}{
		{"only the new version", "new", 2, true},
		{"the version named", "old", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runCLI(t, "run", "--traces", filepath.Join(dir, "gen", "trace.jsonl.gz"), "--catalogs", filepath.Join(dir, "cat", tc.catalogs),
				"--strategies", "eager", "-o", filepath.Join(dir, "out-"+tc.catalogs))
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, out)
			}
			const route = "keep the catalog of the version the traces name beside it and add servers.chrome-devtools-mcp.upgrades (to 1.11.0) to the scenario (docs/scenarios.md#servers)"
			if got := strings.Contains(out, route); got != tc.route {
				t.Errorf("route said %v, want %v\n%s", got, tc.route, out)
			}
		})
	}
}
