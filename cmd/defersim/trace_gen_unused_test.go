package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceGenOverRefusesCatalogKeys pins that trace gen --catalogs exits 2,
// naming the --params file and the keys, when the file sets parameters that
// only shape a generated catalog (drift:, servers:, tools_per_server:):
// they were silently ignored and written back into params.yaml as if used.
func TestTraceGenOverRefusesCatalogKeys(t *testing.T) {
	cat := writeOverCatalog(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name, yaml string
		wantCode   int
		want       string
	}{
		{"drift block", "drift: {servers: 5, mid_session: 0.5}\n", 2, "p.yaml:1: invalid generator parameters: drift.servers and drift.mid_session shape a generated catalog and are not used over a catalog (--catalogs)"},
		{"servers count", "servers: 3\n", 2, "servers shapes a generated catalog"},
		{"catalog size", "tools_per_server: {median: 3, sigma: 1, min: 1, max: 5}\n", 2, "tools_per_server shapes"},
		{"session keys", "zipf: 2\nover: {mid_session: 0.3}\n", 0, "sessions over 1 server"},
		{"bad session key", "error_rate: 2\n", 2, "error_rate: must be in [0, 1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pf := filepath.Join(dir, "p.yaml")
			if err := os.WriteFile(pf, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			got, code := runTraceCmdErr(t, "gen", "-o", out, "--catalogs", cat, "--params", pf, "--sessions", "4")
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; output:\n%s", code, tc.wantCode, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, got)
			}
		})
	}
}

// TestTraceGenRefusesIdleParameters pins that trace gen exits 2 on a
// parameter that changes nothing under the others (drift keys with
// drift.servers 0, schema_bytes_per_token without recorded), which it
// ignored silently, and that --drift off still works over a file that sets
// drift keys (it resets them).
func TestTraceGenRefusesIdleParameters(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, yaml string
		flags      []string
		wantCode   int
		want       string
	}{
		{"mid_session without drift", "drift: {servers: 0, mid_session: 0.5}\n", nil, 2, "drift.mid_session: not used when drift.servers is 0"},
		{"schema tokens without recorded", "schema_bytes_per_token: 3\n", nil, 2, "schema_bytes_per_token: not used when recorded is false"},
		{"--recorded uses it", "schema_bytes_per_token: 3\n", []string{"--recorded"}, 0, "wrote"},
		{"--drift off over drift keys", "drift: {versions: 5, mid_session: 0.3}\n", []string{"--drift", "off"}, 0, "wrote"},
		{"--drift servers=0 keeps them", "drift: {versions: 5}\n", []string{"--drift", "servers=0"}, 2, "drift.versions: not used"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pf := filepath.Join(dir, "p.yaml")
			if err := os.WriteFile(pf, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"gen", "-o", filepath.Join(t.TempDir(), "g"), "--params", pf, "--sessions", "3"}, tc.flags...)
			got, code := runTraceCmdErr(t, args...)
			if code != tc.wantCode || !strings.Contains(got, tc.want) {
				t.Errorf("exit %d (want %d), output lacks %q?\n%s", code, tc.wantCode, tc.want, got)
			}
		})
	}
}

// TestTraceGenRefusesIdleOverMidSession pins that over.mid_session set on
// the latest schedule, where no session has an upgrade to resume across, is
// refused (exit 2) instead of ignored.
func TestTraceGenRefusesIdleOverMidSession(t *testing.T) {
	cat := writeOverCatalog(t)
	pf := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(pf, []byte("over: {schedule: latest, mid_session: 0.5}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, code := runTraceCmdErr(t, "gen", "-o", filepath.Join(t.TempDir(), "g"), "--catalogs", cat, "--params", pf, "--sessions", "3")
	if code != 2 || !strings.Contains(got, "over.mid_session: not used when over.schedule is latest") {
		t.Errorf("exit %d, want 2 naming over.mid_session:\n%s", code, got)
	}
}
