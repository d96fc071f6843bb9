package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTraceGenCmd(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	params := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(params, []byte("sessions: 7\nservers: 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("sesions: 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"params file and flags", []string{"gen", "-o", out, "--params", params, "--sessions", "5", "--drift", "servers=2,versions=2", "--format", "json"}, 0, `"sessions": 5`},
		{"same again", []string{"gen", "-o", out, "--params", params, "--sessions", "5", "--drift", "servers=2,versions=2"}, 0, "5 sessions"},
		{"stale files refused", []string{"gen", "-o", out, "--sessions", "5", "--seed", "9"}, 1, ""},
		{"stale files removed", []string{"gen", "-o", out, "--sessions", "5", "--seed", "9", "--force"}, 0, "5 sessions"},
		{"unknown key", []string{"gen", "-o", out, "--params", bad}, 2, ""},
		{"bad drift", []string{"gen", "-o", out, "--drift", "fast"}, 2, ""},
		{"bad value", []string{"gen", "-o", out, "--zipf", "-1"}, 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, code := runTraceCmdErr(t, tc.args...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; output:\n%s", code, tc.wantCode, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, got)
			}
		})
	}
	var sum struct{ Sessions int }
	got, _, _ := cliIn(t, nil, "trace", "gen", "-o", filepath.Join(dir, "j"), "--sessions", "3", "--format", "json")
	if err := json.Unmarshal([]byte(got), &sum); err != nil || sum.Sessions != 3 {
		t.Errorf("--json output %q: %v", got, err)
	}
}

// runTraceCmdErr is runTraceCmd but maps plain errors to exit status 1.
func runTraceCmdErr(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRootCmd()
	var out strings.Builder
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"trace"}, args...))
	if err := root.Execute(); err != nil {
		var ex exitError
		if asExit(err, &ex) {
			return out.String() + ex.msg, ex.code
		}
		return out.String() + err.Error(), 1
	}
	return out.String(), 0
}
