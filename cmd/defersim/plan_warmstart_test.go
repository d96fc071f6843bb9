package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestPlanWarnsOfAWarmStartBothWays pins, end to end, that plan judges the
// results' params.cache_warm_start against the warm start the projected
// sessions per day imply, in both directions, on a results.json of a real
// replay: the embedded sessions replayed under eager with cache_warm_start
// 1, projected to 20 sessions a day (a start every 4,320 s against
// claude-sonnet-4.5's 300 s TTL), used to be multiplied without a word;
// now plan warns that the assumption is warmer than 1 − exp(−(300 s +
// eager's mean session)/4,320 s), on stderr and in plan.json, with the
// value to replay at. At 10,000 a day the assumption holds, a tolerance of
// 0.95 lets it pass, and a tolerance typed as a percentage is refused.
func TestPlanWarnsOfAWarmStartBothWays(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "warm.yaml")
	if err := os.WriteFile(scen, []byte("name: warm\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"+
		"model: claude-sonnet-4.5\nstrategies: [eager]\nparams: {cache_warm_start: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "out", "results.json")
	if stdout, stderr, code := cliRun(t, "run", scen, "-o", filepath.Join(dir, "out"), "-q", "--no-report"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	var r report.Results
	readJSON(t, res, &r)
	sessionS := r.Strategies[0].Metrics["session_ms"].Mean / 1000
	type cacheDoc struct {
		Projection struct {
			Warnings []string `json:"warnings"`
			Cache    struct {
				WarmStart *float64 `json:"cache_warm_start"`
				Implied   *float64 `json:"implied_warm_start"`
				TTLOnly   float64  `json:"implied_warm_start_ttl_only"`
				Lifetime  float64  `json:"cache_lifetime_s"`
				Tolerance float64  `json:"warm_start_tolerance"`
				Mismatch  string   `json:"mismatch"`
			} `json:"cache"`
		} `json:"projection"`
	}
	for _, tc := range []struct {
		name     string
		args     []string
		perDay   float64
		tol      float64
		mismatch string
		inStderr []string
	}{
		{"warmer at 20 a day", []string{"--sessions-per-day", "20"}, 20, 0.1, "warmer",
			[]string{"defersim: warning: params.cache_warm_start is 1", "every 4320 s on average against claude-sonnet-4.5's 300 s cache TTL", "the assumption is warmer by",
				"understated", "--param params.cache_warm_start=0:1:0.25"}},
		{"holds at 10K a day", []string{"--sessions-per-day", "10000"}, 10000, 0.1, "", nil},
		{"within a wide tolerance", []string{"--sessions-per-day", "20", "--warm-start-tolerance", "0.95"}, 20, 0.95, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "plan-"+strings.ReplaceAll(tc.name, " ", "-"))
			args := append([]string{"plan", res, "--format", "json", "-o", out}, tc.args...)
			_, stderr, code := cliRun(t, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			var doc cacheDoc
			readJSON(t, filepath.Join(out, "plan.json"), &doc)
			c := doc.Projection.Cache
			lifetime := 300 + sessionS
			want := 1 - math.Exp(-lifetime*tc.perDay/86400)
			if c.WarmStart == nil || *c.WarmStart != 1 || c.Implied == nil || math.Abs(*c.Implied-want) > 1e-9 || math.Abs(c.Lifetime-lifetime) > 1e-9 {
				t.Fatalf("cache %+v, want warm start 1, implied %v, lifetime %v s", c, want, lifetime)
			}
			if wantTTL := 1 - math.Exp(-300*tc.perDay/86400); math.Abs(c.TTLOnly-wantTTL) > 1e-9 {
				t.Errorf("TTL-only implied %v, want %v", c.TTLOnly, wantTTL)
			}
			if c.Mismatch != tc.mismatch || c.Tolerance != tc.tol {
				t.Errorf("mismatch %q, tolerance %v; want %q, %v", c.Mismatch, c.Tolerance, tc.mismatch, tc.tol)
			}
			if tc.mismatch == "" {
				if strings.Contains(stderr, "cache_warm_start") || len(doc.Projection.Warnings) != 0 {
					t.Errorf("a warning where the assumption holds:\n%s%q", stderr, doc.Projection.Warnings)
				}
				return
			}
			for _, s := range append(tc.inStderr, "set cache_warm_start: "+strconv.FormatFloat(math.Round(want*100)/100, 'f', -1, 64)+" under params:") {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if len(doc.Projection.Warnings) != 1 || !strings.Contains(stderr, doc.Projection.Warnings[0]) {
				t.Errorf("plan.json warnings %q, not the one on stderr", doc.Projection.Warnings)
			}
		})
	}
	_, stderr, code := cliRun(t, "plan", res, "--sessions-per-day", "20", "--warm-start-tolerance", "10", "-o", filepath.Join(dir, "bad"))
	if code != 2 || !strings.Contains(stderr, "--warm-start-tolerance 10: ") || !strings.Contains(stderr, "for 10% type 0.1") {
		t.Errorf("--warm-start-tolerance 10: exit %d, stderr:\n%s", code, stderr)
	}
}
