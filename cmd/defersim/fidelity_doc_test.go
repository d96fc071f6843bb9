package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestFidelityDocSplits recomputes the "Other halves" table of
// docs/fidelity.md — calibrate's held-out request-time median, p90 and KS
// on the tau2 telecom and airline runs, one overhead and request kinds,
// for the five splits the page names — and checks each row is on the page
// as calibrate gives it now. Its first row is also the request-time rows
// of the page's main table. All rows are current.
func TestFidelityDocSplits(t *testing.T) {
	if testing.Short() {
		t.Skip("20 calibrations of the real tau2 runs, 10-20 s (-short)")
	}
	_, page := docPage(t, "fidelity.md")
	t.Chdir(t.TempDir())
	traces := fidelityDocImport(t)
	cell := func(fitOn []string, trace string, kinds bool) string {
		t.Helper()
		e := fidelityDocCalibrate(t, trace, kinds, fitOn...).HeldOut
		return fmt.Sprintf("%.1f%%, %.1f%% (%.3f)", 100*e.Requests.Median, 100*e.Requests.P90, e.RequestKS)
	}
	for _, row := range []struct {
		label string
		fitOn []string
	}{
		{"even (fit) / odd (judged)", []string{"even"}},
		{"odd / even", []string{"odd"}},
		{"share 0.5, seed 1", []string{"0.5", "--seed", "1"}},
		{"share 0.5, seed 2", []string{"0.5", "--seed", "2"}},
		{"share 0.5, seed 3", []string{"0.5", "--seed", "3"}},
	} {
		cells := []string{row.label}
		for _, tr := range traces {
			for _, kinds := range []bool{false, true} {
				cells = append(cells, cell(row.fitOn, tr, kinds))
			}
		}
		if want := "| " + strings.Join(cells, " | ") + " |"; !strings.Contains(page, "\n"+want+"\n") {
			t.Errorf("docs/fidelity.md lacks the row\n%s", want)
		}
	}
}

// fidelityDocImport imports the two tau2 runs of docs/fidelity.md into the
// working directory as the page's commands do, and returns their files.
func fidelityDocImport(t *testing.T) []string {
	t.Helper()
	board := shareddata.Path(t, "sessions", "tau2-bench", "web", "leaderboard", "public")
	tools := filepath.Join(board, "task-data", "tools-data.json")
	traces := []struct{ file, src string }{
		{"tau2-telecom.jsonl.gz", shareddata.Path(t, "sessions", "tau2-bench", "data", "simulations", "2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json")},
		{"tau2-airline.jsonl.gz", filepath.Join(board, "submissions", "gpt-oss-120b_openai_2025-11-26", "trajectories", "langchain_agent_airline_2025-11-26_00-37-06.json")},
	}
	var files []string
	for _, tr := range traces {
		if stdout, stderr, code := cliRun(t, "trace", "import", "--from", "tau2", tr.src, "--tools", tools, "-o", tr.file); code != 0 {
			t.Fatalf("import %s: exit %d\n%s%s", tr.file, code, stdout, stderr)
		}
		files = append(files, tr.file)
	}
	return files
}

// fidelityDocModel is the part of calibrate's JSON for one model that
// docs/fidelity.md's tables quote.
type fidelityDocModel struct {
	FitSessions     int `json:"fit_sessions"`
	HeldOutSessions int `json:"held_out_sessions"`
	Latency         struct {
		Params []struct {
			Name   string  `json:"name"`
			Value  float64 `json:"value"`
			Fitted bool    `json:"fitted"`
			Note   string  `json:"note"`
		} `json:"params"`
		JitterCV float64 `json:"fitted_jitter_cv"`
	} `json:"latency"`
	HeldOut fidelityDocEval `json:"held_out_latency"`
	// Overhead is the prompt-overhead fit, absent when no request
	// records usage.
	Overhead *struct {
		After struct {
			Median float64 `json:"input_median_abs_rel_err"`
			P90    float64 `json:"input_p90_abs_rel_err"`
		} `json:"held_out_after"`
		KS float64 `json:"held_out_ks"`
	} `json:"overhead"`
}

// fidelityDocEval is calibrate's held-out evaluation as the page quotes it.
type fidelityDocEval struct {
	calibrateDocEval
	Before        fidelityDocErr `json:"requests_before"`
	KSBefore      float64        `json:"request_ks_before"`
	KSJitter      float64        `json:"request_ks_jitter"`
	InSample      fidelityDocErr `json:"in_sample"`
	RSquaredLog   float64        `json:"r_squared_log"`
	FirstReplyAll fidelityDocErr `json:"first_reply"`
	FirstKS       float64        `json:"first_reply_ks"`
	FirstKSJitter float64        `json:"first_reply_ks_jitter"`
	ByKind        []struct {
		Kind     string `json:"kind"`
		Requests int    `json:"requests"`
	} `json:"by_kind"`
	WorstTenth []struct {
		Kind     string `json:"kind"`
		Requests int    `json:"requests"`
	} `json:"worst_tenth_by_kind"`
}

// fidelityDocErr is a median and p90 |relative error|.
type fidelityDocErr struct {
	Median float64 `json:"median_abs_rel_err"`
	P90    float64 `json:"p90_abs_rel_err"`
}

// fidelityDocCalibrate runs calibrate on trace (airline priced as gpt-4o,
// as the page does) with --fit-on fitOn and --kinds=kinds, and returns its
// one model group.
func fidelityDocCalibrate(t *testing.T, trace string, kinds bool, fitOn ...string) fidelityDocModel {
	t.Helper()
	args := append([]string{"calibrate", trace, "--allow-unresolved", "--fit-on"}, fitOn...)
	if strings.Contains(trace, "airline") {
		args = append(args, "--model", "gpt-4o")
	}
	args = append(args, fmt.Sprintf("--kinds=%v", kinds), "--json", "cal.json", "-o", filepath.Join("out", "cal.yaml"))
	if stdout, stderr, code := cliRun(t, args...); code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
	}
	var cal struct {
		Models []fidelityDocModel `json:"models"`
	}
	readJSON(t, "cal.json", &cal)
	if len(cal.Models) != 1 {
		t.Fatalf("%v: %d model groups", args, len(cal.Models))
	}
	return cal.Models[0]
}

// TestFidelityDocMainTable recomputes the rows of docs/fidelity.md's main
// table ("Calibrated, judged on held-apart sessions", fit on even
// positions) that TestFidelityDocSplits does not: the sessions, the KS with
// fitted jitter, the preset's constants, the share of log-time variance
// left unexplained (1 − R² of log times), the best fit on the held-out
// requests, the first replies and the fitted parameters, for both runs
// with one overhead and with request kinds, and the prompt-token row (the
// prompt-overhead fit's held-out error, which had no test). A kinds cell
// reading "same" must equal the one-overhead cell beside it. All rows are
// current.
func TestFidelityDocMainTable(t *testing.T) {
	if testing.Short() {
		t.Skip("4 calibrations of the real tau2 runs, about 5 s (-short)")
	}
	_, page := docPage(t, "fidelity.md")
	t.Chdir(t.TempDir())
	pct := func(e fidelityDocErr) string { return fmt.Sprintf("%.1f%%, %.1f%%", 100*e.Median, 100*e.P90) }
	// num writes a fitted value as calibrate prints it; a value at its
	// bound is marked so, and the rate bound of 10^6 tokens/s is written
	// with separators as the page's prose writes it.
	num := func(v float64, note string) string {
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.HasPrefix(note, "at its bound") {
			return s
		}
		if v == math.Trunc(v) {
			s = withCommas(int64(v))
		}
		return s + " (bound)"
	}
	rows := []struct {
		label string
		cell  func(m fidelityDocModel, kinds bool) string
	}{
		{"prompt tokens: median, p90 \\|rel. error\\| (KS)", func(m fidelityDocModel, kinds bool) string {
			switch {
			case m.Overhead != nil:
				return fmt.Sprintf("%s (%.3f)", pct(fidelityDocErr{m.Overhead.After.Median, m.Overhead.After.P90}), m.Overhead.KS)
			case kinds:
				return "—"
			}
			return "— (no usage recorded)"
		}},
		{"sessions fitted on / judged on", func(m fidelityDocModel, _ bool) string {
			return fmt.Sprintf("%d / %d", m.FitSessions, m.HeldOutSessions)
		}},
		{"request time: KS, deterministic / with fitted jitter", func(m fidelityDocModel, _ bool) string {
			return fmt.Sprintf("%.3f / %.3f", m.HeldOut.RequestKS, m.HeldOut.KSJitter)
		}},
		{"request time with the preset's constants: median, p90 (KS)", func(m fidelityDocModel, _ bool) string {
			return fmt.Sprintf("%s (%.3f)", pct(m.HeldOut.Before), m.HeldOut.KSBefore)
		}},
		{"share of the variance of log times not explained (1 − R² of log times)", func(m fidelityDocModel, _ bool) string {
			return fmt.Sprintf("%.0f%%", 100*(1-m.HeldOut.RSquaredLog))
		}},
		{"best fit on the held-out requests themselves: median, p90", func(m fidelityDocModel, _ bool) string {
			return pct(m.HeldOut.InSample)
		}},
		{"first reply: median, p90 \\|rel. error\\| (KS; with jitter)", func(m fidelityDocModel, _ bool) string {
			return fmt.Sprintf("%s (%.3f; %.3f)", pct(m.HeldOut.FirstReplyAll), m.HeldOut.FirstKS, m.HeldOut.FirstKSJitter)
		}},
		{"fitted overhead_ms, prefill, cached prefill, decode (tokens/s)", func(m fidelityDocModel, _ bool) string {
			var vs []string
			for _, p := range m.Latency.Params[:4] {
				vs = append(vs, num(p.Value, p.Note))
			}
			return strings.Join(vs, ", ")
		}},
		{"fitted kind_ms: turn_text, turn_call, tool_text, tool_call, repeat", func(m fidelityDocModel, kinds bool) string {
			if !kinds {
				return "—"
			}
			var vs []string
			for _, p := range m.Latency.Params[4:] {
				v := num(p.Value, p.Note)
				if !p.Fitted {
					v = "— (none in the fit set)"
				}
				vs = append(vs, v)
			}
			return strings.Join(vs, ", ")
		}},
		{"fitted jitter_cv (not written without `--jitter`)", func(m fidelityDocModel, _ bool) string {
			return fmt.Sprintf("%.2f", m.Latency.JitterCV)
		}},
	}
	var models []fidelityDocModel // telecom, then airline; one overhead, then request kinds
	for _, tr := range fidelityDocImport(t) {
		for _, kinds := range []bool{false, true} {
			models = append(models, fidelityDocCalibrate(t, tr, kinds, "even"))
		}
	}
	fidelityDocWorstTenth(t, page, models[3])
	table := docTableRows(page, 5)
	for _, row := range rows {
		cells, ok := table[row.label]
		if !ok {
			t.Errorf("docs/fidelity.md has no row %q", row.label)
			continue
		}
		for i, m := range models {
			want, got := row.cell(m, i%2 == 1), strings.ReplaceAll(cells[i], "**", "")
			if got == "same" && i%2 == 1 {
				got = strings.ReplaceAll(cells[i-1], "**", "")
			}
			if got != want {
				t.Errorf("%s, column %d: the page says %q, calibrate gives %q", row.label, i+1, cells[i], want)
			}
		}
	}
}

// fidelityDocWorstTenth checks docs/fidelity.md's "What is left after the
// kind terms" against airline's calibration with request kinds (m, fit on
// even positions, its scenario in out/cal.yaml): the worst tenth's size and
// kinds as calibrate prints them, the repeated calls' share of the
// held-out requests, and — from replaying the written scenario with
// --per-request — the one session holding most of the worst tenth, with
// its recorded and predicted times. The page said "about 0.6 s" and "about
// 1.2 s" for times of 0.47–0.59 s predicted at 1.10–1.31 s; the counts
// were current.
func fidelityDocWorstTenth(t *testing.T, page string, m fidelityDocModel) {
	t.Helper()
	prose := docProse(page)
	worst := map[string]int{}
	total := 0
	for _, k := range m.HeldOut.WorstTenth {
		worst[k.Kind] = k.Requests
		total += k.Requests
	}
	repeats := 0
	for _, k := range m.HeldOut.ByKind {
		if k.Kind == "repeat" {
			repeats = k.Requests
		}
	}
	if stdout, stderr, code := cliRun(t, "run", filepath.Join("out", "cal.yaml"), "-o", "replay", "--per-request", "pairs.csv", "--no-report", "-q"); code != 0 {
		t.Fatalf("run out/cal.yaml: exit %d\n%s%s", code, stdout, stderr)
	}
	raw, err := os.ReadFile("pairs.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ rec, sim float64 }
	bySession := map[string][]pair{}
	var n int
	for _, r := range rows[1:] { // session,request,recorded_input_tokens,sim_input_tokens,recorded_ms,sim_ms
		rec, err1 := strconv.ParseFloat(r[4], 64)
		sim, err2 := strconv.ParseFloat(r[5], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("pairs.csv: %v", r)
		}
		n++
		if math.Abs(sim-rec)/rec >= m.HeldOut.Requests.P90 {
			bySession[r[0]] = append(bySession[r[0]], pair{rec, sim})
		}
	}
	var loop []pair
	for _, ps := range bySession {
		if len(ps) > len(loop) {
			loop = ps
		}
	}
	recMin, recMax, simMin, simMax := math.Inf(1), 0.0, math.Inf(1), 0.0
	for _, p := range loop {
		recMin, recMax, simMin, simMax = min(recMin, p.rec), max(recMax, p.rec), min(simMin, p.sim), max(simMax, p.sim)
	}
	for _, want := range []string{
		fmt.Sprintf("the %d held-out requests whose error is at least the p90 figure are %d repeated calls, %d first requests of a turn answered in text, %d tool calls and %d first request calling tools;",
			total, worst["repeat"], worst["turn_text"], worst["tool_call"], worst["turn_call"]),
		fmt.Sprintf("%d of them are one session's loop of transfer calls that take %.2f–%.2f s and are predicted at %.2f–%.2f s",
			len(loop), recMin/1000, recMax/1000, simMin/1000, simMax/1000),
		fmt.Sprintf("Repeated calls are %d of the %d requests", repeats, n),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/fidelity.md does not say %q", want)
		}
	}
}

// TestFidelityDocTelecomRun pins docs/fidelity.md's telecom table: the
// page's import and scenario (its heredoc, checked verbatim) run as the
// page runs them, and again without the params block (default params),
// give the two rows' requests, median, p90 and mean signed input-token
// errors, the second row's mean per-request offset (the page said "~420
// tokens" for 404) and the latency error with the preset's constants.
func TestFidelityDocTelecomRun(t *testing.T) {
	_, page := docPage(t, "fidelity.md")
	t.Chdir(t.TempDir())
	const scenario = "name: fidelity-tau2-telecom\nseed: 1\ntraces: [telecom.jsonl.gz]\ncatalogs: [telecom.jsonl.gz.catalog]\nmodel: gpt-4o\nparams:\n  request_overhead_tokens: 0\nstrategies: [eager]\n"
	if !strings.Contains(page, "cat > fid.yaml <<'YAML'\n"+scenario+"YAML\n") {
		t.Fatalf("docs/fidelity.md no longer writes the scenario\n%s", scenario)
	}
	tau := shareddata.Path(t, "sessions", "tau2-bench")
	if stdout, stderr, code := cliRun(t, "trace", "import", "--from", "tau2",
		filepath.Join(tau, "data", "simulations", "2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json"),
		"--tools", filepath.Join(tau, "derived", "tools_telecom.json"), "-o", "telecom.jsonl.gz"); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, stdout, stderr)
	}
	type fidelity struct {
		Requests int     `json:"requests"`
		Median   float64 `json:"input_median_abs_rel_err"`
		P90      float64 `json:"input_p90_abs_rel_err"`
		Mean     float64 `json:"input_mean_rel_err"`
		Latency  float64 `json:"latency_median_abs_rel_err"`
	}
	// run replays the scenario text and returns run.fidelity and the
	// mean simulated − recorded input tokens of its pairs.
	run := func(name, text string) (fidelity, float64) {
		t.Helper()
		if err := os.WriteFile(name+".yaml", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if stdout, stderr, code := cliRun(t, "run", name+".yaml", "-o", name, "--per-request", name+".csv", "--no-report", "--allow-unresolved", "-q"); code != 0 {
			t.Fatalf("run %s: exit %d\n%s%s", name, code, stdout, stderr)
		}
		var res struct {
			Run struct {
				Fidelity fidelity `json:"fidelity"`
			} `json:"run"`
		}
		readJSON(t, filepath.Join(name, "results.json"), &res)
		f, err := os.Open(name + ".csv")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, r := range rows[1:] { // session,request,recorded_input_tokens,sim_input_tokens,…
			rec, err1 := strconv.ParseFloat(r[2], 64)
			sim, err2 := strconv.ParseFloat(r[3], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s.csv: %v", name, r)
			}
			sum += sim - rec
		}
		return res.Run.Fidelity, sum / float64(len(rows)-1)
	}
	zero, _ := run("fid", scenario)
	def, offset := run("fid-default", strings.Replace(scenario, "params:\n  request_overhead_tokens: 0\n", "", 1))
	rows := docTableRows(page, 5)
	for _, c := range []struct {
		label, want string
	}{
		{"`gpt-4o`, `request_overhead_tokens: 0`", fmt.Sprintf("%d | **%.2f%%** | **%.2f%%** | %+.2f%%", zero.Requests, 100*zero.Median, 100*zero.P90, 100*zero.Mean)},
		{"default params (`request_overhead_tokens: 346`)", fmt.Sprintf("%d | %.1f%% | %.1f%% | %+.1f%%", def.Requests, 100*def.Median, 100*def.P90, 100*def.Mean)},
	} {
		if got := strings.Join(rows[c.label], " | "); got != c.want {
			t.Errorf("row %s: the page says %q, the run gives %q", c.label, got, c.want)
		}
	}
	prose := docProse(page)
	for _, want := range []string{
		fmt.Sprintf("the mean per-request offset of %.0f tokens in the second row", offset),
		fmt.Sprintf("with the preset's constants does not match (median |rel. error| %.0f%%)", 100*zero.Latency),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/fidelity.md does not say %q", want)
		}
	}
}
