package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateWarnsOfSessionsWithoutUser pins validate's warning on
// sessions without a user message and on an empty file: both read
// "valid", while a run measured the former's first reply from no user
// message and replayed nothing of the latter.
func TestValidateWarnsOfSessionsWithoutUser(t *testing.T) {
	dir := t.TempDir()
	noUser := `{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T00:00:00Z","model":"m"}
{"type":"model_request","session":"s1","t":"2026-01-01T00:00:01Z","id":"r1"}
{"type":"assistant","session":"s1","t":"2026-01-01T00:00:01Z","text":"hi","request":"r1"}
{"type":"session_end","session":"s1","t":"2026-01-01T00:00:02Z"}
`
	for _, tc := range []struct {
		name, file, data string
		wantCode         int
		want             []string
	}{
		{"no user message", "nouser.jsonl", noUser, 0, []string{
			`nouser.jsonl: warning: 1 of 1 session has no user message (first at line 1: session "s1" has no user message)`,
			"leave those sessions out", "valid: 1 file"}},
		{"empty", "empty.jsonl", "", 1, []string{"empty.jsonl: the file is empty: no session to validate", "INVALID: 1 file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			out, code := runCLI(t, "trace", "validate", "--no-catalogs", path)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d:\n%s", code, tc.wantCode, out)
			}
			out = strings.ReplaceAll(out, dir+string(filepath.Separator), "")
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
