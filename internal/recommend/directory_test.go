package recommend

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// oneRequestTrace writes a session of one request whose session_start names
// no server, so a run offers it every catalog server at its latest: the
// versions recommend prices.
func oneRequestTrace(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "one.jsonl")
	const lines = `{"v":1,"type":"session_start","session":"one","t":"2026-03-02T09:00:00Z","system_prompt_tokens":500}
{"type":"user","session":"one","t":"2026-03-02T09:00:00Z","text":"Hello."}
{"type":"model_request","session":"one","t":"2026-03-02T09:00:00Z","id":"req-1"}
{"type":"assistant","session":"one","t":"2026-03-02T09:00:01Z","text_tokens":20,"request":"req-1"}
`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestModeTokensPriceTheBaseDirectory pins that recommend prices deferred
// mode's directory as a run of its proposal sends it, for a base of each
// directory format: DirectoryTokens (scope mcp, which the budget's
// ModeTokens count) and OnlyDirectoryTokens (scope always-defer-only,
// which the always-defer-only decision counts) equal what the proposal,
// in deferred mode, adds to a one-request session's input tokens in a run
// over the same strategy without a directory, with a local server's tools
// left out as the run leaves them out. It used to count a line of names per
// deferred tool whatever the format: too much under none (which sends no
// directory), too little under names-desc and by-domain.
func TestModeTokensPriceTheBaseDirectory(t *testing.T) {
	trace, cat := planted(t, 200)
	one := oneRequestTrace(t)
	sent := map[string]int64{}
	for _, d := range []sim.Directory{{Format: "none"}, {Format: "names"}, {Format: "names-desc"}, {Format: "by-server"}, {Format: "by-domain"}} {
		t.Run(d.Format, func(t *testing.T) {
			base, err := presets.Strategy("claude-code-default")
			if err != nil {
				t.Fatal(err)
			}
			base.Name, base.Directory = "base-"+d.Format, d
			cfg := defaultConfig(t, trace, cat)
			cfg.Base, cfg.TestShare, cfg.LocalServers = &base, 0, []string{"desktop"}
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Strategy.AlwaysDefer) == 0 {
				t.Fatal("no always-defer list: the test needs one to price scope always-defer-only")
			}
			if p.DirectoryFormat != d.Format {
				t.Errorf("directory format %q, want the base's %q", p.DirectoryFormat, d.Format)
			}
			if want := float64(cfg.Params.SearchToolCount() + p.DirectoryTokens); p.ModeTokens != want {
				t.Errorf("mode tokens %.0f, want the tool_search definition and the directory, %.0f", p.ModeTokens, want)
			}
			for _, c := range []struct {
				scope string
				got   int64
			}{{sim.ScopeMCP, p.DirectoryTokens}, {sim.ScopeAlwaysDeferOnly, p.OnlyDirectoryTokens}} {
				on := p.Strategy
				on.Name, on.Trigger, on.Scope = "on", sim.Trigger{Mode: sim.TriggerAlways}, c.scope
				off := on
				off.Name, off.Directory = "off", sim.Directory{Format: "none"}
				catSrcs, err := runner.CatalogSources([]string{cat}, nil)
				if err != nil {
					t.Fatal(err)
				}
				out, err := runner.Run(context.Background(), runner.Config{Scenario: "directory", Seed: 1, Baseline: "on",
					Strategies: []sim.Strategy{on, off}, Model: cfg.Model, Params: cfg.Params, Traces: runner.PathSources(one),
					Catalogs: catSrcs, LocalServers: cfg.LocalServers})
				if err != nil {
					t.Fatal(err)
				}
				in := map[string]float64{}
				for _, s := range out.Results.Strategies {
					in[s.Name] = s.Metrics["input_tokens"].Mean
				}
				if run := int64(in["on"] - in["off"]); c.got != run {
					t.Errorf("scope %s: recommend prices a %d-token directory, the run sends %d", c.scope, c.got, run)
				}
				if (c.got == 0) != (d.Format == "none") {
					t.Errorf("scope %s: %d directory tokens, want 0 for format none alone", c.scope, c.got)
				}
				sent[c.scope+" "+d.Format] = c.got
			}
		})
	}
	// The formats price differently: names-desc shows more than names, and
	// by-domain (each of these servers, without a routing description, its
	// own domain with a summary) other than names.
	if sent["mcp names-desc"] <= sent["mcp names"] || sent["mcp names"] <= sent["mcp none"] || sent["mcp by-domain"] == sent["mcp names"] {
		t.Errorf("directories %v: want none < names < names-desc, and by-domain not names", sent)
	}
}
