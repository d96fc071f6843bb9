package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runFlagLine is a flag line of `defersim run --help`: "  -o, --out string
// usage (default "x")" or "      --srd strings   usage".
var runFlagLine = regexp.MustCompile(`^\s+(?:-([a-z]), )?--([a-z-]+)(?: [a-z]+)?\s{2,}(.*)$`)

// flagLines returns the lines of a help, each flag's description that the
// help wraps under itself (a line indented deeper than a flag's name)
// joined to its flag's line by a space.
func flagLines(help string) []string {
	var out []string
	for _, line := range strings.Split(help, "\n") {
		if n := len(line) - len(strings.TrimLeft(line, " ")); n > 6 && len(out) > 0 && strings.TrimSpace(line) != "" {
			out[len(out)-1] += " " + strings.TrimSpace(line)
			continue
		}
		out = append(out, line)
	}
	return out
}

// runDefault is the default cobra prints at the end of a usage.
var runDefault = regexp.MustCompile(` \(default (.+)\)$`)

// TestRunFlagsCovered pins that every flag of `defersim run` (its help,
// global flags included) is a flag of defersim-beam: supported with run's
// help text and default, or one of the flags Beam ignores or refuses
// (runflags.go), so that a job moved from run never meets an unknown flag
// and a flag added to run needs a decision here. Before, --srd, --workers,
// -q, --format and six others were unknown flags, and a positional
// scenario was silently dropped.
func TestRunFlagsCovered(t *testing.T) {
	if testing.Short() {
		t.Skip("builds defersim")
	}
	help, _, code := runCommand(t, defersimBinary(t), "run", "--help")
	if code != 0 {
		t.Fatalf("defersim run --help: exit %d", code)
	}
	ownUsage := map[string]bool{ // Beam says more, or other, in its own words
		"out": true, "quiet": true, // required; Beam's log too
		"traces": true, "catalogs": true, "srd": true, // URLs
	}
	notRun := registerRunOnly(flag.NewFlagSet("x", flag.ContinueOnError))
	n := 0
	for _, line := range flagLines(help) {
		m := runFlagLine.FindStringSubmatch(line)
		if m == nil || m[2] == "help" {
			continue
		}
		n++
		short, name, usage := m[1], m[2], m[3]
		f := flag.Lookup(name)
		if f == nil {
			t.Errorf("defersim run --%s is not a flag of defersim-beam", name)
			continue
		}
		if short != "" {
			if s := flag.Lookup(short); s == nil || s.Value.String() != f.Value.String() {
				t.Errorf("defersim run -%s (short for --%s) is not defersim-beam's", short, name)
			}
		}
		if notRun.ignored[name] != nil || notRun.refused[name] != nil {
			continue
		}
		def := ""
		if d := runDefault.FindStringSubmatch(usage); d != nil {
			def, usage = strings.Trim(d[1], `"`), strings.TrimSuffix(usage, d[0])
		}
		switch {
		case ownUsage[name]:
			if name != "out" && name != "quiet" && !strings.HasPrefix(f.Usage, usage) {
				t.Errorf("--%s: defersim-beam's help %q does not start with run's %q", name, f.Usage, usage)
			}
		case f.Usage != usage:
			t.Errorf("--%s: defersim-beam's help %q, run's %q", name, f.Usage, usage)
		}
		if def != "" && name != "out" && f.DefValue != def {
			t.Errorf("--%s: defersim-beam's default %q, run's %q", name, f.DefValue, def)
		}
	}
	if n < 20 {
		t.Fatalf("read %d flags from defersim run --help, want every one:\n%s", n, help)
	}
}

// TestRunOnlyFlags pins what defersim-beam does with run's flags it does
// not carry over, and with run's forms it now takes: an ignored flag runs
// with a note; a refused flag, -o - and a bad --format exit 2 before a
// job starts, naming the flag, and leave no output; -q prints nothing on
// a clean run; --format json prints run's JSON summary; the scenario
// given as the argument, with flags after it, is the one replayed; --model
// replacing the model the scenario file writes is noted in run's words
// (defersim-beam printed no note).
func TestRunOnlyFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds defersim-beam and runs Beam pipelines")
	}
	bin, trace, catalog := beamFixture(t, 6)
	dir := t.TempDir()
	scenario := filepath.Join(dir, "positional.yaml")
	body := "name: positional\ntraces: [" + trace + "]\ncatalogs: [" + catalog + "]\nstrategies: [eager]\n"
	if err := os.WriteFile(scenario, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	opus := filepath.Join(dir, "opus.yaml")
	if err := os.WriteFile(opus, []byte(body+"model: claude-opus-4.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"--traces", trace, "--catalogs", catalog, "--strategies", "eager", "--no-report", "--bootstrap", "-1"}
	for _, tc := range []struct {
		name       string
		args       []string // after --out DIR, unless they hold the argument
		code       int
		stdout     string // a substring ("-": empty)
		stderr     string // a substring ("-": empty)
		noOut      bool
		positional bool
	}{
		{name: "workers ignored", args: []string{"--workers", "3"}, stderr: "note: --workers is ignored: the runner decides"},
		{name: "checkpoint-every ignored", args: []string{"--checkpoint-every", "5"}, stderr: "note: --checkpoint-every is ignored: a Beam job keeps no checkpoint"},
		{name: "quiet", args: []string{"-q", "--workers", "3"}, stdout: "-", stderr: "-"},
		{name: "shard refused", args: []string{"--shard", "0/2"}, code: 2, stderr: "--shard is not supported by defersim-beam", noOut: true},
		{name: "resume refused", args: []string{"--resume", "x"}, code: 2, stderr: "--resume is not supported", noOut: true},
		{name: "sessions-csv refused", args: []string{"--sessions-csv"}, code: 2, stderr: "--sessions-csv is not supported", noOut: true},
		{name: "per-request refused", args: []string{"--per-request", "p.csv"}, code: 2, stderr: "--per-request is not supported", noOut: true},
		{name: "json refused", args: []string{"--json"}, code: 2, stderr: "use --format json", noOut: true},
		{name: "format unknown", args: []string{"--format", "yaml"}, code: 2, stderr: "--format yaml: want text or json", noOut: true},
		{name: "results on stdout refused", args: []string{"-o", "-"}, code: 2, stderr: "-o - (results.json on stdout) is defersim run's only", noOut: true},
		{name: "scenario as the argument", args: []string{scenario, "--bootstrap", "-1", "--no-report"}, stdout: "replayed 6 of 6 sessions", positional: true},
		{name: "--model replaces the scenario's", args: []string{opus, "--model", "gpt-4.1", "--bootstrap", "-1", "--no-report"}, stdout: "replayed 6 of 6 sessions",
			stderr: "defersim-beam: note: --model gpt-4.1 replaces the scenario's model, claude-opus-4.5 (" + opus + ":5: model)\n", positional: true},
		{name: "two scenarios", args: []string{"--scenario", scenario, scenario}, code: 2, stderr: "two scenarios", noOut: true, positional: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"--out", out}, tc.args...)
			if !tc.positional {
				args = append(args, base...)
			}
			stdout, stderr, code := runCommand(t, bin, args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, lastLines([]byte(stderr), 10))
			}
			for _, c := range []struct{ what, got, want string }{{"stdout", stdout, tc.stdout}, {"stderr", stderr, tc.stderr}} {
				if c.want == "-" && c.got != "" || c.want != "-" && !strings.Contains(c.got, c.want) {
					t.Errorf("%s:\n%s\nwant %q", c.what, lastLines([]byte(c.got), 10), c.want)
				}
			}
			_, err := os.Stat(out)
			if tc.noOut && err == nil {
				t.Errorf("%s written after a refusal", out)
			}
			if tc.positional && tc.code == 0 {
				res, err := readResults(t.Context(), out)
				if err != nil {
					t.Fatal(err)
				}
				if res.Run.Scenario != "positional" {
					t.Errorf("replayed scenario %q, want the argument's", res.Run.Scenario)
				}
			}
		})
	}
}

// TestFormatJSONAsRun pins --format json: defersim-beam prints on stdout
// the JSON summary `defersim run --format json` prints (runsummary.JSON),
// but for the output directory's paths, and nothing else.
func TestFormatJSONAsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds defersim and defersim-beam and runs a Beam pipeline")
	}
	bin, trace, catalog := beamFixture(t, 6)
	args := []string{"--traces", trace, "--catalogs", catalog, "--strategies", "eager,claude-code-default", "--bootstrap", "-1", "--format", "json"}
	dir := t.TempDir()
	runOut, runErr, runCode := runCommand(t, defersimBinary(t), append([]string{"run", "-o", filepath.Join(dir, "run")}, args...)...)
	beamOut, beamErr, beamCode := runCommand(t, bin, append([]string{"-o", filepath.Join(dir, "beam")}, args...)...)
	if runCode != 0 || beamCode != 0 {
		t.Fatalf("exit status: run %d, defersim-beam %d\nrun:\n%s\ndefersim-beam:\n%s", runCode, beamCode, runErr, lastLines([]byte(beamErr), 15))
	}
	want := strings.ReplaceAll(runOut, filepath.Join(dir, "run"), filepath.Join(dir, "beam"))
	if beamOut != want {
		t.Errorf("defersim-beam --format json:\n%s\nwant defersim run's:\n%s", beamOut, want)
	}
	var s struct {
		Report string                        `json:"report"`
		Means  map[string]map[string]float64 `json:"strategy_means"`
	}
	if err := json.Unmarshal([]byte(beamOut), &s); err != nil || len(s.Means) != 2 || s.Report == "" {
		t.Errorf("stdout is not the summary of 2 strategies with a report (%v):\n%s", err, beamOut)
	}
}
