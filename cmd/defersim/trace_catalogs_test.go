package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// TestTraceCommandsNameRunsCatalogs pins that `trace stats`, `trace
// validate` and `run --traces FILE` resolve tools against the same
// catalogs and name them alike (run's catalogs assumption, "FROM: PATHS"):
// the trace's own catalog and --catalogs when given (a trace with none:
// TestTraceCommandsSayRunWouldStopWithoutCatalog, where all three stop or
// say run would). stats fell back to nothing when the trace named no
// catalog (it counted no unserved call and named no catalog), and had no
// --catalogs.
func TestTraceCommandsNameRunsCatalogs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions")
	}
	dir := t.TempDir()
	// The default scenario's catalog, copied to disk: the trace's own in
	// one case, --catalogs in another.
	own := filepath.Join(dir, "own.catalog")
	emb := embeddedData()
	err := fs.WalkDir(emb, "catalog", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(emb, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(own, strings.TrimPrefix(p, "catalog"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		meta     map[string]string
		catalogs []string // --catalogs
		from     string
	}{
		{"its own catalog", map[string]string{"catalog": "own.catalog"}, nil, runner.CatalogsFromTraces},
		{"--catalogs", nil, []string{own}, runner.CatalogsFromFlag},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			trace := filepath.Join(dir, tc.name[:4]+".jsonl")
			predictTrace(t, trace, []int{3, 2}, []int{1, 0}, "", tc.meta)
			var flag []string
			if tc.catalogs != nil {
				flag = []string{"--catalogs", strings.Join(tc.catalogs, ",")}
			}

			sout, serr, code := cliRun(t, append([]string{"trace", "stats", "--format", "json", trace}, flag...)...)
			var st statsReport
			if err := json.Unmarshal([]byte(sout), &st); code != 0 || err != nil {
				t.Fatalf("stats exit %d: %v\n%s%s", code, err, sout, serr)
			}
			stats := st.CatalogsFrom + ": " + strings.Join(st.Catalogs, ", ")
			if st.UnservedCalls != 1 {
				t.Errorf("stats: %d calls not served, want the 1 call of no_such_tool", st.UnservedCalls)
			}
			text, _, _ := cliRun(t, append([]string{"trace", "stats", trace}, flag...)...)
			if !strings.Contains(text, "\ncatalogs: "+stats+"\n") {
				t.Errorf("stats' text does not name its catalogs %q:\n%s", stats, text)
			}

			vout, verr, _ := cliRun(t, append([]string{"trace", "validate", "--format", "json", trace}, flag...)...)
			var vr validateReport
			if err := json.Unmarshal([]byte(vout), &vr); err != nil || len(vr.Files) != 1 {
				t.Fatalf("validate: %v\n%s%s", err, vout, verr)
			}
			validate := vr.Files[0].CatalogsFrom + ": " + vr.Files[0].Catalog
			if tc.catalogs != nil {
				validate = vr.CatalogsFrom + ": " + vr.Catalog
			}

			out := filepath.Join(dir, "out"+string(rune('0'+i)))
			rout, rerr, rcode := cliRun(t, append([]string{"run", "--traces", trace, "--strategies", "eager", "--bootstrap", "-1",
				"-q", "--no-report", "--allow-unresolved", "-o", out}, flag...)...)
			if rcode != 0 {
				t.Fatalf("run exit %d\n%s%s", rcode, rout, rerr)
			}
			var res struct {
				Run struct {
					Assumptions []struct{ Name, Value string } `json:"assumptions"`
				} `json:"run"`
			}
			readJSON(t, filepath.Join(out, "results.json"), &res)
			run := ""
			for _, a := range res.Run.Assumptions {
				if a.Name == "catalogs" {
					run = a.Value
				}
			}
			if !strings.HasPrefix(run, tc.from+": ") {
				t.Errorf("run's catalogs %q, want from %q", run, tc.from)
			}
			if stats != run || validate != run {
				t.Errorf("catalogs named differently:\nstats    %q\nvalidate %q\nrun      %q", stats, validate, run)
			}
		})
	}
}
