package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/atomicfile"
)

// TestGrowthPointsNameTheirCatalogWhereItIs pins that a growth point's
// results.json named its grown catalog by the staging directory plan
// wrote it in (OUT/.defersim-new-834506049/tools=267/catalog, a random
// name, gone after the rename): two identical `plan --growth` runs wrote
// different results, and the paths led nowhere. They now name the
// catalog at its final path, which exists, and two runs into directories
// of the same name write the same bytes.
func TestGrowthPointsNameTheirCatalogWhereItIs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "12")
	runDir := filepath.Join(t.TempDir(), "run")
	if out, errs, code := cliRun(t, "run", "--traces", trace, "--catalogs", cat, "--strategies", "eager,claude-code-default",
		"-o", runDir, "--no-report", "--bootstrap", "-1"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	// plan writes a growth series under parent/plan and returns that
	// directory and each point's results.json, by point.
	plan := func(parent string) (string, map[string][]byte) {
		out := filepath.Join(parent, "plan")
		if o, errs, code := cliRun(t, "plan", filepath.Join(runDir, "results.json"), "--sessions-per-day", "100", "--growth", "1,2",
			"--bootstrap", "-1", "--traces", trace, "--catalogs", cat, "-o", out); code != 0 {
			t.Fatalf("plan: exit %d\n%s%s", code, o, errs)
		}
		points, err := filepath.Glob(filepath.Join(out, "tools=*", "results.json"))
		if err != nil || len(points) != 2 {
			t.Fatalf("growth points %v (%v), want 2", points, err)
		}
		byPoint := map[string][]byte{}
		for _, p := range points {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			byPoint[filepath.Base(filepath.Dir(p))] = data
		}
		return out, byPoint
	}
	// Both series are written to a directory named "plan" under their
	// parent: with the parents' names taken out, the results are equal.
	a, b := t.TempDir(), t.TempDir()
	outA, pointsA := plan(a)
	_, pointsB := plan(b)
	grownFiles := 0
	for point, dataA := range pointsA {
		if s := string(dataA); strings.Contains(s, atomicfile.StagePrefix) {
			t.Errorf("%s: results.json names the staging directory: …%s…", point, excerpt(s, atomicfile.StagePrefix))
		}
		if strings.ReplaceAll(string(dataA), a, "") != strings.ReplaceAll(string(pointsB[point]), b, "") {
			t.Errorf("%s: two identical plan --growth runs wrote different results", point)
		}
		var res struct {
			Run struct {
				Inputs []struct{ Kind, Path string }
			}
		}
		if err := json.Unmarshal(dataA, &res); err != nil {
			t.Fatal(err)
		}
		for _, in := range res.Run.Inputs {
			if !strings.HasPrefix(in.Path, outA) {
				continue
			}
			grownFiles++
			if _, err := os.Stat(in.Path); err != nil {
				t.Errorf("%s: input %s %s: %v", point, in.Kind, in.Path, err)
			}
		}
	}
	if grownFiles == 0 {
		t.Errorf("no input of any growth point lies under %s", outA)
	}
}

// excerpt is s around the first occurrence of sub.
func excerpt(s, sub string) string {
	i := strings.Index(s, sub)
	return s[max(0, i-80):min(len(s), i+80)]
}
