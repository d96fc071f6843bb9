package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/variantdata"
)

// TestVariantVersionResolves pins that a trace naming a launch variant by
// its version ("playwright__mcp" at "0.0.45+caps-vision-pdf", as the
// catalog file name writes it) names the variant's series, as
// catalog.At reads it, in every command that reads traces: trace validate
// flagged the session_start, the catalog_change and both calls, trace
// stats counted the calls unserved, run and recommend stopped (every call
// "version missing", the session naming a version no catalog holds), and
// calibrate replayed the calls left out and wrote max_unresolved into its
// scenario. A scenario upgrade to "0.0.60+caps-vision-pdf" stopped the run
// ("the catalogs have no such version of server"). The series-key form
// ("playwright__mcp+caps-vision-pdf" at "0.0.45") keeps working, and
// recommend now counts the calls of a variant against its schema in both
// forms; the sessions, over the shared captures, are variantdata's.
func TestVariantVersionResolves(t *testing.T) {
	if testing.Short() {
		t.Skip("replays sessions in several commands")
	}
	for _, f := range variantdata.Forms {
		t.Run(f.Label, func(t *testing.T) {
			dir := t.TempDir()
			cats := variantdata.Catalogs(t, dir)
			trace := variantdata.WriteTrace(t, dir, "variant.jsonl", f, 6, map[string]string{"catalog": filepath.Base(cats)})
			scenario := filepath.Join(dir, "upgrade.yaml")
			upgrade := "name: variant-upgrade\ntraces: [variant.jsonl]\nstrategies: [eager]\nservers:\n  " + f.Name +
				":\n    upgrades:\n      - {to: \"" + f.ChangeTo + "\", after_session: 2}\n"
			if err := os.WriteFile(scenario, []byte(upgrade), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				cmd  string
				args []string
				want []string // in the output
				not  []string // not in the output
			}{
				{"trace validate", []string{"trace", "validate", trace, "--catalogs", cats},
					[]string{"valid: 1 file", "0 problems"}, []string{"no catalog holds"}},
				{"trace stats", []string{"trace", "stats", trace},
					[]string{"tool calls not served at their version in force: 0 of 12"}, nil},
				{"run", []string{"run", "--traces", trace, "--strategies", "eager", "--no-report", "-o", filepath.Join(dir, "run")},
					[]string{"all 12 tool calls resolved against the catalogs"}, []string{"no catalog holds"}},
				{"run, scenario upgrade", []string{"run", scenario, "--no-report", "-o", filepath.Join(dir, "upgrade")},
					[]string{"all 12 tool calls resolved against the catalogs"}, []string{"changes nothing"}},
				{"recommend", []string{"recommend", trace, "--test-share", "0.5", "--bootstrap", "-1", "-o", filepath.Join(dir, "proposal.yaml")},
					[]string{"strategy snippet"}, []string{"did not resolve", "version missing"}},
				{"calibrate", []string{"calibrate", trace, "-o", filepath.Join(dir, "calibrated.yaml")},
					[]string{"calibrated scenario"}, []string{"do not resolve"}},
			} {
				t.Run(tc.cmd, func(t *testing.T) {
					out, code := runCLI(t, tc.args...)
					if code != 0 {
						t.Fatalf("exit %d\n%s", code, out)
					}
					for _, w := range tc.want {
						if !strings.Contains(out, w) {
							t.Errorf("output lacks %q:\n%s", w, out)
						}
					}
					for _, w := range tc.not {
						if strings.Contains(out, w) {
							t.Errorf("output holds %q:\n%s", w, out)
						}
					}
				})
			}
			data, err := os.ReadFile(filepath.Join(dir, "calibrated.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), "max_unresolved") {
				t.Errorf("the calibrated scenario allows unresolved calls:\n%s", data)
			}
			// Every session opens with the variant's tool: recommend must
			// count its calls against the variant's schema (it keyed
			// schemas by bare server name, calls by series, and found the
			// tool never used).
			data, err = os.ReadFile(filepath.Join(dir, "proposal.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if want := "\n    - " + variantdata.FromTool + "  # needed before the first reply in 100.0% of sessions"; !strings.Contains(string(data), want) {
				t.Errorf("the proposal lacks %q:\n%s", want, data)
			}
		})
	}
}

// TestVariantVersionMissingNamesSeries pins how a variant named by its
// version is reported when no catalog holds that version: under the
// variant's series key, with the versions of that series (run said "no
// catalog holds the server", and before the version form was read at all
// it listed the bare server's versions), and trace validate says how it
// read what the trace writes.
func TestVariantVersionMissingNamesSeries(t *testing.T) {
	dir := t.TempDir()
	cats := variantdata.Catalogs(t, dir)
	f := variantdata.Forms[0]
	f.Version = "0.0.46+" + variantdata.Variant
	trace := variantdata.WriteTrace(t, dir, "missing.jsonl", f, 2, nil)
	for _, tc := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"trace validate", []string{"trace", "validate", trace, "--catalogs", cats},
			`session_start names server "playwright__mcp+caps-vision-pdf" at version "0.0.46", which no catalog holds (they have "0.0.45", "0.0.60")` +
				`: a run offers it at "0.0.60" instead, and counts each call on it as version missing; load the catalog of that version, or correct the version in the trace` +
				` (the trace writes server "playwright__mcp" at version "0.0.46+caps-vision-pdf": a version's "+caps-vision-pdf" names the launch variant's series` +
				` "playwright__mcp+caps-vision-pdf", at version "0.0.46")`},
		{"run", []string{"run", "--traces", trace, "--catalogs", cats, "--strategies", "eager", "--no-report", "-o", filepath.Join(dir, "run")},
			"playwright__mcp+caps-vision-pdf@0.0.46 (2 sessions; the catalogs hold playwright__mcp+caps-vision-pdf 0.0.45, 0.0.60)"},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			out, code := runCLI(t, tc.args...)
			if code == 0 {
				t.Fatalf("exit 0, want a failure:\n%s", out)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks\n%s\n:\n%s", tc.want, out)
			}
		})
	}
}
