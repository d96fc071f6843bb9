package sim_test

import (
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestDirectoryTokensIsWhatTheReplaySends pins Engine.DirectoryTokens, which
// recommend prices deferred mode's directory with, to the replay: for every
// directory format, with a never-defer entry, an always-defer entry under
// scope always-defer-only and a local server, it equals what the format adds
// to a session's first request over the same strategy without a directory
// (format none), and it is 0 for none. recommend used to price a line of
// names per deferred tool whatever the format.
func TestDirectoryTokensIsWhatTheReplaySends(t *testing.T) {
	cat, sessions := genTrace(t, 3)
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	domains, err := runner.DefaultDomains()
	if err != nil {
		t.Fatal(err)
	}
	model, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	base, err := presets.Strategy("claude-code-default")
	if err != nil {
		t.Fatal(err)
	}
	base.NeverDefer = []string{"web_search"}
	only := base
	only.Scope, only.AlwaysDefer = sim.ScopeAlwaysDeferOnly, []string{"screenshot", "web_fetch"}
	formats := []sim.Directory{{Format: "none"}, {Format: "names"}, {Format: "names-desc"}, {Format: "names-desc", DescChars: 20},
		{Format: "by-server"}, {Format: "by-domain"}}
	for _, scoped := range []struct {
		name string
		s    sim.Strategy
	}{{"scope mcp", base}, {"scope always-defer-only", only}} {
		for _, d := range formats {
			t.Run(scoped.name+"/"+d.Format, func(t *testing.T) {
				s, none := scoped.s, scoped.s
				s.Name, s.Directory = "dir", d
				none.Name, none.Directory = "nodir", sim.Directory{Format: "none"}
				eng, err := sim.NewEngine(sim.Config{Strategies: []sim.Strategy{s, none}, Model: model, Params: presets.DefaultParams(),
					Catalog: cat, Seed: 1, Registry: reg, Domains: domains, LocalServers: []string{"desktop"}})
				if err != nil {
					t.Fatal(err)
				}
				s.Normalize()
				versions := map[string]string{}
				for _, sv := range sessions[0].Start().Servers() {
					versions[sv.Name] = sv.Version
				}
				got, err := eng.DirectoryTokens(s, versions)
				if err != nil {
					t.Fatal(err)
				}
				if (got == 0) != (d.Format == "none") {
					t.Errorf("%d directory tokens: want 0 for none alone", got)
				}
				// The generated session names every server, at an old version.
				out := eng.ReplayNeed(sim.ExtractNeed(sessions[0]))
				if sent := out[0].PerRequest[0].Input - out[1].PerRequest[0].Input; got != sent {
					t.Errorf("DirectoryTokens %d, the replay's first request sends %d more than without a directory", got, sent)
				}
			})
		}
	}
}
