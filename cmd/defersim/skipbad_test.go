package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkipBadLocatesSkippedLines pins that every command taking --skip-bad
// says which lines it skipped and why (file:line: reason, the first five,
// then how many more), as trace validate does: trace stats printed only
// counts by kind ("skipped 7 malformed lines (bad_json 7)") and run only
// counted them, also when it replayed nothing.
func TestSkipBadLocatesSkippedLines(t *testing.T) {
	dir := t.TempDir()
	cats := filesCatalog(t, dir)
	var bad strings.Builder
	for i := range 7 {
		fmt.Fprintf(&bad, "not json %d\n", i)
	}
	session := `{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T10:00:00Z","servers":[{"name":"files","version":"1"}]}
{"type":"user","session":"s1","t":"2026-01-01T10:00:05Z","text":"read the file"}
{"type":"model_request","session":"s1","t":"2026-01-01T10:00:06Z","id":"r1","ttft_ms":500,"duration_ms":900,"usage":{"input":100,"output":10}}
{"type":"session_end","session":"s1","t":"2026-01-01T10:00:08Z"}
`
	mixed := filepath.Join(dir, "mixed.jsonl")
	allBad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(mixed, []byte(session+bad.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(allBad, []byte(bad.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	first := func(file string, line int) string {
		return fmt.Sprintf("%s:%d: invalid JSON at column 2: invalid character 'o' in literal null (expecting 'u')", file, line)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		firstAt  int // line of the first skipped line
		lastSeen int // line of the fifth
	}{
		{"trace stats", []string{"trace", "stats", "--skip-bad", mixed}, 0, 5, 9},
		{"run", []string{"run", "--traces", mixed, "--catalogs", cats, "--strategies", "eager", "-o", filepath.Join(dir, "out"),
			"--skip-bad", "--no-report", "--bootstrap", "-1"}, 0, 5, 9},
		{"run replaying nothing", []string{"run", "--traces", allBad, "--catalogs", cats, "--strategies", "eager", "-o", filepath.Join(dir, "out2"),
			"--skip-bad", "--no-report", "--bootstrap", "-1"}, 2, 1, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			file := mixed
			if tc.firstAt == 1 {
				file = allBad
			}
			all := stdout + stderr
			for _, want := range []string{first(file, tc.firstAt), first(file, tc.lastSeen), "… (2 more)"} {
				if !strings.Contains(all, want) {
					t.Errorf("output does not say %q:\n%s", want, all)
				}
			}
			if strings.Contains(all, first(file, tc.lastSeen+1)) {
				t.Errorf("output names more than five skipped lines:\n%s", all)
			}
		})
	}
}

// filesCatalog writes dir/catalogs holding files@1, one tool read_file
// {path}, and returns its path.
func filesCatalog(t *testing.T, dir string) string {
	t.Helper()
	cats := filepath.Join(dir, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cats, "files@1.json"),
		[]byte(`{"tools":[{"name":"read_file","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return cats
}
