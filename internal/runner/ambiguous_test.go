package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/traces"
)

// TestRunReportsAmbiguousCalls pins that a call naming no server, whose
// tool two servers of its session serve, is not resolved silently: the
// run counts it (results.json run.resolution.ambiguous_calls, top_ambiguous
// with the server chosen, ambiguous_tools) and the summary and report state
// which server was chosen and by what rule. Trace files always name a
// call's server (trace format v1), so the calls are stripped of it in
// memory (Config.Transform), as an Engine caller's sessions may be. Without
// shared names, or with calls naming their server, no key is added and
// results.json is unchanged.
func TestRunReportsAmbiguousCalls(t *testing.T) {
	for _, tc := range []struct {
		name string
		// twin: a copy of the first catalog under another server name,
		// offered to every session; strip: calls name no server.
		twin, strip bool
		ambiguous   bool
	}{
		{name: "calls name their server, a twin server", twin: true},
		{name: "no server named, no shared names", strip: true},
		{name: "no server named, a twin server", twin: true, strip: true, ambiguous: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, []string{"eager"}, 4)
			cfg.Bootstrap = -1
			dir := cfg.Catalogs[0].Path
			var twinOf string
			if tc.twin {
				names, err := filepath.Glob(filepath.Join(dir, "*.json"))
				if err != nil || len(names) == 0 {
					t.Fatalf("no catalog in %s: %v", dir, err)
				}
				data, err := os.ReadFile(names[0])
				if err != nil {
					t.Fatal(err)
				}
				twinOf, _, _ = strings.Cut(filepath.Base(names[0]), "@")
				// "aaa-twin" sorts before every generated server name.
				if err := os.WriteFile(filepath.Join(dir, "aaa-twin@1.json"), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg.Transform = func(s *traces.Session) {
				for i := range s.Events {
					ev := &s.Events[i]
					switch {
					case ev.Type == traces.SessionStart && tc.twin:
						ev.EnsureStart().Servers = append(ev.Servers(), traces.ServerRef{Name: "aaa-twin", Version: "1"})
					case ev.Type == traces.ToolCall && tc.strip:
						ev.Server = ""
					}
				}
			}
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := out.Info.Resolution
			if got := r.Ambiguous > 0; got != tc.ambiguous {
				t.Fatalf("%d ambiguous calls of %d", r.Ambiguous, r.Calls)
			}
			data := resultsBytes(t, out)
			for _, key := range []string{`"ambiguous_calls"`, `"top_ambiguous"`, `"ambiguous_tools"`} {
				if got := bytes.Contains(data, []byte(key)); got != tc.ambiguous {
					t.Errorf("results.json has %s: %v, want %v", key, got, tc.ambiguous)
				}
			}
			var summary bytes.Buffer
			if err := report.Summary(&summary, out.Results); err != nil {
				t.Fatal(err)
			}
			rule := "each resolved to the first server in the session's registry order: the scenario's local servers (servers.NAME.local) first, then by server name, bytewise"
			if got := strings.Contains(summary.String(), rule); got != tc.ambiguous {
				t.Errorf("summary states the rule: %v, want %v:\n%s", got, tc.ambiguous, summary.String())
			}
			if !tc.ambiguous {
				return
			}
			for _, a := range r.TopAmbiguous {
				if a.Chosen != "aaa-twin" || len(a.Servers) != 2 || a.Servers[1] != twinOf {
					t.Errorf("%s: chosen %s of %v, want aaa-twin of [aaa-twin %s]", a.Tool, a.Chosen, a.Servers, twinOf)
				}
			}
			if !strings.Contains(summary.String(), " → aaa-twin (also served by "+twinOf+"; ") || !strings.Contains(summary.String(), "A call that names its server resolves on that server alone.") {
				t.Errorf("summary does not name the chosen server:\n%s", summary.String())
			}
		})
	}
}
