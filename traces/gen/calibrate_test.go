package gen

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/tokens"
)

// Run `go test ./traces/gen -run TestCalibrate -calibrate -v` to print the
// figures measured on ../shared/data that the defaults are derived from
// (docs/generator.md quotes them).
var calibrate = flag.Bool("calibrate", false, "print the calibration figures measured on ../shared/data")

// summary describes a sample.
type summary struct {
	N                                 int
	Mean, SD                          float64
	P10, P25, P50, P75, P90, P99, Max float64
	// GeoMedian and LogSD fit a log-normal (positive values only).
	GeoMedian, LogSD float64
}

func summarize(xs []float64) summary {
	s := summary{N: len(xs)}
	if len(xs) == 0 {
		return s
	}
	v := append([]float64(nil), xs...)
	sort.Float64s(v)
	q := func(p float64) float64 { return v[int(p*float64(len(v)-1))] }
	sum, lsum, lpos := 0.0, 0.0, 0
	for _, x := range v {
		sum += x
		if x > 0 {
			lsum += math.Log(x)
			lpos++
		}
	}
	s.Mean = sum / float64(len(v))
	ss, lss := 0.0, 0.0
	lm := lsum / math.Max(1, float64(lpos))
	for _, x := range v {
		ss += (x - s.Mean) * (x - s.Mean)
		if x > 0 {
			lss += (math.Log(x) - lm) * (math.Log(x) - lm)
		}
	}
	if len(v) > 1 {
		s.SD = math.Sqrt(ss / float64(len(v)-1))
	}
	if lpos > 1 {
		s.LogSD = math.Sqrt(lss / float64(lpos-1))
	}
	s.GeoMedian = math.Exp(lm)
	s.P10, s.P25, s.P50, s.P75, s.P90, s.P99, s.Max = q(.1), q(.25), q(.5), q(.75), q(.9), q(.99), v[len(v)-1]
	return s
}

func (s summary) String() string {
	return fmt.Sprintf("n=%d mean=%.2f sd=%.2f p10=%s p25=%s p50=%s p75=%s p90=%s p99=%s max=%s | lognormal median=%.2f sigma=%.2f",
		s.N, s.Mean, s.SD, quantile(s.P10), quantile(s.P25), quantile(s.P50), quantile(s.P75), quantile(s.P90), quantile(s.P99), quantile(s.Max), s.GeoMedian, s.LogSD)
}

// quantile writes an observed value: a count or byte size as the integer
// it is, a measured time with one decimal (docs/generator.md quotes the
// tau2 step times' p90 as 19.1 and 7.7 s, which whole seconds would hide).
func quantile(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// figures are the calibration measurements.
type figures struct {
	lines []string
	// Catalog figures.
	toolsPerServer, toolBytes, toolTokens summary
	bytesPerToken, descShare              float64
	// Session figures (tau-bench airline, gpt-4o).
	turns, calls                         summary
	firstTurnTool, laterTurnTool         float64
	stepsPerToolTurn, callsPerStep       float64
	userBytes, asstTokens, resultBytes   summary
	resultBytesPerToken, errorRate, zipf float64
	systemPromptTokens                   float64
	topOpenerShare                       float64
	// Drift figures.
	changedFrac, addedFrac, removedFrac float64
	kinds                               map[string]float64
}

func (f *figures) printf(format string, args ...any) {
	f.lines = append(f.lines, fmt.Sprintf(format, args...))
}

var catalogFile = regexp.MustCompile(`^(.+)@([0-9][^+]*)(\+.+)?\.json$`)

// versionKey orders dotted numeric versions.
func versionKey(v string) []int {
	var out []int
	for _, p := range strings.Split(v, ".") {
		n := 0
		fmt.Sscanf(p, "%d", &n)
		out = append(out, n)
	}
	return out
}

func lessVersion(a, b string) bool {
	ka, kb := versionKey(a), versionKey(b)
	for i := 0; i < len(ka) && i < len(kb); i++ {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return len(ka) < len(kb)
}

type realTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func loadRealCatalog(t *testing.T, path string) []realTool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Tools []realTool `json:"tools"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c.Tools
}

// wireOf is the compact wire form {"name","description","input_schema"}.
func wireOf(t realTool) []byte {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage("{}")
	}
	w := struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	}{t.Name, t.Description, schema}
	b, _ := json.Marshal(w)
	var buf strings.Builder
	buf.Write(b)
	return []byte(buf.String())
}

func measureCatalogs(t *testing.T, f *figures, counter tokens.Counter) {
	dir := shareddata.Path(t, "catalogs")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Series: server (base variant only) → versions.
	series := map[string][]string{}
	files := map[string]string{}
	for _, e := range ents {
		m := catalogFile.FindStringSubmatch(e.Name())
		if m == nil || strings.HasSuffix(e.Name(), ".meta.json") || m[3] != "" {
			continue
		}
		series[m[1]] = append(series[m[1]], m[2])
		files[m[1]+"@"+m[2]] = filepath.Join(dir, e.Name())
	}
	var servers []string
	for s := range series {
		servers = append(servers, s)
		sort.Slice(series[s], func(i, j int) bool { return lessVersion(series[s][i], series[s][j]) })
	}
	sort.Strings(servers)
	var perServer, perTool, perToolTok []float64
	var wireBytes, wireTokens, descBytes float64
	for _, s := range servers {
		vs := series[s]
		tools := loadRealCatalog(t, files[s+"@"+vs[len(vs)-1]])
		perServer = append(perServer, float64(len(tools)))
		for _, tl := range tools {
			w := wireOf(tl)
			n := counter.Count(w)
			perTool = append(perTool, float64(len(w)))
			perToolTok = append(perToolTok, float64(n))
			wireBytes += float64(len(w))
			wireTokens += float64(n)
			descBytes += float64(len(tl.Description))
		}
	}
	f.toolsPerServer, f.toolBytes, f.toolTokens = summarize(perServer), summarize(perTool), summarize(perToolTok)
	f.bytesPerToken = wireBytes / wireTokens
	f.descShare = descBytes / wireBytes
	f.printf("catalogs: %d servers (latest base-variant version of each)", len(servers))
	f.printf("  tools per server: %v", f.toolsPerServer)
	f.printf("  wire bytes per tool: %v", f.toolBytes)
	f.printf("  %s tokens per tool: %v", counter.Name(), f.toolTokens)
	f.printf("  aggregate wire bytes per %s token: %.2f; description share of wire bytes: %.3f", counter.Name(), f.bytesPerToken, f.descShare)

	// Drift between consecutive versions of each series.
	kinds := map[string]int{}
	var changedFrac, addedFrac, removedFrac []float64
	for _, s := range servers {
		vs := series[s]
		for i := 1; i < len(vs); i++ {
			a := loadRealCatalog(t, files[s+"@"+vs[i-1]])
			b := loadRealCatalog(t, files[s+"@"+vs[i]])
			am, bm := map[string]realTool{}, map[string]realTool{}
			for _, x := range a {
				am[x.Name] = x
			}
			for _, x := range b {
				bm[x.Name] = x
			}
			changed, added, removed := 0, 0, 0
			for n, x := range am {
				y, ok := bm[n]
				if !ok {
					removed++
					continue
				}
				if k := classifyChange(x, y); k != "" {
					changed++
					kinds[k]++
				}
			}
			for n := range bm {
				if _, ok := am[n]; !ok {
					added++
				}
			}
			na := float64(len(a))
			changedFrac = append(changedFrac, float64(changed)/na)
			addedFrac = append(addedFrac, float64(added)/na)
			removedFrac = append(removedFrac, float64(removed)/na)
		}
	}
	f.printf("drift: %d consecutive version pairs", len(changedFrac))
	f.changedFrac, f.addedFrac, f.removedFrac = summarize(changedFrac).Mean, summarize(addedFrac).Mean, summarize(removedFrac).Mean
	f.printf("  mean share of a version's tools changed %.2f, added %.2f, removed %.2f (median changed %.2f)",
		f.changedFrac, f.addedFrac, f.removedFrac, summarize(changedFrac).P50)
	var ks []string
	total := 0
	for k, n := range kinds {
		ks = append(ks, k)
		total += n
	}
	sort.Strings(ks)
	gen := 0
	for _, k := range ks {
		if k != "other_schema" {
			gen += kinds[k]
		}
	}
	f.kinds = map[string]float64{}
	for _, k := range ks {
		if k != "other_schema" {
			f.kinds[k] = float64(kinds[k]) / float64(gen)
		}
	}
	for _, k := range ks {
		f.printf("  changed tools whose most severe change is %-17s %4d (%.2f of all; %.2f of the generated kinds)", k+":", kinds[k], float64(kinds[k])/float64(total), f.kinds[k])
	}
}

// classifyChange names the most severe top-level change between two
// versions of a tool ("" when only other fields differ).
func classifyChange(a, b realTool) string {
	type sch struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	var sa, sb sch
	_ = json.Unmarshal(a.InputSchema, &sa)
	_ = json.Unmarshal(b.InputSchema, &sb)
	req := func(s sch) map[string]bool {
		m := map[string]bool{}
		for _, r := range s.Required {
			m[r] = true
		}
		return m
	}
	ra, rb := req(sa), req(sb)
	var gone, fresh int
	for p := range sa.Properties {
		if _, ok := sb.Properties[p]; !ok {
			gone++
		}
	}
	reqAdded := false
	for p := range sb.Properties {
		if _, ok := sa.Properties[p]; !ok {
			fresh++
			if rb[p] {
				reqAdded = true
			}
		}
	}
	for p := range rb {
		if !ra[p] {
			if _, ok := sa.Properties[p]; ok {
				reqAdded = true // an existing property became required
			}
		}
	}
	switch {
	case gone > 0 && fresh > 0:
		return "property_renamed"
	case gone > 0:
		return "property_removed"
	case reqAdded:
		return "required_added"
	case fresh > 0:
		return "optional_added"
	case !jsonEqual(a.InputSchema, b.InputSchema):
		return "other_schema"
	case a.Description != b.Description:
		return "description"
	}
	return ""
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	_ = json.Unmarshal(a, &x)
	_ = json.Unmarshal(b, &y)
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

type oaMessage struct {
	Role      string  `json:"role"`
	Content   *string `json:"content"`
	ToolCalls []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func measureTauBench(t *testing.T, f *figures, counter tokens.Counter) {
	path := shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var runs []struct {
		Traj []oaMessage `json:"traj"`
	}
	if err := json.Unmarshal(data, &runs); err != nil {
		t.Fatal(err)
	}
	var turns, calls, userB, asstTok, resB []float64
	var firstTool, firstN, laterTool, laterN, toolSteps, toolTurns, nCalls float64
	var resBytes, resTok, errs, results, sysTok float64
	pop := map[string]float64{}
	openers := map[string]float64{}
	for _, run := range runs {
		msgs := run.Traj
		if len(msgs) > 0 && msgs[0].Role == "system" && msgs[0].Content != nil {
			sysTok += float64(counter.Count([]byte(*msgs[0].Content)))
			msgs = msgs[1:]
		}
		nTurns, nc := 0, 0
		turnCalls, turnSteps := -1, 0
		closeTurn := func() {
			if turnCalls < 0 {
				return
			}
			if nTurns == 1 {
				firstN++
				if turnCalls > 0 {
					firstTool++
				}
			} else {
				laterN++
				if turnCalls > 0 {
					laterTool++
				}
			}
			if turnCalls > 0 {
				toolTurns++
				toolSteps += float64(turnSteps)
			}
		}
		opened := false
		for _, m := range msgs {
			switch m.Role {
			case "user":
				closeTurn()
				nTurns++
				turnCalls, turnSteps = 0, 0
				if m.Content != nil {
					userB = append(userB, float64(len(*m.Content)))
				}
			case "assistant":
				if len(m.ToolCalls) > 0 {
					turnSteps++
					turnCalls += len(m.ToolCalls)
					nc += len(m.ToolCalls)
					for _, c := range m.ToolCalls {
						pop[c.Function.Name]++
						if !opened {
							openers[c.Function.Name]++
							opened = true
						}
					}
				} else if m.Content != nil && *m.Content != "" {
					asstTok = append(asstTok, float64(counter.Count([]byte(*m.Content))))
				}
			case "tool":
				results++
				if m.Content != nil {
					resB = append(resB, float64(len(*m.Content)))
					resBytes += float64(len(*m.Content))
					resTok += float64(counter.Count([]byte(*m.Content)))
					if strings.HasPrefix(*m.Content, "Error") {
						errs++
					}
				}
			}
		}
		closeTurn()
		turns = append(turns, float64(nTurns))
		calls = append(calls, float64(nc))
		nCalls += float64(nc)
	}
	f.turns, f.calls = summarize(turns), summarize(calls)
	f.firstTurnTool, f.laterTurnTool = firstTool/firstN, laterTool/laterN
	f.stepsPerToolTurn = toolSteps / toolTurns
	f.callsPerStep = nCalls / toolSteps
	f.userBytes, f.asstTokens, f.resultBytes = summarize(userB), summarize(asstTok), summarize(resB)
	f.resultBytesPerToken = resBytes / resTok
	f.errorRate = errs / results
	f.systemPromptTokens = sysTok / float64(len(runs))
	f.zipf = zipfMLE(pop)
	var top []float64
	for _, n := range openers {
		top = append(top, n)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(top)))
	opened := 0.0
	for _, n := range top {
		opened += n
	}
	if len(top) >= 2 {
		f.topOpenerShare = (top[0] + top[1]) / opened
	}
	f.printf("tau-bench airline (gpt-4o): %d sessions", len(runs))
	f.printf("  user turns per session: %v", f.turns)
	f.printf("  tool calls per session: %v", f.calls)
	f.printf("  P(first user turn leads to a tool call) = %.3f; P(later turn does) = %.3f", f.firstTurnTool, f.laterTurnTool)
	f.printf("  tool-calling model steps per tool turn = %.2f; calls per step = %.2f", f.stepsPerToolTurn, f.callsPerStep)
	f.printf("  user message bytes: %v", f.userBytes)
	f.printf("  assistant text %s tokens: %v", counter.Name(), f.asstTokens)
	f.printf("  tool result bytes: %v", f.resultBytes)
	f.printf("  tool result bytes per %s token: %.2f; results starting with \"Error\": %.3f", counter.Name(), f.resultBytesPerToken, f.errorRate)
	f.printf("  system prompt: %.0f %s tokens", f.systemPromptTokens, counter.Name())
	f.printf("  tool popularity: %d tools called; Zipf exponent (maximum likelihood) = %.2f", len(pop), f.zipf)
	f.printf("  openers: %d distinct; the top two open %.2f of sessions that call a tool", len(top), f.topOpenerShare)
}

// zipfMLE fits the exponent s of a finite Zipf law to call counts by
// maximum likelihood (golden-section search on s in [0, 5]).
func zipfMLE(counts map[string]float64) float64 {
	var c []float64
	for _, n := range counts {
		c = append(c, n)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(c)))
	total := 0.0
	for _, n := range c {
		total += n
	}
	ll := func(s float64) float64 {
		h, sum := 0.0, 0.0
		for i, n := range c {
			r := float64(i + 1)
			h += math.Pow(r, -s)
			sum += n * math.Log(r)
		}
		return -s*sum - total*math.Log(h)
	}
	lo, hi := 0.0, 5.0
	g := (math.Sqrt(5) - 1) / 2
	for i := 0; i < 100; i++ {
		a, b := hi-g*(hi-lo), lo+g*(hi-lo)
		if ll(a) > ll(b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

type tau2Message struct {
	Role      string  `json:"role"`
	Content   *string `json:"content"`
	Timestamp string  `json:"timestamp"`
	ToolCalls []struct {
		Name string `json:"name"`
	} `json:"tool_calls"`
}

func measureTau2(t *testing.T, f *figures) {
	runs := []struct {
		name string
		path []string
	}{
		{"telecom gpt-4o", []string{"sessions", "tau2-bench", "data", "simulations", "2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json"}},
		{"airline gpt-oss-120b", []string{"sessions", "tau2-bench", "web", "leaderboard", "public", "submissions", "gpt-oss-120b_openai_2025-11-26", "trajectories", "langchain_agent_airline_2025-11-26_00-37-06.json"}},
		{"airline gpt-5 (orchestrated)", []string{"sessions", "tau2-bench", "web", "leaderboard", "public", "submissions", "toolorchestra_nvidia_2025-12-02", "trajectories", "toolorchestra_airline_gpt-5_1trial.json"}},
	}
	for _, run := range runs {
		data, err := os.ReadFile(shareddata.Path(t, run.path...))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Simulations []struct {
				Messages []tau2Message `json:"messages"`
			} `json:"simulations"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", run.name, err)
		}
		var turns, calls, stepSec, pauseSec []float64
		var steps, nc float64
		for _, sim := range doc.Simulations {
			u, c := 0, 0
			for i, m := range sim.Messages {
				switch m.Role {
				case "user":
					u++
				case "assistant":
					if len(m.ToolCalls) > 0 {
						steps++
						c += len(m.ToolCalls)
					}
				}
				if i == 0 {
					continue
				}
				prev := sim.Messages[i-1]
				a, errA := time.Parse("2006-01-02T15:04:05.999999", prev.Timestamp)
				b, errB := time.Parse("2006-01-02T15:04:05.999999", m.Timestamp)
				if errA != nil || errB != nil {
					continue
				}
				switch {
				case m.Role == "assistant":
					stepSec = append(stepSec, b.Sub(a).Seconds())
				case m.Role == "user" && prev.Role == "assistant":
					pauseSec = append(pauseSec, b.Sub(a).Seconds())
				}
			}
			turns = append(turns, float64(u))
			calls = append(calls, float64(c))
			nc += float64(c)
		}
		f.printf("tau2 %s: %d sessions", run.name, len(doc.Simulations))
		f.printf("  user turns per session: %v", summarize(turns))
		f.printf("  tool calls per session: %v", summarize(calls))
		f.printf("  calls per tool-calling step: %.2f", nc/math.Max(1, steps))
		if len(stepSec) > 0 {
			f.printf("  agent step seconds (previous message → assistant message): %v", summarize(stepSec))
			f.printf("  simulated-user reply seconds (assistant → user): %v", summarize(pauseSec))
		}
	}
}

func measureAll(t *testing.T) *figures {
	shareddata.Dir(t)
	counter, err := tokens.NewTiktoken("o200k_base")
	if err != nil {
		t.Fatalf("tokenizer: %v", err)
	}
	f := &figures{}
	measureCatalogs(t, f, counter)
	measureTauBench(t, f, counter)
	measureTau2(t, f)
	return f
}

// TestCalibrate measures the real data and checks that the defaults stay
// derived from it: each default that is a measurement must lie within a
// stated tolerance of the figure (assumptions are documented, not tested).
func TestCalibrate(t *testing.T) {
	f := measureAll(t)
	if *calibrate {
		for _, l := range f.lines {
			fmt.Println(l)
		}
	}
	d := Defaults()
	near := func(name string, got, want, rel float64) {
		t.Helper()
		if math.Abs(got-want) > rel*math.Abs(want) {
			t.Errorf("default %s = %.3g, measured %.3g (tolerance %.0f%%)", name, got, want, rel*100)
		}
	}
	near("tools_per_server.median", d.ToolsPerServer.Median, f.toolsPerServer.GeoMedian, 0.1)
	near("tools_per_server.sigma", d.ToolsPerServer.Sigma, f.toolsPerServer.LogSD, 0.1)
	near("schema_bytes.median", d.SchemaBytes.Median, f.toolBytes.GeoMedian, 0.1)
	near("schema_bytes.sigma", d.SchemaBytes.Sigma, f.toolBytes.LogSD, 0.1)
	near("description_share", d.DescriptionShare, f.descShare, 0.15)
	near("schema_bytes_per_token", d.SchemaBytesPerToken, f.bytesPerToken, 0.1)
	near("turns.median", d.Turns.Median, f.turns.GeoMedian, 0.1)
	near("turns.sigma", d.Turns.Sigma, f.turns.LogSD, 0.15)
	near("tool_turn_prob", d.ToolTurnProb, f.laterTurnTool, 0.1)
	near("steps_per_tool_turn", d.StepsPerToolTurn, f.stepsPerToolTurn, 0.15)
	near("user_text_bytes.median", d.UserTextBytes.Median, f.userBytes.GeoMedian, 0.15)
	near("assistant_tokens.median", d.AssistantTokens.Median, f.asstTokens.GeoMedian, 0.15)
	near("result_bytes_per_token", d.ResultBytesPerToken, f.resultBytesPerToken, 0.15)
	near("error_rate", d.ErrorRate, f.errorRate, 0.2)
	near("system_prompt_tokens", float64(d.SystemPromptTokens), f.systemPromptTokens, 0.1)
	near("zipf", d.Zipf, f.zipf, 0.15)
	near("drift.changed_fraction", d.Drift.ChangedFraction, f.changedFrac, 0.15)
	near("drift.added_fraction", d.Drift.AddedFraction, f.addedFrac, 0.15)
	near("drift.removed_fraction", d.Drift.RemovedFraction, f.removedFrac, 0.15)
	k := d.Drift.Kinds
	sum := k.Description + k.OptionalAdded + k.RequiredAdded + k.PropertyRemoved + k.PropertyRenamed
	near("drift.kinds.description", k.Description/sum, f.kinds["description"], 0.15)
	near("drift.kinds.optional_added", k.OptionalAdded/sum, f.kinds["optional_added"], 0.15)
	near("drift.kinds.required_added", k.RequiredAdded/sum, f.kinds["required_added"], 0.15)
	near("drift.kinds.property_removed", k.PropertyRemoved/sum, f.kinds["property_removed"], 0.15)
	near("drift.kinds.property_renamed", k.PropertyRenamed/sum, f.kinds["property_renamed"], 0.15)
}
