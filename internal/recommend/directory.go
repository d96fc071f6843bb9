package recommend

import (
	"fmt"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// directoryPricer is the tokens a strategy's directory block adds to every
// request in deferred mode over the catalog versions priced.
type directoryPricer func(s sim.Strategy) (int64, error)

// directoryOf prices directories with eng's own rendering and counting
// (sim.Engine.DirectoryTokens) over the versions the rules price: each
// server's latest, or the version chosen for a server without a release
// order (chooseVersions).
func directoryOf(eng *sim.Engine, chosen map[string]*catalog.Server) directoryPricer {
	versions := map[string]string{}
	for name, s := range chosen {
		versions[name] = s.Version
	}
	return func(s sim.Strategy) (int64, error) { return eng.DirectoryTokens(s, versions) }
}

// proposalDirectory is the directory a run of a proposal with tools'
// decisions shows under scope, on base's mechanics: the never-defer list
// direct and the always-defer list deferred (tools nil: no list, every
// tool deferrable), the local servers' tools left out as the engine
// leaves them out. It returns the base's format too.
func proposalDirectory(tools []Assessment, base sim.Strategy, scope string, dir directoryPricer) (int64, string, error) {
	s := base
	s.NeverDefer = patterns(tools, neverDefer)
	s.AlwaysDefer = patterns(tools, alwaysDefer)
	s.Scope = scope
	s.Normalize()
	n, err := dir(s)
	return n, s.Directory.Format, err
}

// priceDirectories fills p's directory figures: the base's directory
// format, the directory a run of the proposal shows under scope mcp (every
// deferrable tool: all but the never-defer list and the local servers'
// tools, with the always-defer list) and under scope always-defer-only
// (the list alone), and ModeTokens, what scope mcp's deferred mode adds
// to every request (the tool_search definition and its directory).
func priceDirectories(p *Proposal, base sim.Strategy, dir directoryPricer) error {
	var err error
	if p.DirectoryTokens, p.DirectoryFormat, err = proposalDirectory(p.Tools, base, sim.ScopeMCP, dir); err != nil {
		return fmt.Errorf("directory of the deferrable tools: %w", err)
	}
	if p.OnlyDirectoryTokens, _, err = proposalDirectory(p.Tools, base, sim.ScopeAlwaysDeferOnly, dir); err != nil {
		return fmt.Errorf("directory of the always-defer list: %w", err)
	}
	p.ModeTokens = float64(p.Economy.Params.SearchToolCount() + p.DirectoryTokens)
	return nil
}

// directoryWords says what the directory of the deferred tools adds to a
// request: "the base's names-desc directory, 412 tokens", or, under format
// none, that it shows none.
func directoryWords(format string, tokens int64) string {
	if format == "" {
		format = sim.DirNames
	}
	switch {
	case tokens == 0 && format == "none":
		return "no directory (the base's directory format is none)"
	case tokens == 0:
		return fmt.Sprintf("no directory (the base's %s directory lists no tool)", format)
	}
	return fmt.Sprintf("the base's %s directory, %d tokens", format, tokens)
}

// modeCost says what the budget counts deferred mode as adding to every
// request: "deferred mode adds 187 tokens to every request (the
// tool_search definition, 87, and the base's names directory, 100 tokens)".
func (p *Proposal) modeCost() string {
	return fmt.Sprintf("deferred mode adds %.0f tokens to every request (the tool_search definition, %d, and %s)",
		p.ModeTokens, p.Economy.Params.SearchToolCount(), directoryWords(p.DirectoryFormat, p.DirectoryTokens))
}
