package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/privacytest"
)

// canaryTraceCopies is canaryTrace with its sessions repeated copies times
// under new ids, with recorded timings and usage varied per copy
// (commands that split sessions or fit a regression need that).
func canaryTraceCopies(cs *privacytest.Set, copies int) []byte {
	base := string(canaryTrace(cs, false))
	num := regexp.MustCompile(`"(duration_ms|ttft_ms|input|output|cache_read)":(\d+)`)
	var b strings.Builder
	for i := range copies {
		s := num.ReplaceAllStringFunc(base, func(m string) string {
			k, v, _ := strings.Cut(m, ":")
			n, _ := strconv.Atoi(v)
			return k + ":" + strconv.Itoa(n+(i*i*37+len(k)*i*13)%997)
		})
		for _, id := range []string{"sess-a", "sess-b", "sess-c"} {
			s = strings.ReplaceAll(s, `"session":"`+id+`"`, `"session":"`+id+`-`+string(rune('a'+i%26))+string(rune('a'+i/26))+`"`)
		}
		b.WriteString(s)
	}
	return []byte(b.String())
}

// TestEveryWritingCommandWritesNoSessionContent pins issue 18.3: plan
// --growth wrote DIR/tools=N/trace.jsonl.gz, a full copy of the trace, and
// the canary test covered run and report only. Every other command that
// writes files from sessions — plan (with --growth), sweep, run --shard and
// merge, recommend (-o, --json, --results), calibrate (-o, --json) and check
// --markdown — runs here over a trace with a canary in every content
// field, and no file it writes (nor anything it prints) holds one.
// (trace import and trace gen write traces, calibrate -o the held-out
// sessions its scenario replays, and catalog snapshot catalogs, by design.)
func TestEveryWritingCommandWritesNoSessionContent(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the canary trace under several commands")
	}
	cs := privacytest.NewSet("ca")
	in := t.TempDir()
	cats := filepath.Join(in, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	canaryCatalog(t, cs, cats)
	trace := filepath.Join(in, "trace.jsonl")
	if err := os.WriteFile(trace, canaryTraceCopies(cs, 12), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(in, "scenario.yaml")
	if err := os.WriteFile(scen, []byte(canaryScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := cs.ScanDir(in)
	fields := map[string]bool{}
	for _, l := range found {
		fields[l.Field] = true
	}
	if err != nil || len(fields) != len(cs.Fields()) {
		t.Fatalf("the inputs hold %d of %d canaries (%v)", len(fields), len(cs.Fields()), err)
	}
	out := t.TempDir()
	o := func(name string) string { return filepath.Join(out, name) }
	printed := map[string]string{}
	for _, args := range [][]string{
		{"run", scen, "-o", o("run"), "--bootstrap", "20"},
		{"plan", o("run/results.json"), "--sessions-per-day", "1000", "--growth", "1,2", "--scenario", scen, "--bootstrap", "20", "-o", o("plan")},
		{"sweep", scen, "--param", "params.cold_call_prob=0:0.5:0.5", "--bootstrap", "20", "-o", o("sweep")},
		{"run", scen, "--shard", "0/2", "--no-report", "--bootstrap", "20", "-o", o("shard0")},
		{"run", scen, "--shard", "1/2", "--no-report", "--bootstrap", "20", "-o", o("shard1")},
		{"merge", o("merged"), o("shard0"), o("shard1")},
		{"recommend", trace, "--catalogs", cats, "--scenario", scen, "--bootstrap", "20",
			"-o", o("rec/strategy.yaml"), "--json", o("rec/proposal.json"), "--results", o("rec/results.json")},
		{"calibrate", trace, "--catalogs", cats, "--scenario", scen, "-o", o("cal/snippet.yaml"), "--json", o("cal/calibration.json")},
		{"check", "--baseline", o("run/results.json"), o("merged/results.json"), "--markdown", o("check.md")},
	} {
		if err := os.MkdirAll(filepath.Join(out, "rec"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(out, "cal"), 0o755)
		stdout, stderr, code := cliRun(t, args...)
		name := strings.Join(args[:2], " ")
		printed[name+" stdout"], printed[name+" stderr"] = stdout, stderr
		if code > 1 {
			t.Errorf("%s: exit %d\n%s%s", name, code, stdout, stderr)
		}
	}
	// calibrate -o writes the held-out sessions its scenario replays beside
	// it (a trace, by design, as trace import writes one): it must hold the
	// session content; everything else must not.
	heldOut := o("cal/snippet.held-out.jsonl.gz")
	if leaks, err := cs.ScanDir(filepath.Dir(heldOut)); err != nil || len(leaks) == 0 {
		t.Errorf("calibrate's held-out trace holds no session content (%v): the scan could not see it", err)
	}
	if err := os.Remove(heldOut); err != nil {
		t.Fatalf("calibrate -o wrote no held-out trace: %v", err)
	}
	files, err := privacytest.Files(out)
	if err != nil {
		t.Fatal(err)
	}
	list := "," + strings.Join(files, ",") + ","
	for _, want := range []string{"plan/plan.json", "plan/tools=", "sweep/sweep.json", "merged/results.json",
		"rec/strategy.yaml", "rec/proposal.json", "rec/results.json", "cal/calibration.json", "check.md"} {
		if !strings.Contains(list, ","+want) {
			t.Errorf("no output %s* (files: %v): the scan would not cover it", want, files)
		}
	}
	if strings.Contains(list, ".jsonl") {
		t.Errorf("a command wrote a trace: %v", files)
	}
	assertNoLeak(t, cs, []string{out}, printed)
}
