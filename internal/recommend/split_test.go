package recommend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/traces"
)

// TestSplitRepointsTheCatalog pins that a session written to another
// directory (--held-out, --training) names the catalog directory its
// source named: a relative "catalog" meta is relative to its trace file,
// and copied as it was it pointed at nothing beside the new file.
func TestSplitRepointsTheCatalog(t *testing.T) {
	for _, tc := range []struct {
		name, from, out, ref, want string
	}{
		{"sibling directory", "logs/t.jsonl", "out/held.jsonl.gz", "t.catalog", "../logs/t.catalog"},
		{"same directory", "logs/t.jsonl", "logs/held.jsonl", "cat", "cat"},
		{"absolute, kept", "logs/t.jsonl", "out/held.jsonl", "/data/cat", "/data/cat"},
		{"none", "logs/t.jsonl", "out/held.jsonl", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta := map[string]string{"k": "v"}
			if tc.ref != "" {
				meta[traces.MetaCatalog] = tc.ref
			}
			s := &traces.Session{Events: []traces.Event{{Type: traces.SessionStart, StartFields: &traces.StartFields{Meta: meta}}, {Type: traces.SessionEnd}}}
			repointCatalog(s, filepath.FromSlash(tc.from), filepath.FromSlash(tc.out), func(msg string) { t.Errorf("warned: %s", msg) })
			if got := s.Events[0].Meta()[traces.MetaCatalog]; got != tc.want || s.Events[0].Meta()["k"] != "v" {
				t.Errorf("catalog meta %q (meta %v), want %q", got, s.Events[0].Meta(), tc.want)
			}
			if tc.ref != "" && meta[traces.MetaCatalog] != tc.ref {
				t.Errorf("the source's meta changed to %q: sessions share their start fields", meta[traces.MetaCatalog])
			}
		})
	}
}

// TestSplitDropsAnUnpointableCatalog pins that a split file to which no
// relative path leads from the catalog its source named (here: the
// working directory is gone, so relative paths have no absolute form)
// gets no "catalog" meta and a warning naming the --catalogs run will
// need: it got the path as given, relative to a directory that is gone
// (and, when only filepath.Rel failed, a machine's absolute path).
func TestSplitDropsAnUnpointableCatalog(t *testing.T) {
	removeWorkingDir(t)
	meta := map[string]string{traces.MetaCatalog: "cat", "k": "v"}
	s := &traces.Session{Events: []traces.Event{{Type: traces.SessionStart, StartFields: &traces.StartFields{Meta: meta}}, {Type: traces.SessionEnd}}}
	var warnings []string
	warn := warned(func(msg string) { warnings = append(warnings, msg) })
	repointCatalog(s, filepath.Join("logs", "t.jsonl"), filepath.Join("out", "held.jsonl"), warn)
	repointCatalog(s, filepath.Join("logs", "t.jsonl"), filepath.Join("out", "held.jsonl"), warn)
	if got, ok := s.Events[0].Meta()[traces.MetaCatalog]; ok || s.Events[0].Meta()["k"] != "v" {
		t.Errorf("catalog meta %q kept (meta %v), want it dropped", got, s.Events[0].Meta())
	}
	want := "will need --catalogs " + filepath.Join("logs", "cat")
	if len(warnings) != 1 || !strings.Contains(warnings[0], want) {
		t.Errorf("warnings %q, want one holding %q", warnings, want)
	}
}

// removeWorkingDir makes the working directory, for the rest of the test,
// one that no longer exists, so that filepath.Abs of a relative path
// fails; it skips the test where the platform still answers.
func removeWorkingDir(t *testing.T) {
	t.Helper()
	gone := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(gone)
	if err := os.Remove(gone); err != nil {
		t.Skipf("cannot remove the working directory: %v", err)
	}
	if _, err := filepath.Abs("x"); err == nil {
		t.Skip("filepath.Abs answers in a removed working directory here")
	}
}

// TestHeldOutFileUpgrades pins what docs/recommend.md says of a scenario's
// upgrades when the held-out file is replayed: an after_session upgrade
// counts the sessions of the file replayed, so on the held-out file it
// moves other sessions than in a run of the whole trace selecting the
// same sessions, and the figures differ; an at: upgrade (trace time) moves
// the same sessions, and they agree.
func TestHeldOutFileUpgrades(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the sample trace four times (-short)")
	}
	trace := filepath.Join("..", "..", "scenarios", "default", "trace.jsonl.gz")
	cat := filepath.Join("..", "..", "scenarios", "default", "catalog")
	cfg := defaultConfig(t, trace, cat)
	cfg.Seed, cfg.Presets, cfg.Bootstrap = 42, []string{"eager"}, -1
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	held := filepath.Join(t.TempDir(), "held.jsonl")
	n, err := WriteSplit(held, held, runner.PathSources(trace), p, true, nil)
	if err != nil || n != p.HeldOut || n == 0 {
		t.Fatalf("wrote %d sessions (%v), held out %d", n, err, p.HeldOut)
	}
	// The start of the whole trace's 150th session: an at: upgrade there
	// moves the sessions from it on, in both files.
	var at string
	i := 0
	for s, err := range runner.SessionsByPath(runner.PathSources(trace), traces.ReadOptions{})(trace) {
		if err != nil {
			t.Fatal(err)
		}
		if i == 150 {
			at = s.Events[0].T.UTC().Format(time.RFC3339)
			break
		}
		i++
	}
	cost := func(upgrade string, tr string, sel func(string) bool) float64 {
		t.Helper()
		doc := fmt.Sprintf("name: up\nseed: 42\ntraces: [%q]\ncatalogs: [%q]\nmodel: %s\nstrategies: [eager]\nservers:\n  kb: {upgrades: [{to: \"3.0.0\", %s}]}\n",
			tr, cat, cfg.Model.Name, upgrade)
		sc, err := scenarios.Parse([]byte(doc), "up.yaml", "")
		if err != nil {
			t.Fatalf("%v\n%s", err, doc)
		}
		rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rc.Bootstrap, rc.Select = -1, sel
		out, err := runner.Run(context.Background(), rc)
		if err != nil {
			t.Fatal(err)
		}
		if out.Results.Sessions != p.HeldOut {
			t.Fatalf("%s: replayed %d sessions, want the %d held out", upgrade, out.Results.Sessions, p.HeldOut)
		}
		return out.Results.Strategy("eager").Metrics["cost_usd"].Mean
	}
	for _, tc := range []struct {
		upgrade string
		same    bool
	}{{"after_session: 50", false}, {"at: " + at, true}} {
		whole, file := cost(tc.upgrade, trace, p.IsHeldOut), cost(tc.upgrade, held, nil)
		if (whole == file) != tc.same {
			t.Errorf("%s: the whole trace's held-out sessions cost %v, the held-out file %v: want them %s", tc.upgrade, whole, file, map[bool]string{true: "equal", false: "different"}[tc.same])
		}
	}
}
