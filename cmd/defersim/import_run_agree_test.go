package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
)

// TestImportAndRunCountTheSameCalls pins that, on every shared session
// source, `run --traces` counts each imported call as the import report
// does: calls the report lists without a schema are run's unresolved
// calls, and calls of approximate and missing schemas are run's rows of
// the same names. The SWE-agent import used to disagree: the trajectory
// documenting no command (function_calling_simple.traj) listed swe-agent
// without a version, so run resolved its 5 calls against another
// trajectory's commands (0 unresolved, 153 approximate, 78 missing) where
// the import reported them without schema (149 approximate, 77 missing).
func TestImportAndRunCountTheSameCalls(t *testing.T) {
	sessions := shareddata.Path(t, "sessions")
	glob := func(pattern string) []string {
		m, err := filepath.Glob(filepath.Join(sessions, pattern))
		if err != nil || len(m) == 0 {
			t.Fatalf("no shared file matches %s (%v)", pattern, err)
		}
		return m
	}
	tau2 := filepath.Join(sessions, "tau2-bench")
	tests := []struct {
		name string
		req  importers.Request
	}{
		{"tau-bench", importers.Request{Format: "tau-bench", Inputs: glob("tau-bench/historical_trajectories/gpt-4o-airline.json")}},
		{"tau2", importers.Request{Format: "tau2",
			Inputs:               append(glob("tau2-bench/data/simulations/*.json"), glob("tau2-bench/web/leaderboard/public/submissions/*/trajectories/*.json")...),
			ApproximateToolFiles: []string{filepath.Join(tau2, "derived", "tools_airline.json")},
			FallbackToolFiles:    []string{filepath.Join(sessions, "tau-bench", "tools_airline.json"), filepath.Join(tau2, "derived", "tools_telecom.json")}}},
		{"swe-agent", importers.Request{Format: "swe-agent", Inputs: sharedTrajectories(t)}},
		{"toolbench", importers.Request{Format: "toolbench", Inputs: glob("toolbench/data_example/answer/*/*.json")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			tt.req.Out = filepath.Join(tmp, tt.name+".jsonl.gz")
			rep, err := importers.Run(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			var without, approximate, missing int64
			for _, m := range rep.MissingSchemas {
				without += int64(m.Calls)
			}
			for _, f := range rep.SchemaFidelity {
				switch f.Fidelity {
				case "approximate":
					approximate += int64(f.Calls)
				case "missing":
					missing += int64(f.Calls)
				default:
					t.Errorf("schema fidelity %q of %s/%s", f.Fidelity, f.Server, f.Tool)
				}
			}
			out := filepath.Join(tmp, "run")
			if o, code := runCLI(t, "run", "--traces", tt.req.Out, "--strategies", "eager", "--allow-unresolved",
				"--no-report", "--bootstrap", "-1", "-q", "-o", out); code != 0 {
				t.Fatalf("run exit %d:\n%s", code, o)
			}
			r := readResultsFile(t, filepath.Join(out, "results.json")).Run.Resolution
			if r == nil {
				t.Fatal("results.json has no run.resolution")
			}
			exact := int64(rep.ToolCalls) - without - approximate - missing
			if r.Calls != int64(rep.ToolCalls) || r.Unresolved != without || r.SchemaApproximate != approximate ||
				r.SchemaMissing != missing || r.Resolved != exact {
				t.Errorf("run resolution: %d calls, %d resolved, %d approximate, %d missing, %d unresolved;\n"+
					"import report: %d calls, %d exact, %d approximate, %d missing, %d without schema",
					r.Calls, r.Resolved, r.SchemaApproximate, r.SchemaMissing, r.Unresolved,
					rep.ToolCalls, exact, approximate, missing, without)
			}
		})
	}
}

// sharedTrajectories returns the shared SWE-agent trajectories (.traj
// files under sessions/swe-agent), in lexical order.
func sharedTrajectories(t *testing.T) []string {
	t.Helper()
	var files []string
	_ = filepath.WalkDir(shareddata.Path(t, "sessions", "swe-agent"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".traj" {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no .traj files in the shared data")
	}
	return files
}
