package plan

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces/gen"
)

func TestProject(t *testing.T) {
	res := &report.Results{Sessions: 100, Run: sim.RunInfo{Scenario: "s"},
		Prices: &report.Prices{Input: 3, CacheWrite: 3.75, CacheRead: 0.3, Output: 15},
		Strategies: []report.StrategyResult{{Name: "a", Metrics: map[string]report.Distribution{
			"cost_usd":              {Count: 100, Mean: 0.5, MeanCI: &report.Interval{Low: 0.4, High: 0.6}},
			"input_tokens":          {Count: 100, Mean: 1000, MeanCI: &report.Interval{Low: 900, High: 1100}},
			"cache_write_tokens":    {Count: 100, Mean: 200, StdDev: 50, Min: 0},
			"cache_read_tokens":     {Count: 100, Mean: 800, StdDev: 0},
			"output_tokens":         {Count: 1, Mean: 10},
			"first_reply_ms":        {Count: 100, P50: 2000, P95: 9000, P95CI: &report.Interval{Low: 8000, High: 9500}},
			"uncached_input_tokens": {Count: 100}, "session_ms": {Count: 100}, "extra_round_trips": {Count: 100},
		}}}}
	p, err := Project(res, Options{SessionsPerDay: 1000})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Strategies[0]
	approx := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	approx("USD/day", s.USD.Value, 500)
	approx("USD/day low", s.USD.Low, 400)
	approx("USD/month high", s.MonthUSD.High, 600*30)
	approx("input/day high", s.InputTokens.High, 1.1e6)
	approx("write/day", s.Tokens[1].Value, 2e5)
	approx("write/day low (normal)", s.Tokens[1].Low, (200-1.959964*50/10)*1000)
	approx("read $/day", s.USDByKind[2].Value, 800*1000*0.3/1e6)
	approx("first reply p95 low", s.FirstReplyP95.Low, 8000)
	if got := []string{s.USD.Interval, s.Tokens[1].Interval, s.Tokens[3].Interval}; !cmp.Equal(got, []string{"bootstrap", "normal", "none"}) {
		t.Errorf("interval kinds %v", got)
	}
	for _, bad := range []float64{0, -1, math.Inf(1)} {
		if _, err := Project(res, Options{SessionsPerDay: bad}); err == nil {
			t.Errorf("sessions per day %v accepted", bad)
		}
	}
	// A results file without a metric the projection reads (a hand-made
	// one: a metric missing from the table and every strategy) was
	// projected as $0 or 0 tokens a day; it is refused, naming it.
	delete(res.Strategies[0].Metrics, "extra_round_trips")
	if _, err := Project(res, Options{SessionsPerDay: 1000}); err == nil || !strings.Contains(err.Error(), `strategy "a" has no metric extra_round_trips`) {
		t.Errorf("results without extra_round_trips: err %v", err)
	}
}

// offGridSweeps pins that a range whose end is not on its grid is refused
// (0:0.25:0.1 used to end at 0.2 and 0:0.1:0.5 to be one point, both
// without a word), while ends reached within rounding are accepted.
var offGridSweeps = []struct {
	in      string
	want    []float64
	wantErr string
}{
	{"params.cold_call_prob=0:0.25:0.1", nil, "to 0.25 is not reached from 0 in steps of 0.1 (the last value would be 0.2): choose to 0.2 or 0.3"},
	{"params.cold_call_prob=0:0.1:0.5", nil, "to 0.1 is not reached from 0 in steps of 0.5 (the last value would be 0): choose to 0 or 0.5"},
	{"strategy.trigger.budget=1000:4500:1000", nil, "choose to 4000 or 5000"},
	{"params.cold_call_prob=0.1:0.7:0.2", []float64{0.1, 0.3, 0.5, 0.7}, ""},
	{"params.cold_call_prob=0:0.3:0.05", []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3}, ""},
}

func TestParseSweep(t *testing.T) {
	tests := []struct {
		in      string
		want    []float64
		wantErr string
	}{
		{"strategy.trigger.budget=2000:8000:2000", []float64{2000, 4000, 6000, 8000}, ""},
		{"params.cold_call_prob=0:0.3:0.1", []float64{0, 0.1, 0.2, 0.3}, ""},
		// A range of one value used to replay it and print a one-row-per-
		// strategy table with nothing marked unchanged and nothing to
		// compare: refused, with what to type.
		{"model.latency.prefill_tps=4000:4000:1", nil, "from and to are both 4000: one value compares nothing; give a to above it (e.g. 4000:4002:1)"},
		{"model.latency.prefill_tps=4000:4001:1", []float64{4000, 4001}, ""},
		{"strategy.warm.max_tools=4:16:4", []float64{4, 8, 12, 16}, ""},
		{"strategy.trigger.budget", nil, "want PATH=FROM:TO:STEP"},
		{"strategy.trigger.budget=1:2", nil, "want PATH=FROM:TO:STEP"},
		{"strategy.trigger.budget=a:2:1", nil, "not a number"},
		{"strategy.trigger.budget=5:1:1", nil, "below from"},
		{"strategy.trigger.budget=0:10:0", nil, "must be positive"},
		{"strategy.trigger.mode=0:1:1", nil, "is not a number"},
		{"strategy.nope=0:1:1", nil, "unknown key"},
		{"other.x=0:1:1", nil, "want params.KEY"},
		{"params.nudge_prob=0:1:0.001", nil, "more than"},
		// Issue 18.7: 1e19…1e20 overflowed int64 and gave identical points.
		{"strategy.trigger.budget=1e19:1e20:1e19", nil, "1e+19 does not fit a 64-bit integer"},
		{"strategy.trigger.budget=-1e19:0:1e19", nil, "does not fit a 64-bit integer"},
		{"model.latency.prefill_tps=1e19:1e20:1e19", []float64{1e19, 2e19, 3e19, 4e19, 5e19, 6e19, 7e19, 8e19, 9e19, 1e20}, ""},
		{"model.latency.prefill_tps=1e17:1.000000000000001e17:1", nil, "below the resolution of a float64"},
	}
	tests = append(tests, offGridSweeps...)
	for _, tc := range tests {
		sp, err := ParseSweep(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, sp.Values()); diff != "" {
			t.Errorf("%s values (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestApply(t *testing.T) {
	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	c, notes, err := apply(sc, "strategy.warm.max_tools", 6)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range c.Strategies {
		orig := sc.Strategies[i]
		switch {
		case orig.Warm.Disabled:
			if s.Warm.MaxTools != orig.Warm.MaxTools {
				t.Errorf("%s: warm set disabled, max_tools set to %d", s.Name, s.Warm.MaxTools)
			}
		case s.Warm.MaxTools != 6:
			t.Errorf("%s: max_tools %d, want 6", s.Name, s.Warm.MaxTools)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "anchor-e0-count30") {
		t.Errorf("notes %v, want one about anchor-e0-count30", notes)
	}
	if sc.Strategies[1].Warm.MaxTools == 6 {
		t.Error("Apply changed the original scenario")
	}
	if c, _, err = apply(sc, "model.latency.prefill_tps", 5000); err != nil || c.Model.Latency.PrefillTPS != 5000 {
		t.Errorf("model.latency.prefill_tps: %v %v", err, c.Model.Latency.PrefillTPS)
	}
	if c.Fingerprint() == sc.Fingerprint() {
		t.Error("fingerprint unchanged")
	}
	for _, bad := range []struct {
		path string
		v    float64
	}{{"strategy.trigger.count", 2.5}, {"params.nudge_prob", 2}, {"model.latency.decode_tps", -1},
		// Issue 18.7: values sim accepts that overflow a replay.
		{"model.latency.decode_tps", 1e-300}, {"model.pricing.input_per_mtok", 1e308}, {"strategy.trigger.count", 1e19}} {
		if _, _, err := apply(sc, bad.path, bad.v); err == nil {
			t.Errorf("%s = %v accepted", bad.path, bad.v)
		}
	}
}

// TestApplyUnknownKeyListsSweepable pins the error for a sweep path with
// an unknown key: it said only `unknown key "think_ms"`, leaving the user
// to find the parameter's name (user_think_ms) in the docs; it now lists
// the keys a sweep can set there (numbers, and structs to go through),
// and ends with the one most likely meant, which it did not name.
func TestApplyUnknownKeyListsSweepable(t *testing.T) {
	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want, notWant string }{
		{"params.think_ms", "unknown key \"think_ms\" (a sweep sets one of: ", "tokenizer"},
		{"params.think_ms", "user_think_ms", ""},
		{"model.latency.x", "prefill_tps", ""},
		{"strategy.warmm.max_tools", "warm.…", "name"},
		// The close name (catalog.NearName) is offered after the list:
		{"strategy.warm.max_tols", `max_tokens); did you mean "max_tools"?`, ""},
		{"strategy.warmm.max_tools", `; did you mean "warm"?`, ""},
		{"params.User_Think_MS", `; did you mean "user_think_ms" (the same name in another case)?`, ""},
		{"params.zzz", "(a sweep sets one of: ", "did you mean"},
	} {
		_, _, err := apply(sc, tc.path, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.notWant != "" && strings.Contains(err.Error(), tc.notWant)) {
			t.Errorf("%s: err = %v, want it to hold %q and not %q", tc.path, err, tc.want, tc.notWant)
		}
	}
}

// small writes a generated data set (no drift) and a scenario over it.
func small(t *testing.T, sessions int) *scenarios.Scenario {
	t.Helper()
	p := gen.Defaults()
	p.Sessions, p.Servers, p.Drift.Servers = sessions, 6, 0
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	yaml := "name: small\nseed: 3\ntraces: [trace.jsonl.gz]\ncatalogs: [catalog]\nmodel: claude-sonnet-4.5\n" +
		"strategies: [eager, anchor-e1-budget8k, claude-code-default]\n"
	path := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestSweep(t *testing.T) {
	sc := small(t, 40)
	dir := t.TempDir()
	sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
		Spec: SweepSpec{Param: "model.latency.overhead_ms", From: 500, To: 1500, Step: 1000},
		Dir:  dir, Metrics: []string{"first_reply_ms"}, Bootstrap: 100})
	if err != nil {
		t.Fatal(err)
	}
	pts, plots := sw.Points, sw.Plots
	if len(pts) != 2 || len(plots) != 1 {
		t.Fatalf("%d points, %d plots", len(pts), len(plots))
	}
	for _, p := range append([]string{plots[0]}, pts[0].ResultsPath, pts[1].ResultsPath) {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	if want := filepath.Join(dir, "model.latency.overhead_ms=500", "results.json"); pts[0].ResultsPath != want {
		t.Errorf("results path %s, want %s", pts[0].ResultsPath, want)
	}
	lo := pts[0].Results.Strategy("eager").Metrics["first_reply_ms"].Mean
	hi := pts[1].Results.Strategy("eager").Metrics["first_reply_ms"].Mean
	if !(hi > lo+900) {
		t.Errorf("first reply %v → %v: a 1,000 ms longer overhead per request should show", lo, hi)
	}
}

// TestSweepSelectedPreset: a preset picked with --strategies gets the
// swept value (the selection happens before the value is applied).
func TestSweepSelectedPreset(t *testing.T) {
	sc := small(t, 20)
	sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
		Spec:      SweepSpec{Param: "strategy.trigger.count", From: 0, To: 1000, Step: 1000},
		Overrides: runner.Overrides{Strategies: []string{"eager", "anchor-e0-count30"}},
		Dir:       t.TempDir(), Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	pts := sw.Points
	for i, want := range []int{0, 1000} {
		if got := pts[i].Results.Strategy("anchor-e0-count30").Parameters.Trigger.Count; got != want {
			t.Errorf("point %d: trigger.count %d, want %d", i, got, want)
		}
	}
	on := pts[0].Results.Strategy("anchor-e0-count30").Metrics["extra_round_trips"].Mean
	off := pts[1].Results.Strategy("anchor-e0-count30").Metrics["extra_round_trips"].Mean
	if !(on > 0 && off == 0) {
		t.Errorf("extra round trips %v at count 0, %v at count 1000", on, off)
	}
}

func TestGrowthGenerated(t *testing.T) {
	sc := small(t, 30)
	rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap = 100
	pts, plots, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{2, 1}, Seed: 5,
		Dir: t.TempDir(), Metrics: []string{"cost_usd"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || len(plots) != 1 {
		t.Fatalf("%d points, %d plots", len(pts), len(plots))
	}
	if pts[0].Factor != 1 || len(pts[0].Added) != 0 {
		t.Errorf("first point %+v, want factor 1 with nothing added", pts[0])
	}
	if pts[1].Tools < 2*pts[0].Tools || len(pts[1].Added) == 0 || !strings.HasPrefix(pts[1].Added[0], "grown-") {
		t.Errorf("grown point: %d tools (base %d), added %v", pts[1].Tools, pts[0].Tools, pts[1].Added)
	}
	e0 := pts[0].Results.Strategy("eager").Metrics["schema_tokens"].Mean
	e1 := pts[1].Results.Strategy("eager").Metrics["schema_tokens"].Mean
	if !(e1 > 1.5*e0) {
		t.Errorf("eager schema tokens %v → %v: the added servers are not offered to the sessions", e0, e1)
	}
	bs := Breakdowns([]Point{pts[0].Point, pts[1].Point}, 0.25)
	if len(bs) != 3 || bs[0].Strategy != "eager" || bs[0].CostAt == "" {
		t.Errorf("breakdowns %+v: eager's cost should break when the catalog doubles", bs)
	}
}

func TestGrowthRealCatalogs(t *testing.T) {
	pool := shareddata.Path(t, "catalogs")
	sc := small(t, 20)
	rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap = -1
	pts, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 1.5}, Pool: pool, Seed: 1,
		Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts[1].Added) == 0 || strings.HasPrefix(pts[1].Added[0], "grown-") {
		t.Errorf("added %v, want real servers", pts[1].Added)
	}
}

// TestSweepDirNamesAreExact pins issue 18.7: point directories were named
// with '+' turned into '-', so 1e+19 went to "=1e-19". A name now keeps
// the value as formatted (and two values never share a directory).
func TestSweepDirNamesAreExact(t *testing.T) {
	for v, want := range map[float64]string{1e19: "model.latency.prefill_tps=1e+19", 1e-19: "model.latency.prefill_tps=1e-19",
		2500: "model.latency.prefill_tps=2500", 0.25: "model.latency.prefill_tps=0.25"} {
		label := "model.latency.prefill_tps=" + strconv.FormatFloat(v, 'g', -1, 64)
		if got := fileSafe(label); got != want {
			t.Errorf("fileSafe(%q) = %q, want %q", label, got, want)
		}
	}
}

// TestGrowthWritesNoTraceCopy pins issue 18.3: plan --growth wrote
// DIR/tools=N/trace.jsonl.gz, a full copy of the trace with every
// session's content. The grown sessions are now offered the added servers
// as they are read; the output holds results, catalogs and plots only.
func TestGrowthWritesNoTraceCopy(t *testing.T) {
	sc := small(t, 10)
	rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap = -1
	dir := t.TempDir()
	pts, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 2}, Seed: 5, Dir: dir,
		Metrics: []string{"cost_usd"}})
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		ok := filepath.Base(p) == "results.json" || filepath.Base(filepath.Dir(p)) == "catalog" && strings.HasSuffix(p, ".json") ||
			strings.HasSuffix(p, ".png") || strings.HasSuffix(p, ".svg")
		if !ok {
			t.Errorf("growth wrote %s, which is neither results, a catalog nor a plot", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if in := pts[1].Results.Run.Inputs[0]; in.Kind != "trace" || in.Path != rc.Traces[0].Path {
		t.Errorf("the grown run's trace input is %+v, want the original trace %s", in, rc.Traces[0].Path)
	}
}

// TestGrowthNotesUnorderedVersions pins that plan --growth said nothing when
// a catalog series' versions are content hashes (trace import names them
// so): it took the last version by spelling as the series' newest, for the
// base catalog's size and for a server added from --growth-from, as if it
// were the newest. Each point now says so, naming the versions taken.
func TestGrowthNotesUnorderedVersions(t *testing.T) {
	writeHashed := func(t *testing.T, dir, name string, versions map[string]int) {
		t.Helper()
		for v, n := range versions {
			var tools []string
			for i := range n {
				tools = append(tools, fmt.Sprintf(`{"name":"%s_t%d","description":"tool %d of %s","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`, name, i, i, name))
			}
			data := `{"tools":[` + strings.Join(tools, ",") + `]}`
			if err := os.WriteFile(filepath.Join(dir, name+"@"+v+".json"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	hashed := map[string]int{"0a1b2c3d4e5f": 40, "f0e1d2c3b4a5": 30}
	for _, tc := range []struct {
		name         string
		inBase       bool
		wantBase     bool
		wantPoolNote bool
	}{
		{"in the pool", false, false, true},
		{"in the base catalog", true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, err := runner.FromScenario(small(t, 5), runner.Overrides{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			rc.Bootstrap = -1
			dir := t.TempDir()
			writeHashed(t, dir, "hashsrv", hashed)
			// ×1.4 needs the pool's one server (30 tools on 68): a factor it
			// cannot reach is refused (TestGrowthSizesNeverRepeat).
			cfg := GrowthConfig{Base: rc, Factors: []float64{1, 1.4}, Seed: 1, Dir: t.TempDir()}
			if tc.inBase {
				cfg.Base.Catalogs = append(slices.Clone(cfg.Base.Catalogs), runner.Source{Path: dir})
			} else {
				cfg.Pool = dir
			}
			pts, _, err := Growth(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, pt := range pts {
				notes := strings.Join(pt.Notes, "\n")
				base := strings.Contains(notes, "the catalog's size counts hashsrv@f0e1d2c3b4a5 (30 tools, of 2 versions) at the last version by spelling")
				pool := strings.Contains(notes, "added hashsrv@f0e1d2c3b4a5 at the last version by spelling")
				added := slices.Contains(pt.Added, "hashsrv@f0e1d2c3b4a5")
				if base != tc.wantBase || pool != (tc.wantPoolNote && added) {
					t.Errorf("×%g (added %v): notes %q; want base note %v, pool note %v", pt.Factor, pt.Added, pt.Notes, tc.wantBase, tc.wantPoolNote && added)
				}
				if tc.wantPoolNote && pt.Factor == 1.4 && !added {
					t.Errorf("×1.4 did not add the pool's only server: %v", pt.Added)
				}
			}
		})
	}
}

// TestGrowthRefusesAnotherBase pins that plan --growth replayed whatever
// base it was given (by default the embedded scenario) next to a projection
// of results from other traces and catalogs, and said "same N sessions":
// a base whose trace contents or catalog server versions differ from the
// results' recorded inputs is now refused, naming what differs; the same
// contents at another path are accepted.
func TestGrowthRefusesAnotherBase(t *testing.T) {
	rc, err := runner.FromScenario(small(t, 5), runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap = -1
	pts, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 1.1}, Seed: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	recorded := pts[0].Results.Run.Inputs
	other, err := runner.FromScenario(small(t, 6), runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(t.TempDir(), "moved.jsonl.gz")
	data, err := os.ReadFile(rc.Traces[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(moved, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var lessCatalog []sim.Input
	dropped := false
	for _, in := range recorded {
		if in.Kind == "catalog" && !dropped {
			dropped = true
			continue
		}
		lessCatalog = append(lessCatalog, in)
	}
	for _, tc := range []struct {
		name     string
		traces   []runner.Source
		recorded []sim.Input
		want     []string // "" entries: accepted
	}{
		{"same run", rc.Traces, recorded, nil},
		{"same trace at another path", []runner.Source{{Path: moved}}, recorded, nil},
		{"other traces", other.Traces, recorded, []string{"its traces are not the ones the results replayed (results: ", "give the scenario that produced them"}},
		{"other catalogs", rc.Traces, lessCatalog, []string{"its catalogs are not the ones the results replayed (0 server versions only in the results, 1 only in the growth base, first "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := rc
			base.Traces = tc.traces
			_, _, err := Growth(context.Background(), GrowthConfig{Base: base, Factors: []float64{1, 1.1}, Seed: 1, Dir: t.TempDir(), Recorded: tc.recorded})
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q, want it to contain %q", err, w)
				}
			}
		})
	}
}
