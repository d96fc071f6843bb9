package check

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

func TestCompareStatus(t *testing.T) {
	rule := Rule{Metric: "cost_usd", Stat: StatMean, Rel: 0.05}
	hit := Rule{Metric: "cache_hit_ratio", Stat: StatMean, Rel: 0.05}
	tests := []struct {
		name      string
		rule      Rule
		base, cur report.Distribution
		paired    bool
		want      Status
	}{
		{"identical", rule, dist(1, 0.99, 1.01), dist(1, 0.99, 1.01), false, OK},
		{"within tolerance", rule, dist(1, 0.99, 1.01), dist(1.04, 1.03, 1.05), false, OK},
		{"worse beyond tolerance and noise", rule, dist(1, 0.99, 1.01), dist(1.2, 1.19, 1.21), false, Regressed},
		{"worse beyond tolerance, inside noise", rule, dist(1, 0.8, 1.2), dist(1.1, 0.9, 1.3), false, Noise},
		{"same, paired", rule, dist(1, 0.8, 1.2), dist(1.1, 0.9, 1.3), true, Regressed},
		{"better", rule, dist(1, 0.99, 1.01), dist(0.8, 0.79, 0.81), false, Improved},
		{"higher is better: drop regresses", hit, dist(0.8, 0.79, 0.81), dist(0.6, 0.59, 0.61), false, Regressed},
		{"higher is better: rise improves", hit, dist(0.6, 0.59, 0.61), dist(0.8, 0.79, 0.81), false, Improved},
		{"absolute floor at zero baseline", Rule{Metric: "malformed_calls", Stat: StatMean, Abs: 0.01},
			dist(0, 0, 0), dist(0.005, 0.004, 0.006), false, OK},
		{"absolute floor exceeded", Rule{Metric: "malformed_calls", Stat: StatMean, Abs: 0.01},
			dist(0, 0, 0), dist(0.05, 0.04, 0.06), false, Regressed},
		{"p95 statistic", Rule{Metric: "cost_usd", Stat: StatP95, Rel: 0.05},
			dist(1, 0.99, 1.01), dist(1.2, 1.19, 1.21), false, Regressed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := results("f", map[string]map[string]report.Distribution{"a": {tc.rule.Metric: tc.base}})
			cur := results("f", map[string]map[string]report.Distribution{"a": {tc.rule.Metric: tc.cur}})
			noise := NoiseCI
			if tc.paired {
				noise = NoisePaired
			}
			rows := compare(base, cur, []Rule{tc.rule}, Options{Noise: noise})
			if len(rows) != 1 {
				t.Fatalf("%d rows", len(rows))
			}
			if rows[0].Status != tc.want {
				t.Errorf("status %s, want %s (%+v)", rows[0].Status, tc.want, rows[0])
			}
		})
	}
}

func TestCompareMissingMetric(t *testing.T) {
	base := results("f", map[string]map[string]report.Distribution{"a": {"cost_usd": dist(1, 1, 1)}})
	cur := results("f", map[string]map[string]report.Distribution{"a": {}})
	rows := compare(base, cur, []Rule{{Metric: "cost_usd", Stat: StatMean}}, Options{})
	if rows[0].Status != Missing {
		t.Errorf("status %s, want missing", rows[0].Status)
	}
}

// TestVerdictCountsMissingChecks pins that the verdict line says how many
// checks were not made because a file lacks the metric (a baseline of an
// earlier build): it said "no regression: 144 checks" with every one of
// them missing.
func TestVerdictCountsMissingChecks(t *testing.T) {
	tests := []struct {
		sum  Summary
		want string
	}{
		{Summary{Rows: 3}, "no regression: 3 checks (0 within noise, 0 improved)"},
		{Summary{Rows: 3, Missing: 3}, "no regression: 3 checks (0 within noise, 0 improved; 3 of them not made: the metric is absent from a file)"},
		{Summary{Rows: 3, Regressions: 1, Missing: 1}, "REGRESSION: 1 of 3 checks regressed (0 within noise, 0 improved; 1 of them not made: the metric is absent from a file)"},
	}
	for _, tc := range tests {
		if got := (&Report{Summary: tc.sum}).Verdict(); got != tc.want {
			t.Errorf("Verdict(%+v) = %q, want %q", tc.sum, got, tc.want)
		}
	}
}

func TestComparable(t *testing.T) {
	d := map[string]report.Distribution{"cost_usd": dist(1, 1, 1)}
	two := map[string]map[string]report.Distribution{"a": d, "b": d}
	withTrace := func(r *report.Results, sha string) *report.Results {
		r.Run.Inputs = append(r.Run.Inputs, sim.Input{Kind: "trace", Path: "t.jsonl", SHA256: sha})
		return r
	}
	policy := func(r *report.Results) *report.Results {
		r.Strategies[1].Parameters.Trigger = sim.Trigger{Mode: "count", Count: 30}
		return r
	}
	seed := func(r *report.Results) *report.Results { r.Run.Seed = 7; return r }
	seedAt := func(r *report.Results, n int64) *report.Results { r.Run.Seed = n; return r }
	assume := func(r *report.Results, as ...sim.Assumption) *report.Results {
		r.Run.Assumptions = append(r.Run.Assumptions, as...)
		return r
	}
	unreadSelect := sim.Assumption{Name: "select_prob", Value: "not read", Source: `params: no strategy of the run reads it: strategy "b": its trigger "never" …`}
	selectAt := func(v string) sim.Assumption { return sim.Assumption{Name: "select_prob", Value: v, Source: "params"} }
	queryModel := func(name, strategies string) sim.Assumption {
		return sim.Assumption{Name: "query_model." + name, Value: "… of " + strategies, Source: "engine (search mode's registered query model, or params.query_model)"}
	}
	tests := []struct {
		name      string
		base, cur *report.Results
		only      []string
		allow     Allow
		want      []string // substrings of the reasons; nil = comparable
	}{
		{"same", results("f", two), results("f", two), nil, Allow{}, nil},
		{"strategy set", results("f", two), results("f", map[string]map[string]report.Distribution{"a": d, "c": d}), nil, Allow{},
			[]string{"only in baseline: b", "only in current: c"}},
		{"selected strategy in both", results("f", two), results("f", map[string]map[string]report.Distribution{"a": d, "c": d}), []string{"a"}, Allow{}, nil},
		{"fingerprint: policy only", results("f", two), policy(results("g", two)), nil, Allow{},
			[]string{"scenario fingerprint", "strategy b: trigger.count (none) → 30, trigger.mode \"never\" → \"count\"", "--allow policy"}},
		{"fingerprint: policy allowed", results("f", two), policy(results("g", two)), nil, Allow{Policy: true}, nil},
		{"fingerprint: seed not allowed", results("f", two), seed(policy(results("g", two))), nil, Allow{Policy: true},
			[]string{"seed: 1 vs 7", "replay both runs with the same seed"}},
		// A run of a scenario file without seed: (1) against run --traces
		// (the embedded default's 42) could never compare, and the message
		// did not say why the seeds differ: it now names both defaults.
		{"fingerprint: the two default seeds", seedAt(results("f", two), 42), seedAt(results("g", two), scenarios.DefaultSeed), nil, Allow{},
			[]string{"seed: 42 vs 1 (a scenario file that writes no seed replays with 1; run --traces without a scenario takes the embedded default's, 42: write the same seed: in the scenario, or pass --seed to both runs)"}},
		// Assumptions that follow from the strategies (the query models of
		// their ranked searches, a param no strategy reads) change with a
		// policy change: --allow policy refused a search.mode change.
		{"fingerprint: query models follow the policy", assume(results("f", two), queryModel("short-term", "b")),
			assume(policy(results("g", two)), queryModel("content-words", "b")), nil, Allow{Policy: true}, nil},
		{"fingerprint: a param not read under the old policy", assume(results("f", two), unreadSelect),
			assume(policy(results("g", two)), selectAt("0.5")), nil, Allow{Policy: true}, nil},
		{"fingerprint: query models, policy not allowed", assume(results("f", two), queryModel("short-term", "b")),
			assume(policy(results("g", two)), queryModel("content-words", "b")), nil, Allow{},
			[]string{"strategy-dependent assumptions (they follow from the strategies", "query_model.content-words: (none) vs … of b", "--allow policy"}},
		{"fingerprint: a param change is not policy", assume(results("f", two), selectAt("0.5")),
			assume(policy(results("g", two)), selectAt("0.9")), nil, Allow{Policy: true}, []string{"select_prob: 0.5 vs 0.9"}},
		{"traces differ", withTrace(results("f", two), "aa"), withTrace(results("f", two), "bb"), nil, Allow{},
			[]string{"trace files differ: 1 file in baseline, 1 in current, 0 in common", "pass --allow traces"}},
		{"traces allowed", withTrace(results("f", two), "aa"), withTrace(results("f", two), "bb"), nil, Allow{Traces: true}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inc := checkComparable(tc.base, tc.cur, tc.only, tc.allow)
			if tc.want == nil {
				if inc != nil {
					t.Fatalf("incomparable: %v", inc)
				}
				return
			}
			if inc == nil {
				t.Fatal("comparable, want incomparable")
			}
			for _, w := range tc.want {
				if !strings.Contains(inc.Error(), w) {
					t.Errorf("message lacks %q:\n%s", w, inc.Error())
				}
			}
		})
	}
}

func TestReadPairSchemaVersion(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v1 := write("v1.json", `{"schema_version":1,"strategies":[{"name":"a"}]}`)
	v2 := write("v2.json", `{"schema_version":2,"strategies":[{"name":"a"}]}`)
	none := write("none.json", `{"strategies":[]}`)
	// A schema_version of the wrong type gave Go's "cannot unmarshal string
	// into Go struct field .schema_version of type int": it now says where
	// and what, in JSON's words.
	str := write("str.json", `{"schema_version":"1"}`)
	tests := []struct {
		name, a, b   string
		incomparable bool
		want         string
	}{
		{"versions differ", v1, v2, true, "schema_version 1 (baseline) vs 2 (current)"},
		{"not a results file", v1, none, false, "no schema_version"},
		{"missing file", v1, filepath.Join(dir, "absent.json"), false, "no such file"},
		{"schema_version a string", v1, str, false, "line 1, near column 22: schema_version holds a JSON string where a whole number belongs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadPair(tc.a, tc.b)
			var inc *Incomparable
			if err == nil || errors.As(err, &inc) != tc.incomparable || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v; want incomparable=%v containing %q", err, tc.incomparable, tc.want)
			}
		})
	}
}

func TestTolerancesPrecedence(t *testing.T) {
	tol := NewTolerances(nil)
	if err := tol.ApplyScenario(&scenarios.Check{Tolerance: 0.1, Metrics: map[string]float64{"cost_usd": 0.01},
		Absolute: map[string]float64{"first_reply_ms.p95": 250}}); err != nil {
		t.Fatal(err)
	}
	if err := tol.Set("first_reply_ms", 0.2, -1); err != nil {
		t.Fatal(err)
	}
	got := map[string][2]float64{}
	for _, r := range tol.Rules() {
		got[r.Key()] = [2]float64{r.Rel, r.Abs}
	}
	want := map[string][2]float64{
		"cost_usd":           {0.01, 0},
		"first_reply_ms":     {0.2, 50},
		"first_reply_ms.p95": {0.2, 250},
		"session_ms":         {0.1, 100},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: rel, abs = %v, want %v", k, got[k], w)
		}
	}
	for _, bad := range []string{"nope", "cost_usd.p42"} {
		if err := tol.Set(bad, 1, 1); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
	if err := tol.Select([]string{"cost_usd", "denied_calls.p95"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Rule{{Metric: "cost_usd", Stat: StatMean, Rel: 0.01}, {Metric: "denied_calls", Stat: StatP95}}, tol.Rules()); diff != "" {
		t.Errorf("Select (-want +got):\n%s", diff)
	}
}

func TestParseSetting(t *testing.T) {
	tests := []struct {
		in      string
		key     string
		val     float64
		wantErr bool
	}{
		{"cost_usd=0.05", "cost_usd", 0.05, false},
		{"first_reply_ms.p95=5%", "first_reply_ms.p95", 0.05, false},
		{"cost_usd", "", 0, true},
		{"cost_usd=-1", "", 0, true},
		{"=1", "", 0, true},
	}
	for _, tc := range tests {
		k, v, err := ParseSetting(tc.in)
		if (err != nil) != tc.wantErr || k != tc.key || math.Abs(v-tc.val) > 1e-12 {
			t.Errorf("ParseSetting(%q) = %q, %v, %v", tc.in, k, v, err)
		}
	}
}

func TestValue(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{0.012345, "USD", "$0.01235"},
		{850, "ms", "850.0 ms"},
		{12345, "ms", "12.35 s"},
		{1234567, "tokens", "1,234,567"},
		{0.456, "ratio", "45.6%"},
		{0.25, "calls", "0.2500"},
		{math.NaN(), "calls", "—"},
	}
	for _, tc := range tests {
		if got := value(tc.v, tc.unit); got != tc.want {
			t.Errorf("Value(%v, %s) = %q, want %q", tc.v, tc.unit, got, tc.want)
		}
	}
}

// TestRerunPasses pins exit status 0 on a re-run of the same scenario.
func TestRerunPasses(t *testing.T) {
	base, cur := mustRuns(t)
	rep, err := Run(Config{BaselinePath: base, CurrentPath: cur})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Regressions != 0 || rep.Summary.Improved != 0 || rep.Summary.Rows != 3*len(defaultRules()) {
		t.Errorf("summary %+v", rep.Summary)
	}
	if len(rep.Changes) != 0 || len(rep.CatalogChanges) != 0 || len(rep.Warnings) != 0 {
		t.Errorf("identical runs differ structurally:\n%q %v %v", rep.Changes, rep.CatalogChanges, rep.Warnings)
	}
}

// TestWorseFails pins a regression on a results file made worse on purpose:
// one strategy's cost and first reply raised by 25%, intervals with them.
func TestWorseFails(t *testing.T) {
	base, cur := mustRuns(t)
	res, err := report.ReadResults(cur)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Strategy("claude-code-default")
	for _, m := range []string{"cost_usd", "first_reply_ms"} {
		d := s.Metrics[m]
		d.Mean *= 1.25
		d.MeanCI = &report.Interval{Low: d.MeanCI.Low * 1.25, High: d.MeanCI.High * 1.25}
		s.Metrics[m] = d
	}
	worse := filepath.Join(t.TempDir(), "worse.json")
	if err := report.WriteResults(worse, res); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(Config{BaselinePath: base, CurrentPath: worse})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rep.Rows {
		if r.Status == Regressed {
			got = append(got, r.Strategy+" "+r.Rule.Key())
		}
	}
	want := []string{"claude-code-default cost_usd", "claude-code-default first_reply_ms"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("regressions (-want +got):\n%s", diff)
	}
}

// TestCatalogMadeWorse replays the default with one server's tool
// descriptions inflated: eager pays for the bigger schemas, the check says
// so and names the catalog change.
func TestCatalogMadeWorse(t *testing.T) {
	base, _ := mustRuns(t)
	dir := inflatedCatalog(t)
	res, err := runDefault([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	cur := filepath.Join(t.TempDir(), "cur.json")
	if err := report.WriteResults(cur, res); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(Config{BaselinePath: base, CurrentPath: cur})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rep.Rows {
		if r.Strategy == "eager" && r.Rule.Key() == "cost_usd" {
			found = r.Status == Regressed
		}
	}
	if !found {
		t.Errorf("eager cost_usd did not regress:\n%+v", notable(rep.Rows))
	}
	if len(rep.CatalogChanges) == 0 || !strings.Contains(strings.Join(rep.CatalogChanges, "\n"), "calendar") {
		t.Errorf("catalog changes %v lack the calendar server", rep.CatalogChanges)
	}
	var md strings.Builder
	if err := WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| eager | cost_usd |") || !strings.Contains(md.String(), "**regression**") {
		t.Errorf("markdown lacks the regression row:\n%s", md.String())
	}
}
