package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestJobCmdErrors pins the exit status and message of the plan, sweep,
// recommend and calibrate commands on bad input, and a plain projection.
func TestJobCmdErrors(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results.json")
	if err := report.WriteResults(res, checkResults("f", 0.2)); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(trace, []byte(`{"v":1,"type":"session_start","session":"s","t":"2026-01-01T00:00:00Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"plan projects", []string{"plan", res, "--sessions-per-day", "1000", "-o", filepath.Join(dir, "plan")}, 0, "USD/day"},
		{"plan needs a volume", []string{"plan", res}, 2, "sessions-per-day"},
		{"plan bad volume", []string{"plan", res, "--sessions-per-day", "-5"}, 2, "positive"},
		// --days-per-month 0 was read as the default and printed "30 days/month".
		{"plan zero days a month", []string{"plan", res, "--sessions-per-day", "10", "--days-per-month", "0"}, 2, "--days-per-month 0: want a positive number"},
		// --days-per-month 365 was printed as "365 days/month".
		{"plan a year's days a month", []string{"plan", res, "--sessions-per-day", "10", "--days-per-month", "365"}, 2, "--days-per-month 365: a month has at most 31 days"},
		// A volume whose projection overflows failed writing plan.json:
		// "json: unsupported value: +Inf".
		{"plan overflowing volume", []string{"plan", res, "--sessions-per-day", "1e308", "-o", filepath.Join(dir, "plan-huge")}, 2, "cost per month overflows"},
		{"plan bad file", []string{"plan", trace, "--sessions-per-day", "10"}, 2, "results"},
		{"sweep bad param", []string{"sweep", "--param", "strategy.trigger.mode=1:2:1"}, 2, "is not a number"},
		{"sweep no param", []string{"sweep"}, 2, "no --param"},
		{"recommend no catalog", []string{"recommend", trace}, 2, "no catalog"},
		{"recommend bad share", []string{"recommend", trace, "--catalogs", dir, "--test-share", "1"}, 2, "test share"},
		{"calibrate no catalog", []string{"calibrate", trace}, 2, "no catalog"},
		{"calibrate bad share", []string{"calibrate", trace, "--catalogs", dir, "--fit-on", "0"}, 2, "--fit-on"},
		{"calibrate all needs a test set", []string{"calibrate", trace, "--catalogs", dir, "--fit-on", "all"}, 2, "pass --test"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, code := runJobCmd(t, tc.args...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; output:\n%s", code, tc.wantCode, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, got)
			}
		})
	}
}
