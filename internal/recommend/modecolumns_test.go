package recommend

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestModeColumnsAgree pins that a proposal in scope always-defer-only
// shows, in the text table, the CSV and JSON alike, each tool's deferred
// figures in that mode (the always-defer rule's: mode_defer_usd,
// mode_defer_first_reply_ms, "deferred $ (only)", "defer +ms (only)")
// beside scope mcp's (defer_usd, which the budget and the never-defer rule
// weigh). defer_usd alone was shown, scope mcp's, under a proposal that
// never runs scope mcp until the catalog grows. The mode's load prompt is
// larger (the list's schema alone leaves it), so the two differ.
func TestModeColumnsAgree(t *testing.T) {
	m, _ := presets.Model("claude-sonnet-4.5")
	e := Economy{Model: m, Params: presets.DefaultParams(), Injection: sim.InjectInline, Requests: 12,
		FirstPrompt: 20000, MeanPrompt: 26000, SearchOutput: searchOutputTokens, DeferredSchema: 12000, Directory: 16}
	list := e
	list.DeferredSchema, list.Directory, list.scope = 900, 7, sim.ScopeAlwaysDeferOnly
	usage := map[string]*toolUsage{"screenshot": {Uses: 3, Calls: 3, BeforeReply: 1}, "list_notes": {Opens: 5, Uses: 40, FirstTurn: 6, BeforeReply: 6, Calls: 55}}
	var tools []Assessment
	for _, k := range []toolKey{{"desktop", "screenshot"}, {"memory", "list_notes"}} {
		sc := Schema{Tokens: map[string]int64{"screenshot": 900, "list_notes": 150}[k.Tool], Versions: 1}
		tools = append(tools, assess(&e, &list, DefaultRules(), 500, k, usage[k.Tool], 200, 200, sc, false))
	}
	p := &Proposal{BaseName: "claude-code-default", Tools: tools, Economy: e, RoundTripMs: e.RoundTripMs(), Rules: DefaultRules(), Expensive: 500,
		Training: 200, TestShare: 0.3, ListScope: sim.ScopeAlwaysDeferOnly}
	if tools[0].ModeDeferUSD == tools[0].DeferUSD || tools[0].ModeDeferMs == tools[0].DeferMs {
		t.Fatalf("screenshot: the mode's figures equal scope mcp's (%v, %v): the test cannot tell them apart", tools[0].ModeDeferUSD, tools[0].ModeDeferMs)
	}
	var text, table bytes.Buffer
	if err := WriteText(&text, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&table, p); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON struct {
		Scope string `json:"always_defer_rule_scope"`
		Tools []struct {
			DeferUSD     float64 `json:"defer_usd"`
			ModeDeferUSD float64 `json:"mode_defer_usd"`
			ModeDeferMs  float64 `json:"mode_defer_first_reply_ms"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(js, &fromJSON); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&table).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		i := slices.Index(rows[0], name)
		if i < 0 {
			t.Fatalf("CSV header %q lacks %s", rows[0], name)
		}
		return i
	}
	lines := strings.Split(text.String(), "\n")
	header := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "deferred $ (only)") })
	if header < 0 {
		t.Fatalf("text table lacks the mode's columns:\n%s", text.String())
	}
	cells := regexp.MustCompile(`\s{2,}`)
	if fromJSON.Scope != sim.ScopeAlwaysDeferOnly {
		t.Errorf("JSON always_defer_rule_scope %q", fromJSON.Scope)
	}
	for i, a := range tools {
		row := rows[i+1]
		if got := row[col("always_defer_rule_scope")]; got != sim.ScopeAlwaysDeferOnly {
			t.Errorf("%s: CSV always_defer_rule_scope %q", toolLabel(a.Key), got)
		}
		for name, want := range map[string]float64{"defer_usd": a.DeferUSD, "mode_defer_usd": a.ModeDeferUSD, "mode_defer_first_reply_ms": a.ModeDeferMs} {
			if got, _ := strconv.ParseFloat(row[col(name)], 64); got != want {
				t.Errorf("%s: CSV %s %v, want %v", toolLabel(a.Key), name, got, want)
			}
		}
		if j := fromJSON.Tools[i]; j.DeferUSD != a.DeferUSD || j.ModeDeferUSD != a.ModeDeferUSD || j.ModeDeferMs != a.ModeDeferMs {
			t.Errorf("%s: JSON %+v, want %v, %v, %v", toolLabel(a.Key), j, a.DeferUSD, a.ModeDeferUSD, a.ModeDeferMs)
		}
		f := cells.Split(strings.TrimSpace(lines[header+1+i]), -1)
		if got, want := f[len(f)-2:], []string{fmt.Sprintf("%.0f", a.ModeDeferMs), fmt.Sprintf("%.5f", a.ModeDeferUSD)}; !slices.Equal(got, want) {
			t.Errorf("%s: text table's mode cells %q, want %q", toolLabel(a.Key), got, want)
		}
		if !slices.Contains(f, fmt.Sprintf("%.5f", a.DeferUSD)) {
			t.Errorf("%s: text row %q lacks scope mcp's deferred $ %.5f", toolLabel(a.Key), f, a.DeferUSD)
		}
	}
}
