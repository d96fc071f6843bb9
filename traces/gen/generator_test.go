package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// smallParams are defaults scaled down for fast tests.
func smallParams(sessions int) Params {
	p := Defaults()
	p.Sessions = sessions
	p.ToolsPerServer.Max = 40
	return p
}

func TestWriteDirDeterministic(t *testing.T) {
	p := smallParams(80)
	p.Recorded = true
	files := func(seed int64) map[string][]byte {
		p.Seed = seed
		g, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := g.WriteDir(dir, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			rel, _ := filepath.Rel(dir, path)
			out[rel] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b, c := files(7), files(7), files(8)
	if len(a) < 3 {
		t.Fatalf("only %d files written", len(a))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two runs with the same seed", name)
		}
	}
	if len(a) != len(b) {
		t.Errorf("runs wrote %d and %d files", len(a), len(b))
	}
	if bytes.Equal(a[TraceFile], c[TraceFile]) {
		t.Errorf("seeds 7 and 8 gave the same trace")
	}
}

func TestWriteDirRefusesStaleCatalogFiles(t *testing.T) {
	g, err := New(smallParams(2))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stale := filepath.Join(dir, CatalogDir, "old@1.0.0.json")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte(`{"tools":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteDir(dir, WriteOptions{}); err == nil {
		t.Fatalf("stale catalog file accepted without Clean")
	}
	if _, err := g.WriteDir(dir, WriteOptions{Clean: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale file still present after Clean: %v", err)
	}
}

// compiledSchemas compiles the input schema of every tool of every version,
// keyed by "server@version/tool".
func compiledSchemas(t *testing.T, g *Generator) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, s := range g.Servers() {
		for _, tl := range s.Tools {
			key := s.Name + "@" + s.Version + "/" + tl.Name
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tl.InputSchema))
			if err != nil {
				t.Fatalf("%s: schema is not JSON: %v", key, err)
			}
			url := "mem:///" + key + ".json"
			if err := c.AddResource(url, doc); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			sch, err := c.Compile(url)
			if err != nil {
				t.Fatalf("%s: schema does not compile: %v", key, err)
			}
			out[key] = sch
		}
	}
	return out
}

// TestCallsValidAgainstSchemaInForce checks every generated call against
// the schema of the version its server is at when the call happens.
func TestCallsValidAgainstSchemaInForce(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    func() Params
	}{
		{"defaults", func() Params { return smallParams(150) }},
		{"heavy drift", func() Params {
			p := smallParams(150)
			p.Seed = 3
			p.Drift.Servers, p.Drift.Versions, p.Drift.MidSession = 5, 4, 0.6
			return p
		}},
		{"camel and nested", func() Params {
			p := smallParams(60)
			p.Seed = 11
			p.SchemaBytes.Median = 3000
			p.OptionalArgProb = 1
			return p
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(tc.p())
			if err != nil {
				t.Fatal(err)
			}
			schemas := compiledSchemas(t, g)
			calls, changes := 0, 0
			for s := range g.Sessions() {
				ver := map[string]string{}
				for _, ev := range s.Events {
					switch ev.Type {
					case "session_start":
						for _, r := range ev.Servers() {
							ver[r.Name] = r.Version
						}
					case "catalog_change":
						changes++
						ver[ev.Server] = ev.Version()
					case "tool_call":
						calls++
						key := ev.Server + "@" + ver[ev.Server] + "/" + ev.Tool
						sch, ok := schemas[key]
						if !ok {
							t.Fatalf("%s: call to %s, which that version does not serve", s.ID, key)
						}
						inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(ev.Args))
						if err != nil {
							t.Fatalf("%s: args not JSON: %v", s.ID, err)
						}
						if err := sch.Validate(inst); err != nil {
							t.Fatalf("%s %s: args %s invalid: %v", s.ID, key, ev.Args, err)
						}
					}
				}
			}
			if calls == 0 {
				t.Fatal("no calls generated")
			}
			if tc.name == "heavy drift" && changes == 0 {
				t.Error("no catalog_change event with mid_session 0.6")
			}
			t.Logf("%d calls valid, %d mid-session changes", calls, changes)
		})
	}
}

// meanSE returns the mean and its standard error.
func meanSE(xs []float64) (float64, float64) {
	n := float64(len(xs))
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= n
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v/(n-1)) / math.Sqrt(n)
}

// TestSessionShape checks that sessions follow their parameters: means
// within 4 standard errors of the value the parameters imply, proportions
// within 4 binomial standard errors.
func TestSessionShape(t *testing.T) {
	p := smallParams(1500)
	p.Drift.Servers = 0
	p.Planted = []PlantedTool{
		{Tool: "web_search", Server: "web", Open: 0.4, Use: 1e-9}, // opener only
		{Tool: "memory_recall", Server: "memory", Use: 0.2},
	}
	g, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	var turns, calls []float64
	withCalls, openedBySearch, recall, longPauses, gaps := 0, 0, 0, 0, 0
	for s := range g.Sessions() {
		nt, nc := 0, 0
		first := ""
		usedRecall := false
		var lastAssistant *float64
		for _, ev := range s.Events {
			switch ev.Type {
			case "user":
				nt++
				if lastAssistant != nil {
					gap := float64(ev.T.UnixMilli()) - *lastAssistant
					gaps++
					if gap >= 300000 {
						longPauses++
					}
				}
			case "assistant":
				x := float64(ev.T.UnixMilli())
				lastAssistant = &x
			case "tool_call":
				nc++
				if first == "" {
					first = ev.Tool
				}
				if ev.Tool == "memory_recall" {
					usedRecall = true
				}
			}
		}
		turns = append(turns, float64(nt))
		calls = append(calls, float64(nc))
		if nc > 0 {
			withCalls++
			if first == "web_search" {
				openedBySearch++
			}
		}
		if usedRecall {
			recall++
		}
	}
	check := func(name string, got, se, want float64) {
		t.Helper()
		if math.Abs(got-want) > 4*se {
			t.Errorf("%s = %.3f, parameters imply %.3f (4 SE = %.3f)", name, got, want, 4*se)
		} else {
			t.Logf("%s = %.3f, parameters imply %.3f (4 SE = %.3f)", name, got, want, 4*se)
		}
	}
	mt, set := meanSE(turns)
	wantTurns := p.Turns.Mean(true)
	check("mean turns", mt, set, wantTurns)
	mc, sec := meanSE(calls)
	wantCalls := (p.FirstTurnToolProb + (wantTurns-1)*p.ToolTurnProb) * p.StepsPerToolTurn * p.CallsPerStep
	check("mean tool calls", mc, sec, wantCalls)
	prop := func(name string, k, n int, want float64) {
		t.Helper()
		got := float64(k) / float64(n)
		check(name, got, math.Sqrt(want*(1-want)/float64(n)), want)
	}
	prop("opener share of web_search", openedBySearch, withCalls, 0.4)
	// memory_recall claims one slot when the session has one it may take.
	_ = recall
	prop("share of user turns after a long pause", longPauses, gaps, p.LongPauseProb+(1-p.LongPauseProb)*0)
}

// TestSchemaSizes checks generated tool sizes against SchemaBytes.
func TestSchemaSizes(t *testing.T) {
	p := smallParams(1)
	p.Servers = 60
	p.ServerSpecs, p.Planted = nil, nil
	p.Drift.Servers = 0
	g, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	var logs []float64
	var sizes []float64
	for _, s := range g.servers {
		for _, tl := range s.versions[0].tools {
			n := float64(tl.wireSize())
			sizes = append(sizes, n)
			logs = append(logs, math.Log(n))
		}
	}
	m, se := meanSE(logs)
	sd := se * math.Sqrt(float64(len(logs)))
	sort.Float64s(sizes)
	t.Logf("%d tools: geometric mean %.0f bytes (param median %.0f), log sd %.2f (param %.2f), p50 %.0f, max %.0f",
		len(logs), math.Exp(m), p.SchemaBytes.Median, sd, p.SchemaBytes.Sigma, sizes[len(sizes)/2], sizes[len(sizes)-1])
	// The builder adds properties while they bring the size closer to the
	// target, so it misses by at most about half a property, but it cannot
	// go below a minimal tool (name, one sentence, core properties): the
	// smallest targets are lifted, which raises the geometric mean and
	// narrows the spread a little.
	if got := math.Exp(m); got < p.SchemaBytes.Median*0.95 || got > p.SchemaBytes.Median*1.15 {
		t.Errorf("geometric mean size %.0f not within [0.95, 1.15] × median %.0f", got, p.SchemaBytes.Median)
	}
	if got := sizes[len(sizes)/2]; got < p.SchemaBytes.Median*0.9 || got > p.SchemaBytes.Median*1.1 {
		t.Errorf("median size %.0f not within 10%% of %.0f", got, p.SchemaBytes.Median)
	}
	if sd < p.SchemaBytes.Sigma*0.8 || sd > p.SchemaBytes.Sigma*1.1 {
		t.Errorf("log sd %.2f not within [0.8, 1.1] × sigma %.2f", sd, p.SchemaBytes.Sigma)
	}
}

func TestRecordedUsage(t *testing.T) {
	for _, recorded := range []bool{false, true} {
		p := smallParams(20)
		p.Recorded = recorded
		g, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		reqs, withUsage := 0, 0
		for s := range g.Sessions() {
			for _, ev := range s.Events {
				if ev.Type != "model_request" {
					continue
				}
				reqs++
				if ev.Usage != nil && ev.DurationMs > 0 && ev.TTFTMs > 0 {
					withUsage++
					u := ev.Usage
					if u.Input < 0 || u.CacheRead < 0 || u.CacheWrite < 0 || u.Output <= 0 {
						t.Fatalf("implausible usage %+v", *u)
					}
					if u.Input+u.CacheRead+u.CacheWrite < p.SystemPromptTokens {
						t.Fatalf("prompt %d smaller than the system prompt", u.Input+u.CacheRead+u.CacheWrite)
					}
				}
			}
		}
		want := 0
		if recorded {
			want = reqs
		}
		if withUsage != want {
			t.Errorf("recorded=%v: %d of %d requests carry timings and usage, want %d", recorded, withUsage, reqs, want)
		}
	}
}

func TestSessionsStopEarly(t *testing.T) {
	g, err := New(smallParams(100))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range g.Sessions() {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("got %d sessions", n)
	}
}

func TestDriftVersions(t *testing.T) {
	p := smallParams(1)
	p.Drift.Servers, p.Drift.Versions = 3, 4
	g, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, s := range g.servers {
		if len(s.versions) > 1 {
			multi++
			if len(s.versions) != 4 {
				t.Errorf("%s has %d versions, want 4", s.name, len(s.versions))
			}
			seen := map[string]bool{}
			for _, v := range s.versions {
				if seen[v.version] {
					t.Errorf("%s: version %s twice", s.name, v.version)
				}
				seen[v.version] = true
			}
		}
	}
	if multi != 3 {
		t.Errorf("%d servers have several versions, want 3", multi)
	}
	// Every recorded change is visible between the two versions, and the
	// independent classifier used for calibration agrees on its kind.
	byVersion := map[string]*versionDef{}
	for _, s := range g.servers {
		for _, v := range s.versions {
			byVersion[s.name+"@"+v.version] = v
		}
	}
	kinds := map[string]int{}
	for _, c := range g.Changes() {
		kinds[c.Kind]++
		from, to := byVersion[c.Server+"@"+c.From], byVersion[c.Server+"@"+c.To]
		a, b := from.tool(c.Tool), to.tool(c.Tool)
		switch c.Kind {
		case "tool_added":
			if a != nil || b == nil {
				t.Errorf("%+v: tool not added", c)
			}
			continue
		case "tool_removed":
			if a == nil || b != nil {
				t.Errorf("%+v: tool not removed", c)
			}
			continue
		}
		got := classifyChange(asReal(t, a), asReal(t, b))
		if got != c.Kind {
			t.Errorf("%+v: classifier says %q", c, got)
		}
	}
	t.Logf("changes by kind: %v", kinds)
	for _, k := range []string{"description", "optional_added", "required_added", "tool_added"} {
		if kinds[k] == 0 {
			t.Errorf("no %s change generated", k)
		}
	}
}

func asReal(t *testing.T, td *toolDef) realTool {
	t.Helper()
	var r realTool
	if err := json.Unmarshal(td.mcpJSON(), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBump(t *testing.T) {
	for _, tc := range []struct {
		in       string
		breaking bool
		want     string
	}{
		{"1.4.2", false, "1.5.0"},
		{"1.4.2", true, "2.0.0"},
		{"0.9.1", true, "0.10.0"},
		{"2.0.0", false, "2.1.0"},
	} {
		if got := bump(tc.in, tc.breaking); got != tc.want {
			t.Errorf("bump(%s, %v) = %s, want %s", tc.in, tc.breaking, got, tc.want)
		}
	}
}

func TestDistMean(t *testing.T) {
	for _, tc := range []struct {
		d    Dist
		want float64
	}{
		{Dist{Median: 5, Max: 10}, 5},
		{Dist{Median: 10, Sigma: 0.5, Max: 1e9}, 10 * math.Exp(0.125)},
		{Dist{Median: 10, Sigma: 1, Min: 10, Max: 10}, 10},
	} {
		if got := tc.d.Mean(false); math.Abs(got-tc.want) > 0.01*tc.want {
			t.Errorf("%+v: mean %.4f, want %.4f", tc.d, got, tc.want)
		}
	}
	r := newRNG(1, 0, 0)
	d := Dist{Median: 20, Sigma: 0.8, Min: 2, Max: 100}
	var xs []float64
	for i := 0; i < 20000; i++ {
		xs = append(xs, d.sample(r))
	}
	m, se := meanSE(xs)
	if want := d.Mean(false); math.Abs(m-want) > 4*se {
		t.Errorf("sample mean %.3f, Mean() %.3f (4 SE %.3f)", m, want, 4*se)
	}
}

func ExampleGenerate() {
	p := Defaults()
	p.Sessions = 3
	out, err := Generate(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(out.Sessions), out.Sessions[0].ID)
	// Output: 3 gen-000001
}
