package ingest

import (
	"encoding/json"

	"github.com/defersim/defersim/traces"
)

// Gateway mapping counts, as the report names them.
const (
	gwSearch        = "gateway search call → tool_search"
	gwExecute       = "gateway execute call → call of the named tool"
	gwExecuteNoTool = "gateway execute call naming no tool (kept as a call of the execute tool)"
	gwExecuteServer = "gateway execute call naming its server"
)

// gatewayStats counts what the gateway mapping did in one session.
type gatewayStats struct {
	n    map[string]int
	rest map[string]int // execute argument members that are not mapped
}

func (g *gatewayStats) add(what string) {
	if g.n == nil {
		g.n = map[string]int{}
	}
	g.n[what]++
}

func (g *gatewayStats) report(rep *Report) {
	for k, n := range g.n {
		rep.Gateway[k] += n
	}
	for k, n := range g.rest {
		rep.UnmapN("gateway execute argument "+k, n)
	}
	*g = gatewayStats{}
}

// UseGateway makes ToolUse map the calls of g's meta-tools.
func (b *Builder) UseGateway(g *Gateway) { b.gw = g }

// ToolUse adds a tool call the model made, with its name in ev.Tool and its
// raw arguments in ev.Args (ev.Server set when the source names one). A call
// of a gateway search tool becomes a tool_search event with its query; a
// call of a gateway execute tool becomes a call of the tool its arguments
// name, on the server they name, with the inner parameters as arguments;
// any other call is added as it is. await says whether a result follows
// (paired through Answer and completed with Result). It returns the index
// of the event.
func (b *Builder) ToolUse(ev traces.Event, await bool) int {
	switch {
	case b.gw.IsSearch(ev.Tool):
		b.gwStats.add(gwSearch)
		s := traces.Event{Type: traces.ToolSearch, T: ev.T, Request: ev.Request, ChangeFields: &traces.ChangeFields{Query: b.gw.Query(ev.Args)}}
		if await {
			return b.Search(ev.CallID, s)
		}
		return b.Add(s)
	case b.gw.IsExecute(ev.Tool):
		ec, ok := b.gw.Execute(ev.Args)
		if !ok {
			b.gwStats.add(gwExecuteNoTool)
			break
		}
		b.gwStats.add(gwExecute)
		tool, server := SplitMCPName(ec.Tool)
		if ec.Server != "" {
			server = ec.Server
			b.gwStats.add(gwExecuteServer)
		}
		ev.Tool, ev.Server = tool, server
		ev.Args = json.RawMessage("{}") // the model sent no parameters
		if ec.Params != nil {
			args, ok := Args(ec.Params)
			if !ok {
				if b.gwStats.rest == nil {
					b.gwStats.rest = map[string]int{}
				}
				b.gwStats.rest["params (not a JSON object, or one with a key twice; kept as a string)"]++
			}
			ev.Args = args
		}
		for _, k := range ec.Rest {
			if b.gwStats.rest == nil {
				b.gwStats.rest = map[string]int{}
			}
			b.gwStats.rest[k]++
		}
	}
	return b.call(ev, await)
}

// Result completes event i (a tool call or a search) with its result.
// failed is "" for a result that succeeded, else what marked it as failed
// (counted in the report's error_results). A call gets its text, size and
// status; a search keeps the text to read the returned tools from
// (SetSearchText), and a failed search is counted as unmapped: trace v1 has
// no search status.
func (b *Builder) Result(i int, text, failed string) {
	ev := &b.s.Events[i]
	if ev.Type == traces.ToolSearch {
		if failed != "" {
			b.failedSearches++
		}
		b.SetSearchText(i, text)
		return
	}
	SetResult(ev, text, failed != "")
	if failed != "" {
		if b.failedBy == nil {
			b.failedBy = map[string]int{}
		}
		b.failedBy[failed]++
	}
}
