package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestRecommendDocExample pins the output docs/recommend.md quotes — the
// one-session sample of "Small samples", the worked example on the
// tau-bench airline sessions with its snippet, and the same rules under
// inline mechanics — to what recommend prints now. The worked example had
// drifted: its validation table lacked the anthropic-api-inline-regex
// preset (13 strategies where the binary compares 14) and quoted the
// proposal at $0.08653 where it costs $0.08652. The test runs the commands
// of every block the doc marks `<!-- output: … -->`, in the doc's order, in
// one working directory, and compares their output and the snippet with the
// quotes; `go test ./cmd/defersim -run TestRecommendDocExample -update`
// rewrites the quotes that elide nothing. It then recomputes the prose's
// figures from the validation results ("Reading it") and those of the
// proposal's run and CI gate (recommendDocProposalRun); all are current.
func TestRecommendDocExample(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 200 real sessions under 15 strategies (-short)")
	}
	// The doc's commands name the real data as ../shared/data/…; the
	// variable keeps it found from the temporary working directory.
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	doc, err := filepath.Abs(filepath.Join("..", "..", "docs", "recommend.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	shell := map[string]func() error{
		// The first session of an imported trace, as the doc's pipeline
		// cuts it: the lines up to the second session_start.
		`zcat tau.jsonl.gz | awk '/session_start/{n++} n<=1' | gzip > tau1.jsonl.gz`: func() error {
			return firstSessionLines("tau.jsonl.gz", "tau1.jsonl.gz", 1)
		},
	}
	docRun(t, doc, func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }, shell)

	// The prose's figures from the worked example's validation results:
	// why anthropic-api-inline-regex costs less than claude-code-default
	// at the same first reply, and what the proposal saves.
	b, err := os.ReadFile(filepath.Join("out", "recommend-validation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Strategies []struct {
			Name    string `json:"name"`
			Metrics map[string]struct {
				Mean float64 `json:"mean"`
			} `json:"metrics"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	m := map[string]map[string]float64{}
	for _, s := range res.Strategies {
		m[s.Name] = map[string]float64{}
		for k, v := range s.Metrics {
			m[s.Name][k] = v.Mean
		}
	}
	regex, ccd := m["anthropic-api-inline-regex"], m["claude-code-default"]
	if regex == nil || ccd == nil {
		t.Fatalf("validation results lack anthropic-api-inline-regex or claude-code-default: %v", slices.Sorted(maps.Keys(m)))
	}
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	prose := strings.Join(strings.Fields(string(text)), " ")
	for _, want := range []string{
		"Its regular-expression search never missed",
		fmt.Sprintf("`claude-code-default`'s searches were retried %.2f times per session", ccd["search_retries"]),
		fmt.Sprintf("fewer requests (%.1f per session against %.1f)", regex["requests"], ccd["requests"]),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/recommend.md lacks %q (the validation results' figures)", want)
		}
	}
	if regex["search_misses"] != 0 || regex["requests"] >= ccd["requests"] {
		t.Errorf("anthropic-api-inline-regex: %v search misses, %v requests against claude-code-default's %v: the doc's explanation no longer holds",
			regex["search_misses"], regex["requests"], ccd["requests"])
	}
	// "Reading it": the proposal's costs against eager and the three
	// tools-array rules that defer everything.
	rec, eager := m["recommended"]["cost_usd"], m["eager"]["cost_usd"]
	lo, hi := 1.0, 0.0
	for _, name := range []string{"anchor-e7-per-tool", "anchor-e9-warm-capped", "codex-cli"} {
		share := 1 - rec/m[name]["cost_usd"]
		lo, hi = min(lo, share), max(hi, share)
	}
	for _, want := range []string{
		fmt.Sprintf("cheaper than eager by $%.5f (%.1f%%) per session", eager-rec, 100*(eager-rec)/eager),
		fmt.Sprintf("`codex-cli`): %.0f–%.0f%% cheaper", 100*lo, 100*hi),
		fmt.Sprintf("`codex-cli`, which does exactly that, costs $%.4f more per session than eager", m["codex-cli"]["cost_usd"]-eager),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/recommend.md lacks %q (the validation results' figures)", want)
		}
	}
	recommendDocReading(t, prose)
	recommendDocProposalRun(t, prose)
}

// recommendDocReading pins the figures of docs/recommend.md's "Reading it"
// list (prose: the page's words joined) to recommend's JSON on the worked
// example's trace (`recommend data/taubench.jsonl.gz --format json`): the
// opener shares, the always-defer tool, the uncertain before-reply
// decisions' schema sizes, prefill times, break-even shares and stakes,
// the settled tools' break-even shares and the catalog's size. They were
// written from the table by hand; all are current.
func recommendDocReading(t *testing.T, prose string) {
	t.Helper()
	stdout, stderr, code := cliRun(t, "recommend", filepath.Join("data", "taubench.jsonl.gz"), "--format", "json", "-o", filepath.Join("out", "reading.yaml"))
	if code != 0 {
		t.Fatalf("recommend --format json: exit %d\n%s", code, stderr)
	}
	var rec struct {
		Tools []struct {
			Tool struct {
				Tool string `json:"tool"`
			} `json:"tool"`
			Open        float64 `json:"open_share"`
			Use         float64 `json:"use_share"`
			Before      float64 `json:"before_first_reply_share"`
			BeforeHigh  float64 `json:"before_first_reply_high"`
			DirectMs    float64 `json:"direct_first_reply_ms"`
			BreakEven   float64 `json:"break_even_share"`
			Decision    string  `json:"decision"`
			Uncertainty *struct {
				Share   string  `json:"share"`
				StakeMs float64 `json:"stake_first_reply_ms"`
				Settle  int     `json:"sessions_to_settle"`
			} `json:"uncertainty"`
			Schema struct {
				Tokens int `json:"tokens"`
			} `json:"schema"`
		} `json:"tools"`
		RoundTrip float64 `json:"round_trip_ms"`
		Training  int     `json:"training_sessions"`
		Catalog   int     `json:"registry_estimated_tokens"`
		Uncertain int     `json:"uncertain_decisions"`
		LeftOut   int     `json:"uncertain_decisions_left_out"`
		AboveOnly int     `json:"uncertain_decisions_above_budget_only"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	pct1 := func(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }
	// pctFine writes a break-even share as recommend's table does.
	pctFine := func(v float64) string {
		if 100*v < 1 {
			return fmt.Sprintf("%.2f", 100*v)
		}
		return fmt.Sprintf("%.1f", 100*v)
	}
	by := map[string]int{}
	// The uncertain before-reply decisions: their schema tokens, direct
	// prefill ms, break-even shares, and the stakes of those never
	// called before the reply.
	tok, ms, be, stake := [2]float64{1e9, 0}, [2]float64{1e9, 0}, [2]float64{1e9, 0}, [2]float64{1e9, 0}
	span := func(r *[2]float64, v float64) { r[0], r[1] = min(r[0], v), max(r[1], v) }
	var zeroHigh float64
	for i, x := range rec.Tools {
		by[x.Tool.Tool] = i
		if x.Uncertainty == nil || x.Uncertainty.Share != "before_first_reply_share" {
			continue
		}
		span(&tok, float64(x.Schema.Tokens))
		span(&ms, x.DirectMs)
		span(&be, x.BreakEven)
		if x.Before == 0 {
			span(&stake, x.Uncertainty.StakeMs)
			zeroHigh = x.BeforeHigh
		}
	}
	tool := func(name string) int {
		i, ok := by[name]
		if !ok {
			t.Fatalf("recommend lists no tool %s", name)
		}
		return i
	}
	user, res := rec.Tools[tool("get_user_details")], rec.Tools[tool("get_reservation_details")]
	pass, bag := rec.Tools[tool("update_reservation_passengers")], rec.Tools[tool("update_reservation_baggages")]
	book, flights := rec.Tools[tool("book_reservation")], rec.Tools[tool("update_reservation_flights")]
	if user.Before != 0 || pass.Decision != "always-defer" || bag.Uncertainty == nil || res.Uncertainty == nil {
		t.Fatalf("get_user_details before reply %v, update_reservation_passengers %q, uncertainties %v %v: the page's reading no longer holds",
			user.Before, pass.Decision, bag.Uncertainty, res.Uncertainty)
	}
	for _, want := range []string{
		fmt.Sprintf("`get_user_details`, opens %s of sessions but is never called before the first reply, and `get_reservation_details` is called before it in %s of training sessions", pct1(user.Open), pct1(res.Before)),
		fmt.Sprintf("`update_reservation_passengers` (%d tokens, called in %s of sessions)", pass.Schema.Tokens, pct1(pass.Use)),
		fmt.Sprintf("**%d of %d decisions uncertain, %d of them only above the budget, %d left out.**", rec.Uncertain, len(rec.Tools), rec.AboveOnly, rec.LeftOut),
		fmt.Sprintf("in any of the %d training sessions, but 0 of %d only bounds the share below %s at 95%%", rec.Training, rec.Training, pct1(zeroHigh)),
		fmt.Sprintf("(%.0f–%.0f tokens, %.0f–%.0f ms of prefill against a %.0f ms round trip) break even at shares of %s–%s%%",
			tok[0], tok[1], ms[0], ms[1], rec.RoundTrip, pctFine(be[0]), pctFine(be[1])),
		fmt.Sprintf("up to %.0f–%.0f ms of mean first reply each, %.0f ms for `get_reservation_details`", stake[0], stake[1], res.Uncertainty.StakeMs),
		fmt.Sprintf("`update_reservation_baggages`, called in %s of sessions against `--rare` 5%%, needs %s.", pct1(bag.Use), withCommas(int64(bag.Uncertainty.Settle))),
		fmt.Sprintf("`book_reservation` (break-even %s) and `update_reservation_flights` (%s, called in %s) are settled", pct1(book.BreakEven), pct1(flights.BreakEven), pct1(flights.Use)),
		fmt.Sprintf("The %d tools weigh %s estimated tokens", len(rec.Tools), withCommas(int64(rec.Catalog))),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/recommend.md does not say %q (recommend --format json)", want)
		}
	}
}

// recommendDocProposalRun checks the figures of docs/recommend.md's "From
// the proposal to a run and a CI gate" (prose: the page's words joined) in
// the working directory the worked example left: the proposal
// (out/recommended.yaml) and the one of --base claude-code-default
// (out/inline.yaml), each appended to the page's scenario header and run;
// the first run's in-sample cost difference against eager, and check on
// the two runs — exit 2 without --allow policy, and with it the regressed
// and improved checks the page names. All figures are current.
func recommendDocProposalRun(t *testing.T, prose string) {
	t.Helper()
	const header = "name: tau-proposal\ntraces: [../data/taubench.jsonl.gz]\nmodel: {preset: gpt-4o}\nstrategies:\n- eager\n"
	if want := "printf '" + strings.ReplaceAll(header, "\n", `\n`) + "'"; !strings.Contains(prose, want) {
		t.Fatalf("docs/recommend.md no longer writes the scenario header %s", want)
	}
	run := func(snippet, name string) docResults {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("out", snippet))
		if err != nil {
			t.Fatal(err)
		}
		scenario := filepath.Join("out", name+".yaml")
		if err := os.WriteFile(scenario, append([]byte(header), b...), 0o644); err != nil {
			t.Fatal(err)
		}
		if stdout, stderr, code := cliRun(t, "run", scenario, "-o", filepath.Join("out", name+"-run"), "--no-report", "-q"); code != 0 {
			t.Fatalf("run %s: exit %d\n%s%s", scenario, code, stdout, stderr)
		}
		var res docResults
		readJSON(t, filepath.Join("out", name+"-run", "results.json"), &res)
		return res
	}
	first, second := run("recommended.yaml", "proposal"), run("inline.yaml", "proposal2")

	var vs struct {
		Strategies []struct {
			Name string `json:"name"`
			Vs   map[string]struct {
				Ratio float64                     `json:"ratio"`
				CI    struct{ Low, High float64 } `json:"ratio_ci"`
			} `json:"vs_baseline"`
		} `json:"strategies"`
	}
	readJSON(t, filepath.Join("out", "proposal-run", "results.json"), &vs)
	pct := func(ratio float64) string { return strings.Replace(fmt.Sprintf("%.2f", 100*(ratio-1)), "-", "−", 1) }
	for _, s := range vs.Strategies {
		if c, ok := s.Vs["cost_usd"]; ok && s.Name == "recommended" {
			if want := fmt.Sprintf("`recommended` at %s%% cost against eager, 95%% CI [%s, %s]", pct(c.Ratio), pct(c.CI.Low), pct(c.CI.High)); !strings.Contains(prose, want) {
				t.Errorf("docs/recommend.md does not say %q", want)
			}
		}
	}

	base, cur := filepath.Join("out", "proposal-run", "results.json"), filepath.Join("out", "proposal2-run", "results.json")
	if _, _, code := cliRun(t, "check", "--baseline", base, cur); code != 2 {
		t.Errorf("check without --allow policy: exit %d, the page says 2", code)
	}
	stdout, stderr, code := cliRun(t, "check", "--baseline", base, cur, "--allow", "policy")
	if code != 1 {
		t.Fatalf("check --allow policy: exit %d, the page says 1\n%s%s", code, stdout, stderr)
	}
	summary := regexp.MustCompile(`REGRESSION: \d+ of \d+ checks regressed`).FindString(stdout)
	status := map[string][]string{}
	for l := range strings.SplitSeq(stdout, "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "recommended" {
			status[f[len(f)-1]] = append(status[f[len(f)-1]], f[1])
		}
	}
	slices.Sort(status["improved"])
	if len(status["regression"]) != 1 || len(status["improved"]) != 2 {
		t.Fatalf("check regressed %v and improved %v; the page names one and two", status["regression"], status["improved"])
	}
	metric := status["regression"][0]
	mean := func(res docResults) float64 {
		for _, s := range res.Strategies {
			if s.Name == "recommended" {
				return s.Metrics[metric].Mean
			}
		}
		t.Fatal("no strategy recommended")
		return 0
	}
	if want := fmt.Sprintf("gives `%s` (`%s` %.2f → %.2f per session) with `%s` and `%s` improved, exit 1",
		summary, metric, mean(first), mean(second), status["improved"][0], status["improved"][1]); !strings.Contains(prose, want) {
		t.Errorf("docs/recommend.md does not say %q", want)
	}
}

// firstSessionLines copies the lines of the gzipped trace src up to its
// (n+1)th session_start into the gzipped file dst.
func firstSessionLines(src, dst string, n int) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	zw := gzip.NewWriter(out)
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 64<<20)
	for seen := 0; sc.Scan(); {
		if strings.Contains(sc.Text(), "session_start") {
			if seen++; seen > n {
				break
			}
		}
		if _, err := zw.Write(append(sc.Bytes(), '\n')); err != nil {
			return err
		}
	}
	return errors.Join(sc.Err(), zr.Close(), zw.Close())
}
