package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckComparesACatalogUpgradeOverTheSameSessions pins the dead end of
// an upgrade gate: the baseline a scenario over catalogs without
// chrome-devtools-mcp 1.11.0, the current run the same scenario with
// servers.chrome-devtools-mcp.upgrades over catalogs that hold it (what
// check's unreplayed-upgrade warning advises). check refused (exit 2,
// "the difference is in permissions or servers, which results files do
// not record") with a remedy that cannot work (the baseline's catalogs lack
// the version). results.json now records the servers block
// (run.servers) and the fingerprint without it, and check --allow servers
// compares the two paired; without it the refusal names the upgrade and
// the flag. A permissions change stays incomparable, a policy change
// beside a servers change needs both allowances, and shards merged record
// the servers block as the whole run does.
func TestCheckComparesACatalogUpgradeOverTheSameSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	dir := upgradeFixture(t)
	trace := filepath.Join(dir, "gen", "trace.jsonl.gz")
	head := func(cat string) string {
		return "seed: 42\ntraces: [" + trace + "]\ncatalogs: [" + filepath.Join(dir, "cat", cat) + "]\nstrategies: [eager, claude-code-default]\n"
	}
	const upgrade = "servers:\n  chrome-devtools-mcp:\n    upgrades:\n      - {to: \"1.11.0\", after_session: 0}\n"
	scen := map[string]string{
		"base":     head("old"),
		"up":       head("both") + upgrade,
		"perm":     head("old") + "permissions:\n  deny: [\"take_screenshot\"]\n",
		"permup":   head("both") + upgrade + "permissions:\n  deny: [\"take_screenshot\"]\n",
		"policyup": strings.Replace(head("both"), "[eager, claude-code-default]", "[eager, claude-code-default, {name: ours, base: codex-cli}]", 1) + upgrade,
		"policy":   strings.Replace(head("old"), "[eager, claude-code-default]", "[eager, claude-code-default, {name: ours, base: codex-cli}]", 1),
	}
	for name, text := range scen {
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs := [][]string{
		{"run", filepath.Join(dir, "base.yaml"), "-o", filepath.Join(dir, "base")},
		{"run", filepath.Join(dir, "up.yaml"), "-o", filepath.Join(dir, "up")},
		{"run", filepath.Join(dir, "perm.yaml"), "-o", filepath.Join(dir, "perm")},
		{"run", filepath.Join(dir, "permup.yaml"), "-o", filepath.Join(dir, "permup")},
		{"run", filepath.Join(dir, "policy.yaml"), "-o", filepath.Join(dir, "policy")},
		{"run", filepath.Join(dir, "policyup.yaml"), "-o", filepath.Join(dir, "policyup")},
		{"run", filepath.Join(dir, "up.yaml"), "--shard", "0/2", "-o", filepath.Join(dir, "s0")},
		{"run", filepath.Join(dir, "up.yaml"), "--shard", "1/2", "-o", filepath.Join(dir, "s1")},
		{"merge", filepath.Join(dir, "merged"), filepath.Join(dir, "s0"), filepath.Join(dir, "s1")},
	}
	for _, args := range runs {
		if out, code := runCLI(t, append(args, "--quiet")...); code != 0 {
			t.Fatalf("%s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
	}
	res := func(name string) string { return filepath.Join(dir, name, "results.json") }

	// The merged shards record the servers block and both fingerprints as
	// the whole run does.
	if w, m := serversRecord(t, res("up")), serversRecord(t, res("merged")); w != m {
		t.Errorf("merged shards record %s, the whole run %s", m, w)
	}
	if got := serversRecord(t, res("up")); !strings.Contains(got, `"servers":[{"server":"chrome-devtools-mcp","upgrades":[{"to":"1.11.0","after_session":0}]}]`) {
		t.Errorf("run.servers of the upgraded run: %s", got)
	}
	if got := serversRecord(t, res("base")); strings.Contains(got, `"servers"`) || strings.Contains(got, "except_servers") {
		t.Errorf("a scenario without a servers block records %s", got)
	}

	const note = "servers change allowed: chrome-devtools-mcp upgrades 0.17.0 → 1.11.0 after session 0 (not in the baseline's scenario)"
	for _, tc := range []struct {
		name      string
		base, cur string
		args      []string
		code      int
		want      []string
		notWant   string
	}{
		{"refused without --allow servers, which it names", "base", "up", nil, 2,
			[]string{"differ in their scenarios' servers blocks", "chrome-devtools-mcp upgrades 0.17.0 → 1.11.0 after session 0", "pass --allow servers"}, "permissions"},
		{"compared paired with --allow servers", "base", "up", []string{"--allow", "servers"}, 1,
			[]string{note, "note: paired:", "eager                schema_tokens"}, "was not replayed"},
		{"--allow policy does not accept it", "base", "up", []string{"--allow", "policy"}, 2,
			[]string{"pass --allow servers"}, ""},
		{"json carries the allowance", "base", "up", []string{"--allow", "servers", "--format", "json"}, 1,
			[]string{`"` + note + `"`, `"failed": true`}, ""},
		{"markdown carries the allowance", "base", "up", []string{"--allow", "servers", "--format", "markdown"}, 1,
			[]string{"> " + note}, ""},
		{"a permissions change stays incomparable", "base", "perm", []string{"--allow", "servers"}, 2,
			[]string{"permissions: every call allowed vs deny take_screenshot", "replay both runs with the same permissions"}, "servers change allowed"},
		{"permissions beside an upgrade stay incomparable", "base", "permup", []string{"--allow", "servers", "--allow", "policy"}, 2,
			[]string{"permissions: every call allowed vs deny take_screenshot", "chrome-devtools-mcp upgrades 0.17.0 → 1.11.0", "replay both runs with the same permissions:"}, "same catalogs"},
		{"policy beside servers needs --allow servers", "base", "policyup", []string{"--allow", "policy"}, 2,
			[]string{"the servers blocks differ beside a policy change (--allow policy)", "pass --allow servers"}, "pass --allow policy"},
		{"servers beside policy needs --allow policy", "base", "policyup", []string{"--allow", "servers"}, 2,
			[]string{"query_model.user-text", "pass --allow policy"}, "pass --allow servers"},
		{"policy and servers allowed together", "base", "policyup", []string{"--allow", "policy", "--allow", "servers", "--strategies", "eager,claude-code-default"}, 1,
			[]string{note, "policy change allowed: strategy-dependent assumption query_model.user-text"}, "policy change allowed: catalogs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runCLIMsg(t, append([]string{"check", "--baseline", res(tc.base), res(tc.cur)}, tc.args...)...)
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

// serversRecord is run.servers and run.scenario_fingerprint_except_servers
// of a results file, as compact JSON.
func serversRecord(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Run map[string]json.RawMessage `json:"run"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	keep := map[string]json.RawMessage{}
	for _, k := range []string{"servers", "scenario_fingerprint_except_servers", "scenario_fingerprint"} {
		if v, ok := r.Run[k]; ok {
			keep[k] = v
		}
	}
	b, err := json.Marshal(keep)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
