package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRecommendReproducesTheValidation pins the loop docs/recommend.md
// ("Reproducing the validation") gives, running its lines as written:
// recommend had no way to write the sessions its validation replayed (the
// split is a hash of the session id), so its figures could not be checked
// by run. The run of --held-out's file under the scenario with the snippet
// pasted in, at recommend's seed and catalogs, must give every metric's
// mean of every strategy the two share as the validation did, and the
// proposal's cost per session the doc states; the file must hold the
// validation's sessions, no more.
func TestRecommendReproducesTheValidation(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the sample trace under 13 strategies, twice (-short)")
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "recommend.md"))
	if err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sec := string(doc)
	i := strings.Index(sec, "## Reproducing the validation")
	if i < 0 {
		t.Fatal("docs/recommend.md has no section Reproducing the validation")
	}
	m := regexp.MustCompile("(?s)```\n(.*?)```").FindStringSubmatch(sec[i:])
	if m == nil {
		t.Fatal("the section has no command block")
	}
	// The doc's lines run from the repository's root: the temporary
	// directory lends them its scenarios/ and takes their out/.
	t.Chdir(t.TempDir())
	if err := os.Symlink(filepath.Join(repo, "scenarios"), "scenarios"); err != nil {
		t.Fatal(err)
	}
	shell := map[string]func() error{
		`sed 's/^/  /' out/recommended.yaml > out/indented.yaml`: func() error {
			b, err := os.ReadFile("out/recommended.yaml")
			if err != nil {
				return err
			}
			var ind strings.Builder
			for _, l := range strings.SplitAfter(string(b), "\n") {
				if l != "" {
					ind.WriteString("  " + l)
				}
			}
			return os.WriteFile("out/indented.yaml", []byte(ind.String()), 0o644)
		},
		`sed '/^strategies:$/r out/indented.yaml' scenarios/default.yaml > out/reproduce.yaml`: func() error {
			sc, err := os.ReadFile("scenarios/default.yaml")
			if err != nil {
				return err
			}
			ind, err := os.ReadFile("out/indented.yaml")
			if err != nil {
				return err
			}
			out := strings.Replace(string(sc), "\nstrategies:\n", "\nstrategies:\n"+string(ind), 1)
			if out == string(sc) {
				return fmt.Errorf("scenarios/default.yaml has no line strategies:")
			}
			return os.WriteFile("out/reproduce.yaml", []byte(out), 0o644)
		},
	}
	var ran int
	for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
		if f, ok := shell[line]; ok {
			if err := f(); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			ran++
			continue
		}
		args, ok := strings.CutPrefix(line, "defersim ")
		if !ok {
			t.Fatalf("the doc's line %q is neither defersim nor a line this test stands in for", line)
		}
		if out, code := runCLI(t, strings.Fields(args)...); code != 0 {
			t.Fatalf("%s: exit %d\n%s", line, code, out)
		}
		ran++
	}
	if ran != 4 {
		t.Fatalf("ran %d lines, want the doc's 4", ran)
	}
	val, run := strategyMeans(t, "out/validation.json"), strategyMeans(t, "out/reproduce/results.json")
	shared := 0
	for name, vm := range val {
		rm, ok := run[name]
		if !ok {
			continue
		}
		shared++
		if len(rm) != len(vm) {
			t.Errorf("%s: %d metrics in the run, %d in the validation", name, len(rm), len(vm))
		}
		for metric, v := range vm {
			if r, ok := rm[metric]; !ok || r != v {
				t.Errorf("%s %s: the run %v, the validation %v", name, metric, r, v)
			}
		}
	}
	if shared < 10 || val["recommended"] == nil {
		t.Fatalf("%d strategies shared (validation %d, run %d): want the proposal and the presets", shared, len(val), len(run))
	}
	for _, f := range []string{"out/validation.json", "out/reproduce/results.json"} {
		if got := fmt.Sprintf("$%.5f", strategyMeans(t, f)["recommended"]["cost_usd"]); !strings.Contains(sec[i:], "`recommended` costs "+got+" per session") {
			t.Errorf("%s: recommended costs %s per session; the doc does not say so", f, got)
		}
	}
	var v struct {
		Sessions int `json:"sessions"`
	}
	b, err := os.ReadFile("out/validation.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil || v.Sessions == 0 {
		t.Fatalf("validation sessions %d: %v", v.Sessions, err)
	}
	b, err = os.ReadFile("out/reproduce/results.json")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Sessions int `json:"sessions"`
	}
	if err := json.Unmarshal(b, &r); err != nil || r.Sessions != v.Sessions {
		t.Errorf("the run replayed %d sessions, the validation %d (%v)", r.Sessions, v.Sessions, err)
	}
}

// strategyMeans reads a results.json's mean of every metric by strategy.
func strategyMeans(t *testing.T, path string) map[string]map[string]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
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
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]map[string]float64{}
	for _, s := range res.Strategies {
		out[s.Name] = map[string]float64{}
		for k, m := range s.Metrics {
			out[s.Name][k] = m.Mean
		}
	}
	return out
}

// TestRecommendSplitOutputsRefused pins that --held-out and --training
// never overwrite an input (the trace read), that --held-out with
// --test-share 0 stops before the work instead of writing an empty trace,
// and that a refusal writes no output at all.
func TestRecommendSplitOutputsRefused(t *testing.T) {
	trace, err := filepath.Abs(filepath.Join("..", "..", "scenarios", "default", "trace.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	snippet := filepath.Join(dir, "rec.yaml")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"held-out onto the trace", []string{"--held-out", trace}, "refusing to write " + trace},
		{"training onto the trace", []string{"--training", trace}, "refusing to write " + trace},
		{"nothing held out", []string{"--held-out", filepath.Join(dir, "h.jsonl.gz"), "--test-share", "0"}, "--held-out: --test-share 0 holds no session out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runCLIMsg(t, append([]string{"recommend", trace, "-o", snippet}, tc.args...)...)
			if code != 2 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output %q: want exit 2 and %q", code, out, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("a refused command left %v", entries)
			}
		})
	}
}

// runCLIMsg is runCLI with an exit error's message after the output.
func runCLIMsg(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	var ex exitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ex):
		return out.String() + ex.msg, ex.code
	}
	return out.String() + err.Error(), 2
}
